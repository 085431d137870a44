"""Dataclysm: Attack step, Attack targets, Attack damage, Troop damage, First turn,
Troops entering during the Attack step, Startup Lag."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate

EMPTY = [None, None, None, None]


def row(*slots):
    """A row of four slots, the given ones from the left and the rest empty."""
    return [*slots, None, None, None, None][:4]


def troop(id, atk=1, hp=1, **extra):
    return {"id": id, "atk": atk, "hp": hp, **extra}


def enemy(id, atk=1, hp=1, can_be_hit=True, **extra):
    """A defending troop: the contract requires it to say whether it can be hit."""
    return troop(id, atk, hp, can_be_hit=can_be_hit, **extra)


def attack(front=EMPTY, back=EMPTY, dfront=EMPTY, dback=EMPTY, hp=30, first=False):
    return adjudicate(
        "dataclysm",
        "attack-step",
        {
            "attacker": {"front": list(front), "back": list(back)},
            "defender": {"front": list(dfront), "back": list(dback), "hp": hp},
            "first_turn_of_first_player": first,
        },
    )


def test_contract_example():
    result = attack(
        front=[troop("t1", 3, 2), None, None, None],
        dfront=[enemy("e1", 1, 2, can_be_hit=True), None, None, None],
    )
    assert result["attacks"] == [
        {"attacker": "t1", "target": "e1", "damage": 3, "row": "front", "column": 0}
    ]
    assert result["destroyed"] == ["e1"] and result["defender_hp"] == 30


def test_attack_targets_front_slot_then_back_slot_then_the_player():
    result = attack(
        front=[troop("t0"), troop("t1"), troop("t2"), None],
        dfront=[enemy("f0", hp=5), None, None, None],
        dback=[enemy("b0", hp=5), enemy("b1", hp=5), None, None],
    )
    assert [(a["attacker"], a["target"]) for a in result["attacks"]] == [
        ("t0", "f0"),
        ("t1", "b1"),
        ("t2", "player"),
    ]
    assert result["defender_hp"] == 29


def test_attack_targets_unhittable_troops_are_passed_over():
    result = attack(
        front=row(troop("t0", 2), troop("t1", 2)),
        dfront=row(enemy("f0", hp=5, can_be_hit=False), enemy("f1", hp=5, unhittable_by=["t1"])),
        dback=[None, enemy("b1", hp=5), None, None],
    )
    assert [(a["attacker"], a["target"]) for a in result["attacks"]] == [
        ("t0", "player"),
        ("t1", "b1"),
    ]


def test_attack_step_front_row_then_back_row_left_to_right():
    result = attack(
        front=[None, troop("f1"), None, troop("f3")], back=[troop("b0"), None, troop("b2"), None]
    )
    assert [a["attacker"] for a in result["attacks"]] == ["f1", "f3", "b0", "b2"]


def test_troop_damage_a_troop_destroyed_earlier_in_the_step_leaves_its_slot_empty():
    result = attack(
        front=row(troop("t0", 2)),
        back=row(troop("u0", 2)),
        dfront=row(enemy("f0", hp=2)),
        dback=row(enemy("b0", hp=3)),
    )
    assert [(a["attacker"], a["target"]) for a in result["attacks"]] == [("t0", "f0"), ("u0", "b0")]
    assert result["destroyed"] == ["f0"] and result["hp_after"] == {"f0": 0, "b0": 1}
    assert "Dataclysm: Troop damage" in result["citations"]


def test_first_turn_the_first_player_skips_the_attack_step():
    result = attack(front=row(troop("t0", 5)), first=True)
    assert result["attacks"] == [] and result["defender_hp"] == 30
    assert result["citations"] == ["Dataclysm: First turn"]


def test_troops_entering_during_the_attack_step_and_startup_lag_do_not_attack():
    result = attack(
        front=[
            troop("new", 3, entered_this_step=True),
            troop("lag", 3, startup_lag=True),
            troop("ok", 3),
            None,
        ]
    )
    assert [a["attacker"] for a in result["attacks"]] == ["ok"]
    assert result["skipped"] == [
        {"troop": "new", "reason": "entered_this_step"},
        {"troop": "lag", "reason": "startup_lag"},
    ]
    assert {"Dataclysm: Troops entering during the Attack step", "Dataclysm: Startup Lag"} <= set(
        result["citations"]
    )


def test_zero_and_negative_damage_deal_no_damage():
    result = attack(
        front=[troop("z", 0), troop("n", -2), None, None],
        dfront=[enemy("e", hp=1), None, None, None],
    )
    assert [a["damage"] for a in result["attacks"]] == [0, 0]
    assert result["destroyed"] == [] and result["defender_hp"] == 30
    assert "Dataclysm: Zero and negative damage" in result["citations"]


def test_attack_damage_the_step_is_resolved_to_the_end_even_below_zero_hp():
    result = attack(front=[troop("a", 20), troop("b", 20), None, None], hp=30)
    assert result["defender_hp"] == -10 and len(result["attacks"]) == 2


def test_payload_errors_name_duplicate_ids_and_bad_rows():
    with pytest.raises(PayloadError) as caught:
        attack(front=[troop("x"), None, None, None], dback=[None, enemy("x"), None, None])
    assert [e["field"] for e in caught.value.errors] == ["defender.back[1].id"]
    with pytest.raises(PayloadError) as caught:
        attack(front=[None, None, None], dfront=[enemy("e", hp=0), None, None, None])
    assert {e["field"] for e in caught.value.errors} == {"attacker.front", "defender.front[0].hp"}


slots = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"atk": st.integers(-2, 6), "hp": st.integers(1, 6)},
        optional={"entered_this_step": st.booleans(), "startup_lag": st.booleans()},
    ),
)
enemy_slots = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"atk": st.integers(-2, 6), "hp": st.integers(1, 6), "can_be_hit": st.booleans()}
    ),
)
rows = st.lists(slots, min_size=4, max_size=4)
enemy_rows = st.lists(enemy_slots, min_size=4, max_size=4)


def named(slots, prefix):
    return [None if s is None else {"id": f"{prefix}{i}", **s} for i, s in enumerate(slots)]


@settings(max_examples=200, deadline=None)
@given(rows, rows, enemy_rows, enemy_rows, st.booleans())
def test_attack_step_property_no_troop_attacks_twice(front, back, dfront, dback, first):
    result = attack(
        named(front, "f"), named(back, "b"), named(dfront, "x"), named(dback, "y"), first=first
    )
    attackers = [a["attacker"] for a in result["attacks"]]
    assert len(attackers) == len(set(attackers))
    ready = [
        t["id"]
        for t in named(front, "f") + named(back, "b")
        if t and not t.get("entered_this_step") and not t.get("startup_lag")
    ]
    assert attackers == ([] if first else ready)
    to_player = sum(a["damage"] for a in result["attacks"] if a["target"] == "player")
    assert result["defender_hp"] == 30 - to_player
    assert all(a["damage"] >= 0 for a in result["attacks"])
