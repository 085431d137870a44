from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class JudgingConfig(AppConfig):
    name = "judging"
    verbose_name = _lazy("Judging")
