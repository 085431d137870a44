"""Dataclysm rules: one module per area of the rules text.

Importing the package registers every Dataclysm question of the adjudication
contract. Citations are ``"Dataclysm: <topic>"`` strings from
:mod:`rules_engine.dataclysm.refs`, each mapped to the rule sentences it cites.
"""

# Imported in the contract's order (deck, attack, curse and play limits, result,
# selection order), which is the order the judge console lists them.
from rules_engine.dataclysm import deck, attack, turn, match, field  # noqa: I001

__all__ = ["attack", "deck", "field", "match", "turn"]
