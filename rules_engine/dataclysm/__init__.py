"""Dataclysm rules: one module per area of the rules text.

Importing the package registers every Dataclysm question of the adjudication
contract. Citations are ``"Dataclysm: <topic>"`` strings from
:mod:`rules_engine.dataclysm.refs`, each mapped to the rule sentences it cites.
"""

from rules_engine.dataclysm import attack, deck, field, match, turn

__all__ = ["attack", "deck", "field", "match", "turn"]
