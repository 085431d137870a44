"""Iacta rules: importing the package registers every Iacta question.

One module per area of the rules: ``scoring`` (flush-score, iacta-check,
cash-out), ``costs`` (pay-cost), ``turn`` (turn-action, maintenance),
``values`` (modified-value), ``era`` (era-order), ``deck`` (deck-legality,
sideboard-swap), ``tournament`` (search-time, penalties). Numbers are game data
in ``data.toml`` (see ``data.py``).
"""

import importlib

# Imported in this order so the catalogue lists questions roughly as the contract does.
AREAS: tuple[str, ...] = ("scoring", "costs", "turn", "values", "era", "deck", "tournament")

for _area in AREAS:
    importlib.import_module(f"{__name__}.{_area}")
