"""Payload fields the adjudication contract does not mark optional, and which fields it does.

Shared by the pure tests (tests/unit/rules_engine/test_strict_payloads.py) and the HTTP
tests (tests/rulebook/test_strict_payloads_http.py), so both walk the same cases.
"""

from __future__ import annotations

import copy
from typing import Any

from rules_engine import get_question

# Fields a payload may leave out, per question, as paths: "." between keys, "[]" for an
# array's items, "{}" for the values of a name-keyed object, ".*" for a whole subtree.
# Every other property of every schema must be required (test_strict_payloads.py).
OPTIONAL: dict[tuple[str, str], set[str]] = {
    # Contract: "optionally "payment"".
    ("iacta", "pay-cost"): {"payment"},
    # Not contract fields: card effects that change the quick-start numbers (101.1).
    ("iacta", "maintenance"): {"draw", "hand_limit", "reserve_limit"},
    # Not a contract field: an effect that explicitly allows going below the floor (102.1c).
    ("iacta", "modified-value"): {"allow_below_floor"},
    # Not a contract field: the Perpetual Card a repeated trigger belongs to (502.2).
    ("iacta", "era-order"): {"pending[].source"},
    # Contract: main_syndicate "# optional", "`cards` is optional", max_copies only where
    # a card's text overrides the four-copy limit (Card A carries none).
    ("iacta", "deck-legality"): {"main_syndicate", "cards", "cards{}.max_copies"},
    # The same `cards` object as deck-legality's, filled from the card database when absent;
    # main_syndicate of a configuration as deck-legality's.
    ("iacta", "sideboard-swap"): {
        "cards",
        "cards{}.max_copies",
        "registered.main_syndicate",
        "previous.main_syndicate",
        "proposed.main_syndicate",
    },
    # Not a contract field: a per-ruling override of the organiser's game data.
    ("superjack", "summon"): {"data.*"},
    ("superjack", "straights"): {"data.*"},
    # adding[].jacks is not a contract field: a stack added at once (one Jack when absent).
    ("superjack", "stack-jacks"): {"data.*", "adding[].jacks"},
    # Contract: assignment "# optional"; equipped pairs are not contract fields.
    ("superjack", "combat"): {"assignment", "attackers[].equipped", "blockers[].equipped"},
    # Contract: "`fresh`: entered play this turn; optional, default false".
    ("superjack", "royal-sacrifice"): {"jack.fresh", "queen.fresh", "king.fresh"},
    # Contract: "Troops may carry "entered_this_step": true or "startup_lag": true";
    # unhittable_by is not a contract field.
    ("dataclysm", "attack-step"): {
        "attacker.front[].entered_this_step",
        "attacker.front[].startup_lag",
        "attacker.back[].entered_this_step",
        "attacker.back[].startup_lag",
        "defender.front[].unhittable_by",
        "defender.back[].unhittable_by",
    },
    # Contract: "each player may also carry "concedes": true".
    ("dataclysm", "game-result"): {"A.concedes", "B.concedes"},
}


def example(game: str, slug: str) -> dict[str, Any]:
    return copy.deepcopy(get_question(game, slug).example)


def _with(game: str, slug: str, **changes: Any) -> dict[str, Any]:
    payload = example(game, slug)
    payload.update(copy.deepcopy(changes))
    return payload


_ATTACKER = {
    "id": "a1",
    "power": 4,
    "toughness": 4,
    "damage": 0,
    "trample": False,
    "blocked": True,
    "left_combat": False,
}
_BLOCKER = {
    "id": "b1",
    "power": 2,
    "toughness": 2,
    "damage": 0,
    "blocking": "a1",
    "left_combat": False,
}

# (game, question, a complete payload, the path of one required field in it).
REQUIRED_CASES: list[tuple[str, str, dict[str, Any], tuple[Any, ...]]] = [
    ("iacta", "turn-action", example("iacta", "turn-action"), ("is_first_players_first_turn",)),
    ("iacta", "maintenance", example("iacta", "maintenance"), ("is_first_turn",)),
    ("iacta", "era-order", example("iacta", "era-order"), ("pending",)),
    ("iacta", "deck-legality", example("iacta", "deck-legality"), ("sideboard",)),
    (
        "iacta",
        "deck-legality",
        example("iacta", "deck-legality"),
        ("cards", "Quiet Ledger", "syndicate"),
    ),
    ("iacta", "sideboard-swap", example("iacta", "sideboard-swap"), ("previous",)),
    ("iacta", "sideboard-swap", example("iacta", "sideboard-swap"), ("new_match",)),
    ("superjack", "summon", example("superjack", "summon"), ("pool",)),
    (
        "superjack",
        "summon",
        {"creature": "QH", "gems": ["2H"], "pool": [{"color": "red", "gem": None}]},
        ("pool", 0, "gem"),
    ),
    *(
        (
            "superjack",
            "combat",
            {"defender_health": 20, "attackers": [_ATTACKER], "blockers": [_BLOCKER]},
            path,
        )
        for path in (
            ("attackers", 0, "damage"),
            ("attackers", 0, "trample"),
            ("attackers", 0, "left_combat"),
            ("blockers", 0, "damage"),
            ("blockers", 0, "left_combat"),
        )
    ),
    ("superjack", "stack-jacks", example("superjack", "stack-jacks"), ("base", "damage")),
    ("superjack", "stack-jacks", example("superjack", "stack-jacks"), ("adding", 0, "damage")),
    ("superjack", "stack-jacks", example("superjack", "stack-jacks"), ("added_this_turn",)),
    ("superjack", "royal-sacrifice", example("superjack", "royal-sacrifice"), ("jack", "stacked")),
    ("superjack", "first-player", {"game": 1, "previous": None}, ("previous",)),
    *(
        (
            "superjack",
            "first-player",
            {"game": 3, "previous": {"winner": None, "loser": None, "draw": True}},
            path,
        )
        for path in (("previous", "winner"), ("previous", "loser"))
    ),
    ("dataclysm", "deck-legality", example("dataclysm", "deck-legality"), ("cards", 0, "gpu")),
    (
        "dataclysm",
        "attack-step",
        example("dataclysm", "attack-step"),
        ("defender", "front", 0, "can_be_hit"),
    ),
    (
        "dataclysm",
        "play-limit",
        {"played": [], "proposed": "base_troop", "has_target": False},
        ("has_target",),
    ),
]


def field_name(path: tuple[Any, ...]) -> str:
    """How a PayloadError names the field at ``path`` (``pool[0].gem``)."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def without(payload: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    """A copy of ``payload`` with the field at ``path`` left out."""
    trimmed = copy.deepcopy(payload)
    parent = trimmed
    for part in path[:-1]:
        parent = parent[part]
    del parent[path[-1]]
    return trimmed


def case_id(case: tuple[str, str, dict[str, Any], tuple[Any, ...]]) -> str:
    game, slug, _, path = case
    return f"{game}/{slug}:{field_name(path)}"
