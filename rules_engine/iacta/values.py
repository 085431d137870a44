"""Modified values: the final number after every effect (102.1, 102.2, 101.2).

Order (102.1): start from the face value or the most recent "set" effect
(102.1a); add every plus and minus (102.1b); then apply minimums and caps
(102.1c), oldest first so the most recent wins a conflict (101.2); last the
rules' own floors: a die is at least 1, a cost and a count at least 0.

How an effect "explicitly states otherwise" (102.1c): the payload says
``"allow_below_floor": true``; only then may the result go below the floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.iacta.common import array, boolean, enum, integer, obj
from rules_engine.iacta.data import DATA
from rules_engine.registry import question
from rules_engine.ruling import ruling

KINDS: tuple[str, ...] = ("die", "cost", "count")
OPS: tuple[str, ...] = ("set", "add", "min", "max")
# 102.1c: "dice values cannot be lower than 1, and die costs cannot be reduced below 0,
# nor can a card have fewer than zero dice in its dice cost".
FLOORS: dict[str, int] = {"die": 1, "cost": 0, "count": 0}
_NAMES = {"die": "die value", "cost": "cost", "count": "count"}


def _check_effects(effects: Sequence[dict[str, Any]]) -> None:
    """Reject orders that leave the result ambiguous, naming every offending effect."""
    problems = []
    sets = [(i, e) for i, e in enumerate(effects) if e["op"] == "set"]
    if sets:
        latest = max(e["order"] for _, e in sets)
        tied = [(i, e) for i, e in sets if e["order"] == latest]
        if len({e["value"] for _, e in tied}) > 1:
            problems += [
                {
                    "field": f"effects[{i}].order",
                    "message": f"Set effects with different values share the most recent "
                    f"order {latest}; say which was played last.",
                }
                for i, _ in tied
            ]
    limits = [(i, e) for i, e in enumerate(effects) if e["op"] in ("min", "max")]
    for i, effect in limits:
        for j, other in limits:
            if (
                effect["op"] == "min"
                and other["op"] == "max"
                and effect["order"] == other["order"]
                and effect["value"] > other["value"]
            ):
                message = (
                    f"A minimum of {effect['value']} and a cap of {other['value']} conflict "
                    f"and share order {effect['order']}; say which was played last (101.2)."
                )
                problems.append({"field": f"effects[{i}].order", "message": message})
                problems.append({"field": f"effects[{j}].order", "message": message})
    if problems:
        raise PayloadError(problems)


def modified_value(
    kind: str,
    base: int,
    effects: Sequence[dict[str, Any]] = (),
    allow_below_floor: bool = False,
) -> dict[str, Any]:
    """The ruling for a value after ``effects`` (``{"op", "value", "order"}``), in 102.1 order."""
    _check_effects(effects)
    citations = ["102.1"]
    steps = []
    sets = [e for e in effects if e["op"] == "set"]
    start = base
    if sets:
        start = max(sets, key=lambda e: e["order"])["value"]
        citations.append("102.1a")
        steps.append(
            f"the most recent set makes it {start}"
            if len(sets) > 1
            else f"the set effect makes it {start}"
        )
    else:
        steps.append(f"it starts at {base}")
    adds = [e["value"] for e in effects if e["op"] == "add"]
    value = start + sum(adds)
    if adds:
        citations.append("102.1b")
        shown = " ".join(f"{a:+d}" for a in adds)
        steps.append(f"{shown} gives {value}")
    limits = sorted(
        (e for e in effects if e["op"] in ("min", "max")), key=lambda e: e["order"]
    )  # stable: equal orders keep list order
    citations.append("102.1c")
    before_limits = value
    mins = [e["value"] for e in limits if e["op"] == "min"]
    maxes = [e["value"] for e in limits if e["op"] == "max"]
    for effect in limits:
        value = (
            max(value, effect["value"]) if effect["op"] == "min" else min(value, effect["value"])
        )
    if limits:
        words = [f"{'minimum' if e['op'] == 'min' else 'cap'} {e['value']}" for e in limits]
        steps.append(f"{', then '.join(words)} leave{'s' if len(words) == 1 else ''} {value}")
        if mins and maxes and max(mins) > min(maxes):
            citations.append("101.2")
    floor = FLOORS[kind]
    floored = False
    if value < floor and not allow_below_floor:
        value, floored = floor, True
        steps.append(f"a {_NAMES[kind]} cannot go below {floor}, so it is {floor}")
    if kind == "die" and value > DATA.faces:
        citations.append("102.2")
    text = f"The final {_NAMES[kind]} is {value}: " + "; ".join(steps) + "."
    if allow_below_floor and value < floor:
        text += f" An effect in play explicitly lets it go below {floor} (102.1c)."
    return ruling(
        text,
        citations,
        value=value,
        start=start,
        after_modifiers=before_limits,
        floored=floored,
    )


_EFFECT = obj(
    "Effect",
    "One effect modifying the value.",
    {
        "op": enum(
            "Operation",
            "set (treat as N, 102.1a), add (+/-N, 102.1b), min (floor) or max (cap) (102.1c).",
            OPS,
        ),
        "value": integer("Value", "The number the effect sets, adds, floors or caps.", -999, 999),
        "order": integer(
            "Order played", "When the effect was played: higher is more recent.", 0, 1_000_000
        ),
    },
    required=["op", "value", "order"],
)


@question(
    "iacta",
    "modified-value",
    title="Final value of a modified number",
    summary=(
        "Most recent set, then every plus/minus, then minimums and caps; a die never "
        "below 1, a cost or count never below 0 unless an effect says so (102.1, 102.2)."
    ),
    schema=obj(
        "Modified value",
        "The number being modified and every effect modifying it.",
        {
            "kind": enum(
                "Kind",
                "die (a die's value), cost (a die cost number) or count (cards drawn, dice "
                "rolled, dice in a cost).",
                KINDS,
            ),
            "base": integer("Base value", "The printed or face value before effects.", -999, 999),
            "effects": array("Effects", "Every effect modifying the value.", _EFFECT, 50),
            "allow_below_floor": boolean(
                "An effect allows going below the floor",
                "True only if an effect explicitly lets the value go below 1 (die) or "
                "0 (cost, count) (102.1c).",
            ),
        },
        required=["kind", "base", "effects"],
    ),
    example={
        "kind": "die",
        "base": 4,
        "effects": [
            {"op": "set", "value": 6, "order": 1},
            {"op": "add", "value": -2, "order": 2},
            {"op": "max", "value": 5, "order": 3},
        ],
    },
)
def _modified_value(payload: dict[str, Any]) -> dict[str, Any]:
    return modified_value(
        payload["kind"],
        payload["base"],
        payload["effects"],
        payload.get("allow_below_floor", False),
    )
