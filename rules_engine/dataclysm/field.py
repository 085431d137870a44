"""The field and its Selection Order (the Selection Order rule).

Each player's field is two rows of four slots. Cards on the field are selected
in Selection Order: the active player's front row left to right, then their back
row, then the opponent's front row and back row. The Attack step walks the
active player's own rows in the same order (the contract's reading of "left to
right").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules_engine.dataclysm import refs
from rules_engine.dataclysm.schemas import ROWS, field, rows, troop_id
from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling

Side = Mapping[str, Any]


def occupied(side: Side) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """(row, column, card) for each occupied slot of one field, in Selection Order."""
    for row in ROWS:
        for column, card in enumerate(side[row]):
            if card is not None:
                yield row, column, card


def duplicate_ids(sides: Mapping[str, Side]) -> list[dict[str, str]]:
    """A PayloadError entry for every id used twice across the given fields."""
    seen: dict[str, str] = {}
    errors = []
    for name, side in sides.items():
        for row, column, card in occupied(side):
            where = f"{name}.{row}[{column}]"
            if card["id"] in seen:
                errors.append(
                    {
                        "field": f"{where}.id",
                        "message": f"Id {card['id']!r} is also used at {seen[card['id']]}.",
                    }
                )
            else:
                seen[card["id"]] = where
    return errors


_SLOT = field(
    "Slot",
    "The card in this slot, or null if empty.",
    type=["object", "null"],
    required=["id"],
    properties={"id": troop_id()},
)

SCHEMA = {
    "type": "object",
    "required": ["active", "opponent"],
    "properties": {
        "active": field(
            "Active player's field",
            "The field of the player whose turn it is.",
            type="object",
            required=list(ROWS),
            properties=rows(_SLOT, "The active player"),
        ),
        "opponent": field(
            "Opponent's field",
            "The other player's field.",
            type="object",
            required=list(ROWS),
            properties=rows(_SLOT, "The opponent"),
        ),
    },
}

EXAMPLE = {
    "active": {
        "front": [{"id": "t1"}, None, {"id": "t3"}, None],
        "back": [None, {"id": "t2"}, None, None],
    },
    "opponent": {
        "front": [None, {"id": "e1"}, None, None],
        "back": [{"id": "e2"}, None, None, None],
    },
}


@question(
    "dataclysm",
    "selection-order",
    title="In what order are these cards selected?",
    summary="Selection Order for simultaneous triggers and multiple targets.",
    schema=SCHEMA,
    example=EXAMPLE,
)
def selection_order(payload: dict[str, Any]) -> dict[str, Any]:
    """Give the queue order outright, since simultaneous triggers are ordered by position."""
    sides = {"active": payload["active"], "opponent": payload["opponent"]}
    errors = duplicate_ids(sides)
    if errors:
        raise PayloadError(errors)
    order = [card["id"] for side in sides.values() for _, _, card in occupied(side)]
    return ruling(
        "Cards are selected in Selection Order: the active player's front row then back row, "
        "then the opponent's front row then back row, each left to right"
        + (f", giving {', '.join(order)}." if order else "; the field is empty."),
        [refs.SELECTION_ORDER, refs.SIMULTANEOUS_TRIGGERS],
        order=order,
    )
