"""Arbiter's rules engine: pure Python, no Django.

The public surface is :func:`adjudicate` (every ruling), :func:`check_payload` (refuse
a payload early) and the catalogue helpers; each game lives in its own package
(``rules_engine.iacta`` …) and registers its questions with
:func:`rules_engine.registry.question` when imported.
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

__all__ = [
    "GAMES",
    "PayloadError",
    "UnknownGame",
    "UnknownQuestion",
    "adjudicate",
    "catalogue",
    "check_payload",
    "get_question",
    "questions",
]
