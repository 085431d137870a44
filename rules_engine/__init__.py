"""Arbiter's rules engine: pure Python, no Django.

The public surface is :func:`adjudicate` (every ruling), :func:`check_payload` (refuse
a payload early), the catalogue helpers and :func:`rules_for` (a game's tournament
vocabulary); each game lives in its own package (``rules_engine.iacta`` …) and registers
its questions with :func:`rules_engine.registry.question`, and its tournament rules with
:func:`rules_engine.tournament.register`, when imported.
"""

from rules_engine.errors import PayloadError, UnknownGame, UnknownQuestion
from rules_engine.registry import (
    GAMES,
    adjudicate,
    catalogue,
    check_payload,
    get_question,
    questions,
)
from rules_engine.tournament import NoSideboardRules, TournamentRules, rules_for

__all__ = [
    "GAMES",
    "NoSideboardRules",
    "PayloadError",
    "TournamentRules",
    "UnknownGame",
    "UnknownQuestion",
    "adjudicate",
    "catalogue",
    "check_payload",
    "get_question",
    "questions",
    "rules_for",
]
