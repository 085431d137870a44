"""The Effect Resolution Area: what occurs in which order, and where pending triggers go.

Rules: quick-start "The Effect Resolution Area (ERA)" (occur top to bottom, most
recently declared first; a cardless action waits until everything above it has
occurred), 502.1 (Pending triggers wait until the ERA is empty, then are placed
in turn order starting with the active player, each player ordering their own)
and 502.2 (one Perpetual triggered several times is placed once and occurs that
many times).

Placing order follows from 502.1: the active player's pending effects go in
first, so they sit at the bottom and occur *last*; the last player in turn
order places last and their effects occur first (with nobody responding).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.iacta.common import QS_ERA, array, join_words, obj, string
from rules_engine.registry import question
from rules_engine.ruling import ruling


def turn_order_from(players: Sequence[str], active_player: str) -> list[str]:
    """``players`` rotated so the active player comes first (502.1)."""
    start = players.index(active_player)
    return [*players[start:], *players[:start]]


def _check(
    players: Sequence[str],
    active_player: str,
    declared: Sequence[dict[str, Any]],
    pending: Sequence[dict[str, Any]],
) -> None:
    problems = []
    for i, name in enumerate(players):
        if name in players[:i]:
            problems.append({"field": f"players[{i}]", "message": f"{name!r} is listed twice."})
    if active_player not in players:
        problems.append(
            {"field": "active_player", "message": f"{active_player!r} is not in players."}
        )
    seen: set[str] = set()
    for area, items in (("declared", declared), ("pending", pending)):
        for i, item in enumerate(items):
            if item["player"] not in players:
                problems.append(
                    {
                        "field": f"{area}[{i}].player",
                        "message": f"{item['player']!r} is not in players.",
                    }
                )
            if item["id"] in seen:
                problems.append(
                    {"field": f"{area}[{i}].id", "message": f"Id {item['id']!r} is used twice."}
                )
            seen.add(item["id"])
    if problems:
        raise PayloadError(problems)


def era_order(
    players: Sequence[str],
    active_player: str,
    declared: Sequence[dict[str, Any]],
    pending: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """Order of occurrence of ``declared`` (bottom to top), then of ``pending`` once placed.

    A pending item may carry ``"source"`` (the Perpetual Card it belongs to): the
    same player's items with the same source are one placement that occurs once
    per item, in sequence (502.2); ``then_occurs`` lists it that many times.
    """
    _check(players, active_player, declared, pending)
    occurs = [item["id"] for item in reversed(declared)]
    order = turn_order_from(players, active_player)

    placed: list[str] = []
    times: dict[str, int] = {}
    for player in order:
        by_source: dict[Any, str] = {}
        for item in pending:
            if item["player"] != player:
                continue
            source = item.get("source")
            if source is not None and source in by_source:
                times[by_source[source]] += 1
                continue
            if source is not None:
                by_source[source] = item["id"]
            placed.append(item["id"])
            times[item["id"]] = 1
    then_occurs = [pid for pid in reversed(placed) for _ in range(times[pid])]
    repeated = {pid: n for pid, n in times.items() if n > 1}

    citations = [QS_ERA]
    text = (
        f"The ERA occurs from the top down: {', '.join(occurs)}."
        if occurs
        else "Nothing is waiting in the ERA."
    )
    if placed:
        citations.append("502.1")
        text += (
            f" Once it is empty the pending effects are placed in turn order from the active "
            f"player {active_player} ({join_words(placed, 'then')}), so with no responses they "
            f"occur {join_words(then_occurs, 'then')}"
        )
        if repeated:
            # Part of the same sentence, so the ruling stays two sentences long.
            citations.append("502.2")
            text += "; " + join_words(
                [f"{pid} is placed once and occurs {n} times" for pid, n in repeated.items()]
            )
            text += " (502.2)"
        text += "."
    return ruling(
        text,
        citations,
        occurs=occurs,
        then_placed=placed,
        then_occurs=then_occurs,
        placing_order=order,
        repeats=repeated,
    )


_NAME = string("Player", "A player's name as used in players.")
_ITEM = obj(
    "ERA item",
    "A declared action, card or effect.",
    {"id": string("Id", "A name for this action, card or effect."), "player": _NAME},
    required=["id", "player"],
)
_PENDING = obj(
    "Pending effect",
    "A trigger that became Pending while the ERA occurred (502.1).",
    {
        "id": string("Id", "A name for this effect."),
        "player": _NAME,
        "source": string(
            "Source card",
            "Optional: the Perpetual Card it belongs to; repeated triggers of one source "
            "are placed once and occur that many times (502.2).",
        ),
    },
    required=["id", "player"],
)


@question(
    "iacta",
    "era-order",
    title="In what order do things occur?",
    summary=(
        "The ERA occurs top to bottom; pending triggers are then placed in turn order from "
        "the active player, so they occur in reverse (quick-start ERA, 502.1, 502.2)."
    ),
    schema=obj(
        "ERA order",
        "Players, what is in the ERA and what became Pending meanwhile.",
        {
            "players": array("Players", "Every player, in turn order.", _NAME, 8, min_items=1),
            "active_player": string("Active player", "Whose turn it is."),
            "declared": array(
                "Declared", "The ERA from bottom (declared first) to top.", _ITEM, 100
            ),
            "pending": array(
                "Pending",
                "Triggers that became Pending; each player's own in the order they place them.",
                _PENDING,
                100,
            ),
        },
        required=["players", "active_player", "declared", "pending"],
    ),
    example={
        "players": ["A", "B"],
        "active_player": "A",
        "declared": [
            {"id": "roll", "player": "A"},
            {"id": "trap-1", "player": "B"},
            {"id": "counter", "player": "A"},
        ],
        "pending": [{"id": "p-b", "player": "B"}, {"id": "p-a", "player": "A"}],
    },
)
def _era_order(payload: dict[str, Any]) -> dict[str, Any]:
    return era_order(
        payload["players"],
        payload["active_player"],
        payload["declared"],
        payload["pending"],
    )
