from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class PrecedentsConfig(AppConfig):
    name = "precedents"
    verbose_name = _lazy("Ruling precedents")
