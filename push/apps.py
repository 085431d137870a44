from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Web Push"
