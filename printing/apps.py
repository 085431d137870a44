import logging

from django.apps import AppConfig


class PrintingConfig(AppConfig):
    """Printouts for organisers: slips, pairings, standings, decklists, penalties."""

    name = "printing"
    verbose_name = "Printing"

    def ready(self) -> None:
        # WeasyPrint logs every layout step at INFO: a worker printing 25 chunks would
        # drown its log. Set before WeasyPrint is first imported (it logs on import).
        logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
