from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class RulebookConfig(AppConfig):
    """The web face of the pure rules engine: API, rules reference, ruling page."""

    name = "rulebook"
    verbose_name = _lazy("Rules engine and reference")
