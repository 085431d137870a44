from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _lazy("Tournaments")

    def ready(self) -> None:
        from tournaments import signals  # noqa: F401  (signals: its receivers)
        from tournaments.clock import time_up

        time_up.start_if_asked()
