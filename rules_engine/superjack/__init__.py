"""Superjack rules: one module per area of the rules text.

Importing the package registers every Superjack question of the adjudication
contract. Citations are the constants of :mod:`rules_engine.superjack.refs`;
the number tables the rules text lost are game data (:mod:`rules_engine.superjack.data`);
:mod:`rules_engine.superjack.tournament` declares whose tournament rules its events follow.
"""

# Imported in the contract's order, which is the order the judge console lists them.
from rules_engine.superjack import deck, summoning, gems, combat, jacks, royals, match  # noqa: I001
from rules_engine.superjack import tournament  # its tournament vocabulary (Iacta's, adopted)

__all__ = ["combat", "deck", "gems", "jacks", "match", "royals", "summoning", "tournament"]
