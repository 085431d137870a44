from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = _lazy("Decks and card pools")

    def ready(self) -> None:
        from decks import listeners

        listeners.connect()  # Day 2 entries keep their Day 1 decklists
