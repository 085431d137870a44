from django.apps import AppConfig


class SeriesConfig(AppConfig):
    name = "series"
    verbose_name = "Series and leagues"
