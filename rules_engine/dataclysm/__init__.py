"""Dataclysm rules: one module per area of the rules text.

Importing the package registers every Dataclysm question of the adjudication
contract. Citations are ``"Dataclysm: <topic>"`` strings from
:mod:`rules_engine.dataclysm.refs`, each mapped to the rule sentences it cites;
:mod:`rules_engine.dataclysm.tournament` declares whose tournament rules its events follow.
"""

# Imported in the contract's order (deck, attack, curse and play limits, result,
# selection order), which is the order the judge console lists them.
from rules_engine.dataclysm import deck, attack, turn, match, field  # noqa: I001
from rules_engine.dataclysm import tournament  # its tournament vocabulary (Iacta's, adopted)

__all__ = ["attack", "deck", "field", "match", "tournament", "turn"]
