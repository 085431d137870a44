from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class PushConfig(AppConfig):
    name = "push"
    verbose_name = _lazy("Web Push")

    def ready(self) -> None:
        from push import listeners

        listeners.connect()  # a round's pairings reach players' phones
