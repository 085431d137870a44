"""Shared pieces of the Iacta questions: citation names, schema builders, wording.

Citations are either a comprehensive-rule number as a bare string ("102.2") or
``"Quick-start: <heading>"`` with the heading exactly as iacta-quickstart.txt
prints it; the web layer links both kinds, so they are built here only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

QUICKSTART_HEADINGS: tuple[str, ...] = (
    "Setup",
    "Turn Structure",
    "Phase 1: Maintenance",
    "Phase 2: Play",
    "Phase 3: Pass",
    "Playing Cards",
    "The Effect Resolution Area (ERA)",
    "Card Classes & Speeds",
    "How to Win",
    "Building a Deck",
    "Scoring Combinations",
)


def quickstart(heading: str) -> str:
    """The citation for a quick-start section; a typo fails at import, not in a ruling."""
    if heading not in QUICKSTART_HEADINGS:
        raise ValueError(f"no quick-start heading {heading!r}")
    return f"Quick-start: {heading}"


QS_SCORING = quickstart("Scoring Combinations")
QS_PLAY = quickstart("Phase 2: Play")
QS_MAINTENANCE = quickstart("Phase 1: Maintenance")
QS_PLAYING_CARDS = quickstart("Playing Cards")
QS_ERA = quickstart("The Effect Resolution Area (ERA)")
QS_HOW_TO_WIN = quickstart("How to Win")
QS_BUILDING = quickstart("Building a Deck")

# Payload bounds: not game rules, only limits that keep every answer fast.
MAX_DIE_VALUE = 99
MAX_LIST = 200


# --- JSON Schema builders (draft 2020-12 keywords that fastjsonschema also enforces) ---


def integer(title: str, description: str, minimum: int, maximum: int) -> dict[str, Any]:
    return {
        "type": "integer",
        "title": title,
        "description": description,
        "minimum": minimum,
        "maximum": maximum,
    }


def boolean(title: str, description: str) -> dict[str, Any]:
    return {"type": "boolean", "title": title, "description": description}


def string(title: str, description: str, max_length: int = 100) -> dict[str, Any]:
    return {
        "type": "string",
        "title": title,
        "description": description,
        "minLength": 1,
        "maxLength": max_length,
    }


def enum(title: str, description: str, values: Iterable[str]) -> dict[str, Any]:
    return {"type": "string", "title": title, "description": description, "enum": list(values)}


def array(
    title: str, description: str, items: dict[str, Any], max_items: int, min_items: int = 0
) -> dict[str, Any]:
    schema = {
        "type": "array",
        "title": title,
        "description": description,
        "items": items,
        "maxItems": max_items,
    }
    if min_items:
        schema["minItems"] = min_items
    return schema


def obj(
    title: str, description: str, properties: dict[str, Any], required: Iterable[str] = ()
) -> dict[str, Any]:
    return {
        "type": "object",
        "title": title,
        "description": description,
        "properties": properties,
        "required": list(required),
    }


def die(
    title: str = "Die", description: str = "A die's final value (may exceed 6, 102.2)."
) -> dict:
    return integer(title, description, 1, MAX_DIE_VALUE)


def dice(title: str, description: str, max_items: int, min_items: int = 0) -> dict[str, Any]:
    return array(title, description, die(), max_items, min_items)


# --- wording ---


def show_dice(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def join_words(items: list[str], last: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]
