from django.apps import AppConfig


class RulebookConfig(AppConfig):
    """The web face of the pure rules engine: API, rules reference, ruling page."""

    name = "rulebook"
    verbose_name = "Rules engine and reference"
