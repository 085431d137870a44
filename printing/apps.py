import logging

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class PrintingConfig(AppConfig):
    """Printouts for organisers: slips, pairings, standings, decklists, penalties."""

    name = "printing"
    verbose_name = _lazy("Printing")

    def ready(self) -> None:
        # WeasyPrint logs every layout step at INFO: a worker printing 25 chunks would
        # drown its log. Set before WeasyPrint is first imported (it logs on import).
        logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
