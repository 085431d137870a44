"""Builders for Dataclysm payload schemas: a field's two rows of four slots.

The judge console turns each schema into a form, so every property carries a
``title`` and ``description``.
"""

from __future__ import annotations

from typing import Any

ROWS = ("front", "back")
COLUMNS = 4


def field(title: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"title": title, "description": description, **schema}


def flag(title: str, description: str) -> dict[str, Any]:
    return field(title, description, type="boolean")


def number(title: str, description: str, minimum: int, maximum: int) -> dict[str, Any]:
    return field(title, description, type="integer", minimum=minimum, maximum=maximum)


def troop_id() -> dict[str, Any]:
    return field(
        "Id",
        "A name for this troop, unique on the field.",
        type="string",
        minLength=1,
        maxLength=40,
    )


def rows(slot: dict[str, Any], whose: str) -> dict[str, dict[str, Any]]:
    """The ``front`` and ``back`` rows of ``whose`` field, each four slots, empty as null."""
    return {
        row: field(
            f"{row.capitalize()} row",
            f"{whose}'s {row} row, columns 0-3 left to right; empty slots are null.",
            type="array",
            minItems=COLUMNS,
            maxItems=COLUMNS,
            items=slot,
        )
        for row in ROWS
    }
