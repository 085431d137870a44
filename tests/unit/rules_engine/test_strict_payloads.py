"""Payloads are strict where the contract is: a field it does not mark optional is required.

A missing field is a PayloadError naming it, never a silent default: a `maintenance` on a
real first turn without `is_first_turn` used to be ruled as a later turn (a wrong discard).
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine import GAMES, PayloadError, adjudicate, get_question, questions
from tests.unit.rules_engine.strict_cases import (
    OPTIONAL,
    REQUIRED_CASES,
    case_id,
    field_name,
    without,
)

ALL_QUESTIONS = [(q.game, q.slug) for game in GAMES for q in questions(game)]


def _properties(schema: dict[str, Any], path: str = "") -> list[tuple[str, bool]]:
    """(path, required) for every property of every object in ``schema``."""
    found = []
    required = set(schema.get("required", ()))
    for key, sub in schema.get("properties", {}).items():
        child = f"{path}.{key}" if path else key
        found.append((child, key in required))
        found += _properties(sub, child)
    if isinstance(schema.get("items"), dict):
        found += _properties(schema["items"], f"{path}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        found += _properties(schema["additionalProperties"], f"{path}{{}}")
    return found


def _optional(game: str, slug: str, path: str) -> bool:
    """Listed in OPTIONAL, itself or (for a ``.*`` entry) under a listed subtree."""
    for allowed in OPTIONAL.get((game, slug), set()):
        if not allowed.endswith(".*"):
            if path == allowed:
                return True
            continue
        root = allowed[:-2]
        if path == root or path.startswith((f"{root}.", f"{root}[", f"{root}{{")):
            return True
    return False


@pytest.mark.parametrize(("game", "slug"), ALL_QUESTIONS)
def test_every_field_the_contract_does_not_mark_optional_is_required(game, slug):
    schema = get_question(game, slug).schema
    loose = [
        path
        for path, required in _properties(schema)
        if not required and not _optional(game, slug, path)
    ]
    assert loose == [], f"{game}/{slug}: optional in the schema but not in the contract"


@pytest.mark.parametrize(("game", "slug"), ALL_QUESTIONS)
def test_every_optional_field_listed_exists(game, slug):
    """The allow-list names real fields, so a renamed field cannot hide in it."""
    paths = {path for path, _ in _properties(get_question(game, slug).schema)}
    listed = {p[:-2] if p.endswith(".*") else p for p in OPTIONAL.get((game, slug), set())}
    assert listed <= paths


@pytest.mark.parametrize("case", REQUIRED_CASES, ids=case_id)
def test_the_complete_payload_is_answered(case):
    game, slug, payload, _ = case
    assert adjudicate(game, slug, payload)["explanation"]


@pytest.mark.parametrize("case", REQUIRED_CASES, ids=case_id)
def test_a_missing_required_field_is_a_payload_error_naming_it(case):
    game, slug, payload, path = case
    with pytest.raises(PayloadError) as caught:
        adjudicate(game, slug, without(payload, path))
    assert caught.value.errors == [
        {"field": field_name(path), "message": "This field is required."}
    ]


def test_maintenance_without_is_first_turn_is_refused_not_ruled_as_a_later_turn():
    """Quick-start Phase 1: Maintenance: no discard on the first turn, so the flag decides."""
    first = {"hand": 5, "deck": 30, "reserve": 0, "is_first_turn": True}
    assert adjudicate("iacta", "maintenance", first)["discard"] == 0
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "maintenance", without(first, ("is_first_turn",)))
    assert [e["field"] for e in caught.value.errors] == ["is_first_turn"]


def test_a_pool_unit_no_single_gem_made_says_so_with_null():
    """Contract: `gem` is the gem that made the unit, "or null" (Mine): null is accepted."""
    paid = {"creature": "JH", "gems": ["2H"], "pool": [{"color": "red", "gem": None}]}
    ruling = adjudicate("superjack", "summon", paid)
    assert ruling["legal"] is True and ruling["equipped_pairs"] == []
    with pytest.raises(PayloadError) as caught:
        adjudicate("superjack", "summon", {**paid, "pool": [{"color": "red"}]})
    assert [e["field"] for e in caught.value.errors] == ["pool[0].gem"]


def test_a_defender_troop_must_say_whether_it_can_be_hit():
    """The attack-step contract gives every defender troop `can_be_hit`; no default of true."""
    payload = {
        "attacker": {
            "front": [{"id": "t1", "atk": 3, "hp": 2}, None, None, None],
            "back": [None] * 4,
        },
        "defender": {
            "front": [{"id": "e1", "atk": 1, "hp": 2, "can_be_hit": False}, None, None, None],
            "back": [None] * 4,
            "hp": 30,
        },
        "first_turn_of_first_player": False,
    }
    assert adjudicate("dataclysm", "attack-step", payload)["attacks"][0]["target"] == "player"
    with pytest.raises(PayloadError) as caught:
        adjudicate(
            "dataclysm", "attack-step", without(payload, ("defender", "front", 0, "can_be_hit"))
        )
    assert [e["field"] for e in caught.value.errors] == ["defender.front[0].can_be_hit"]


@pytest.mark.parametrize(
    "previous",
    [None, {"winner": None, "loser": None, "draw": True}],
    ids=["game-1", "after-a-draw"],
)
def test_first_player_previous_and_its_players_may_be_null_but_not_absent(previous):
    game = 1 if previous is None else 2
    assert adjudicate("superjack", "first-player", {"game": game, "previous": previous})["random"]
