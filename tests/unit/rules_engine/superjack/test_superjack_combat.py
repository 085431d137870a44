"""§4.2 Damage Resolution, §5.5 Combat and the combat rulings of Appendix A."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate


def attacker(id, power, toughness, blocked=True, **extra):
    return {
        "id": id,
        "power": power,
        "toughness": toughness,
        "damage": 0,
        "trample": False,
        "blocked": blocked,
        "left_combat": False,
        **extra,
    }


def blocker(id, power, toughness, blocking, **extra):
    return {
        "id": id,
        "power": power,
        "toughness": toughness,
        "damage": 0,
        "blocking": blocking,
        "left_combat": False,
        **extra,
    }


def combat(attackers, blockers, assignment=None, health=20):
    payload = {"defender_health": health, "attackers": attackers, "blockers": blockers}
    if assignment is not None:
        payload["assignment"] = assignment
    return adjudicate("superjack", "combat", payload)


def test_contract_example():
    """§4.2 Damage Resolution: simultaneous damage between a 4/4 and a 2/2."""
    result = combat([attacker("a1", 4, 4)], [blocker("b1", 2, 2, "a1")], {"a1": {"b1": 4}})
    assert result["defender_health"] == 20
    assert result["dies"] == ["b1"]
    assert result["damage_to_player"] == 0
    assert result["damage"] == {"a1": 2, "b1": 4}


def test_s4_2_damage_is_simultaneous_both_creatures_die():
    result = combat([attacker("a1", 3, 2)], [blocker("b1", 2, 3, "a1")])
    assert sorted(result["dies"]) == ["a1", "b1"]
    assert "§5.5 Creature Death" in result["citations"]


def test_s4_2_unblocked_attackers_hit_the_player_s8_victory():
    result = combat(
        [attacker("a1", 4, 4, blocked=False), attacker("a2", 3, 1, blocked=False)], [], health=7
    )
    assert result["damage_to_player"] == 7
    assert result["defender_health"] == 0 and result["defender_defeated"] is True
    assert "§8 Victory Condition" in result["citations"]


def test_s4_2_attacker_chooses_how_to_split_among_several_blockers():
    result = combat(
        [attacker("a1", 5, 6)],
        [blocker("b1", 1, 2, "a1"), blocker("b2", 1, 4, "a1")],
        {"a1": {"b1": 1, "b2": 4}},
    )
    assert result["dies"] == ["b2"]
    assert result["damage"] == {"a1": 2, "b1": 1, "b2": 4}


def test_s4_2_several_blockers_without_a_split_is_a_payload_error_naming_the_attacker():
    with pytest.raises(PayloadError) as caught:
        combat([attacker("a1", 5, 6)], [blocker("b1", 1, 2, "a1"), blocker("b2", 1, 4, "a1")])
    assert [e["field"] for e in caught.value.errors] == ["assignment.a1"]


def test_s4_2_a_split_must_use_all_the_attackers_damage():
    with pytest.raises(PayloadError) as caught:
        combat(
            [attacker("a1", 5, 6)],
            [blocker("b1", 1, 2, "a1"), blocker("b2", 1, 4, "a1")],
            {"a1": {"b1": 1, "b2": 1}},
        )
    assert caught.value.errors[0]["field"] == "assignment.a1"
    assert "deals all its 5 damage" in caught.value.errors[0]["message"]


def test_appendix_a_blockers_destroyed_before_damage_once_blocked_always_blocked():
    """Appendix A: Blockers Destroyed Before Damage; §5.5 Blocked Attackers."""
    result = combat([attacker("a1", 4, 4)], [])
    assert result["damage_to_player"] == 0 and result["dealt"] == {"a1": {}}
    assert "Appendix A: Blockers Destroyed Before Damage" in result["citations"]
    assert "once blocked, always blocked" in result["explanation"].lower()


def test_appendix_a_a_superjacks_trample_still_carries_through_with_no_blocker_left():
    result = combat([attacker("sj", 8, 8, trample=True)], [])
    assert result["damage_to_player"] == 8 and result["defender_health"] == 12


def test_s5_5_trample_counts_remaining_toughness():
    """§5.5 Trample Math: lethal is toughness minus damage already taken this turn."""
    result = combat([attacker("sj", 8, 8, trample=True)], [blocker("b1", 2, 3, "sj", damage=1)])
    assert result["dealt"]["sj"] == {"b1": 2, "player": 6}
    assert result["dies"] == ["b1"] and result["defender_health"] == 14
    assert "§5.5 Trample Math" in result["citations"]


def test_s5_5_trample_split_must_be_exactly_lethal_when_it_can_kill_everything():
    with pytest.raises(PayloadError) as caught:
        combat([attacker("sj", 8, 8, trample=True)], [blocker("b1", 2, 3, "sj")], {"sj": {"b1": 5}})
    assert caught.value.errors[0]["field"] == "assignment.sj"


def test_s5_5_trampler_short_of_lethal_splits_with_nothing_to_the_player():
    result = combat(
        [attacker("sj", 4, 8, trample=True)],
        [blocker("b1", 1, 3, "sj"), blocker("b2", 1, 3, "sj")],
        {"sj": {"b1": 3, "b2": 1}},
    )
    assert result["dealt"]["sj"] == {"b1": 3, "b2": 1} and result["damage_to_player"] == 0


def test_s5_5_a_stolen_blocker_leaves_combat_and_the_attacker_stays_blocked():
    """§5.5 Leaving Combat / §4.2: "an attacker whose blocker was stolen remains blocked"."""
    result = combat([attacker("a1", 4, 4)], [blocker("b1", 5, 2, "a1", left_combat=True)])
    assert result["damage"] == {"a1": 0, "b1": 0}
    assert result["damage_to_player"] == 0 and result["dies"] == []
    assert "§5.5 Leaving Combat" in result["citations"]


def test_s5_5_an_attacker_that_left_combat_deals_and_receives_nothing():
    result = combat([attacker("a1", 4, 1, left_combat=True)], [blocker("b1", 5, 2, "a1")])
    assert result["damage"] == {"a1": 0, "b1": 0} and result["dies"] == []


def test_s5_5_damage_accumulates_marked_damage_counts_toward_death():
    result = combat([attacker("a1", 2, 4, damage=3)], [blocker("b1", 1, 3, "a1", damage=1)])
    assert sorted(result["dies"]) == ["a1", "b1"]
    assert result["damage"] == {"a1": 1, "b1": 2}


def test_appendix_a_equipment_when_creature_dies_returns_tapped():
    """Appendix A: Equipment When Creature Dies."""
    result = combat([attacker("a1", 4, 4)], [blocker("b1", 2, 2, "a1", equipped=[["4H", "4D"]])])
    assert result["gems_returned_tapped"] == ["4H", "4D"]
    assert "Appendix A: Equipment When Creature Dies" in result["citations"]


def test_appendix_a_equipment_when_a_creature_is_stolen_returns_tapped():
    """Appendix A: Equipment When a Creature Is Stolen."""
    result = combat([attacker("a1", 4, 4, equipped=[["6S", "6C"]], left_combat=True)], [])
    assert result["gems_returned_tapped"] == ["6S", "6C"]
    assert "Appendix A: Equipment When a Creature Is Stolen" in result["citations"]


def test_payload_errors_name_every_inconsistent_field():
    attackers = [attacker("a1", 4, 4), attacker("a2", 1, 1, blocked=False, damage=1)]
    blockers = [blocker("a1", 1, 1, "a1"), blocker("b2", 1, 1, "a2"), blocker("b3", 1, 1, "zz")]
    with pytest.raises(PayloadError) as caught:
        combat(attackers, blockers, {"a9": {"b1": 1}, "a1": {"b3": 4}})
    assert {e["field"] for e in caught.value.errors} == {
        "blockers[0].id",
        "attackers[1].damage",
        "blockers[1].blocking",
        "blockers[2].blocking",
        "assignment.a9",
        "assignment.a1.b3",
    }


@st.composite
def combats(draw):
    attackers, blockers, assignment = [], [], {}
    for i in range(draw(st.integers(0, 4))):
        toughness = draw(st.integers(1, 8))
        a = attacker(
            f"a{i}",
            draw(st.integers(0, 9)),
            toughness,
            blocked=draw(st.booleans()),
            damage=draw(st.integers(0, toughness - 1)),
            trample=draw(st.booleans()),
            left_combat=draw(st.integers(0, 5)) == 0,
        )
        attackers.append(a)
        if not a["blocked"]:
            continue
        mine = []
        for j in range(draw(st.integers(0, 3))):
            t = draw(st.integers(1, 6))
            b = blocker(
                f"b{i}{j}",
                draw(st.integers(0, 6)),
                t,
                a["id"],
                damage=draw(st.integers(0, t - 1)),
                left_combat=draw(st.integers(0, 5)) == 0,
            )
            blockers.append(b)
            mine.append(b)
        live = [b for b in mine if not b["left_combat"]]
        if a["left_combat"] or len(live) < 2:
            continue
        lethal = {b["id"]: b["toughness"] - b["damage"] for b in live}
        if a["trample"] and a["power"] >= sum(lethal.values()):
            continue
        split, left = {}, a["power"]
        for k, b in enumerate(live[:-1]):
            if a["trample"]:  # short of lethal: no blocker above its lethal, all damage used
                later = sum(lethal[c["id"]] for c in live[k + 1 :])
                low, cap = max(0, left - later), min(left, lethal[b["id"]])
            else:
                low, cap = 0, left
            split[b["id"]] = draw(st.integers(low, cap))
            left -= split[b["id"]]
        split[live[-1]["id"]] = left
        assignment[a["id"]] = split
    return attackers, blockers, assignment


@settings(max_examples=200, deadline=None)
@given(combats())
def test_property_combat_conserves_damage_and_kills_only_at_toughness(case):
    attackers, blockers, assignment = case
    result = combat(attackers, blockers, assignment)
    ids = {a["id"] for a in attackers}
    assigned = sum(n for a in ids for n in result["dealt"].get(a, {}).values())
    received = sum(result["damage"][b["id"]] for b in blockers) + result["damage_to_player"]
    assert assigned == received
    for a in attackers:
        out = sum(result["dealt"].get(a["id"], {}).values())
        live = [b for b in blockers if b["blocking"] == a["id"] and not b["left_combat"]]
        if a["left_combat"] or (a["blocked"] and not live and not a["trample"]):
            assert out == 0
        else:
            assert out == a["power"]
    for c in attackers + blockers:
        total = c["damage"] + result["damage"][c["id"]]
        assert (c["id"] in result["dies"]) == (
            result["damage"][c["id"]] > 0 and total >= c["toughness"]
        )
    assert result["defender_health"] == 20 - result["damage_to_player"]
