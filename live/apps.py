from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = _lazy("Live updates")

    def ready(self) -> None:
        from live import access, listeners

        access.connect_listeners()  # open sockets re-checked when rights change
        listeners.connect()  # the notices of each change (live-updates.md)
