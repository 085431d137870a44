"""Superjack rules: one module per area of the rules text.

Importing the package registers every Superjack question of the adjudication
contract. Citations are the constants of :mod:`rules_engine.superjack.refs`;
the number tables the rules text lost are game data (:mod:`rules_engine.superjack.data`).
"""

from rules_engine.superjack import combat, deck, gems, jacks, match, royals, summoning

__all__ = ["combat", "deck", "gems", "jacks", "match", "royals", "summoning"]
