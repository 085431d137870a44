"""Small builders for Superjack payload schemas.

The judge console turns each schema into a form, so every property carries a
``title`` and ``description``; card codes always carry a ``pattern``.
"""

from __future__ import annotations

from typing import Any

from rules_engine.superjack.cards import CARD_PATTERN


def field(title: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"title": title, "description": description, **schema}


def card(title: str, description: str, pattern: str = CARD_PATTERN) -> dict[str, Any]:
    # "x-widget" tells the judge console to offer a rank-and-suit picker.
    return field(
        title, description, type="string", pattern=pattern, maxLength=3, **{"x-widget": "card"}
    )


def flag(title: str, description: str) -> dict[str, Any]:
    return field(title, description, type="boolean")


def count(title: str, description: str, minimum: int = 0, maximum: int = 99) -> dict[str, Any]:
    return field(title, description, type="integer", minimum=minimum, maximum=maximum)
