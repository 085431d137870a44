from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class BackupsConfig(AppConfig):
    name = "backups"
    verbose_name = _lazy("Backups")

    def ready(self) -> None:
        from backups import listeners

        listeners.connect()
