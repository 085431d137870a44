"""Arbiter's rules engine: pure Python, no Django.

The whole public surface is :func:`adjudicate` plus the catalogue helpers; each
game lives in its own package (``rules_engine.iacta`` …) and registers its
questions with :func:`rules_engine.registry.question` when imported.
"""

from rules_engine.errors import PayloadError, UnknownGame, UnknownQuestion
from rules_engine.registry import (
    GAMES,
    adjudicate,
    catalogue,
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
    "get_question",
    "questions",
]
