"""The shape every answer shares: its own keys plus ``citations`` and ``explanation``."""

from __future__ import annotations

from typing import Any


def ruling(explanation: str, citations: list[str] | tuple[str, ...], **answer: Any) -> dict:
    """Build a ruling; citations keep their first-seen order and appear once."""
    return {**answer, "citations": list(dict.fromkeys(citations)), "explanation": explanation}


def violation(rule: str, message: str) -> dict[str, str]:
    """One entry of a ``violations`` list, the same shape in every game."""
    return {"rule": rule, "message": message}
