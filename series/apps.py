from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class SeriesConfig(AppConfig):
    name = "series"
    verbose_name = _lazy("Series and leagues")
