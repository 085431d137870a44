"""§3.2 Jack Special Rules, §6.6 Jack Stacking & Superjack and the stacking rulings of
Appendix A."""

import pytest

from rules_engine import PayloadError, adjudicate


def jack(damage=0, tapped=False, fresh=False, **extra):
    return {"damage": damage, "tapped": tapped, "fresh": fresh, **extra}


def stack(base_jacks, base, adding, added_this_turn=0, **extra):
    payload = {
        "base": {"jacks": base_jacks, **base},
        "adding": adding,
        "added_this_turn": added_this_turn,
        **extra,
    }
    return adjudicate("superjack", "stack-jacks", payload)


def test_contract_example_and_appendix_a_marked_damage_2_2_absorbs_a_fresh_jack():
    """Appendix A: Stacking and Marked Damage — "A 2/2 stack with 1 damage that absorbs a
    fresh Jack becomes a 4/4 with 1 damage"."""
    result = stack(2, jack(damage=1), [jack(fresh=True)])
    assert {
        k: result[k]
        for k in (
            "legal",
            "jacks",
            "damage",
            "overencumbered",
            "trained",
            "superjack",
            "trample",
            "power",
            "toughness",
        )
    } == {
        "legal": True,
        "jacks": 3,
        "damage": 1,
        "overencumbered": False,
        "trained": False,
        "superjack": False,
        "trample": False,
        "power": 4,
        "toughness": 4,
    }
    assert "Appendix A: Stacking and Marked Damage" in result["citations"]


def test_appendix_a_marked_damage_two_wounded_jacks_carry_both_wounds():
    """Appendix A: "two wounded 1/1s merge into a 2/2 carrying both wounds"."""
    result = stack(1, jack(damage=1), [jack(damage=1)])
    assert (result["jacks"], result["damage"], result["power"], result["toughness"]) == (2, 2, 2, 2)


def test_appendix_a_overencumbered_two_jacks_added_in_one_turn():
    """Appendix A: Overencumbered Definition; §6.6 Overencumbered."""
    at_once = stack(1, jack(), [jack(), jack()])
    one_by_one = stack(2, jack(), [jack()], added_this_turn=1)
    for result in (at_once, one_by_one):
        assert result["overencumbered"] is True and result["may_attack"] is False
        assert "Appendix A: Overencumbered Definition" in result["citations"]
        assert "cannot attack this turn" in result["explanation"]


def test_appendix_a_adding_a_single_jack_never_overencumbers():
    result = stack(3, jack(), [jack()])
    assert result["overencumbered"] is False and result["may_attack"] is True


def test_s6_6_only_untapped_jacks_may_be_stacked():
    result = stack(1, jack(), [jack(), jack(tapped=True)])
    assert result["legal"] is False
    assert result["violations"] == [
        {
            "rule": "§6.6 Stacking Rules",
            "message": "Only untapped Jacks may be stacked; added Jack 2 is tapped.",
        }
    ]
    assert result["jacks"] == 1  # nothing happens


def test_s6_6_stacking_onto_an_attacking_tapped_jack_keeps_its_role():
    """§6.6 Stacking During Combat: the base may be tapped (attacking)."""
    result = stack(1, jack(tapped=True), [jack()])
    assert result["legal"] is True and result["tapped"] is True
    assert "§6.6 Stacking During Combat" in result["citations"]


def test_s3_2_a_stack_with_a_fresh_component_is_untrained():
    result = stack(2, jack(), [jack(fresh=True)])
    assert result["trained"] is False and result["may_attack"] is False
    assert "§3.2 Untrained Rule" in result["citations"]


def test_appendix_a_jack_stacking_color_any_colours_stack():
    """Appendix A: Jack Stacking - Color — the question asks no colour at all."""
    result = stack(2, jack(), [jack(), jack()])
    assert result["legal"] is True
    assert "Appendix A: Jack Stacking - Color" in result["citations"]


def test_s6_6_four_jacks_are_the_superjack_with_trample_stats_unknown():
    """§6.6 Superjack; §6.6 Power Progression table is missing, so no stats are invented."""
    result = stack(3, jack(), [jack()])
    assert result["superjack"] is True and result["trample"] is True
    assert result["power"] is None and result["toughness"] is None
    assert "no number for 4 Jacks" in result["explanation"]


def test_s6_6_superjack_stats_from_organiser_data():
    result = stack(3, jack(), [jack()], data={"jack_stack": {"4": {"power": 8, "toughness": 8}}})
    assert (result["power"], result["toughness"]) == (8, 8)


def test_appendix_a_stacked_jack_equip_slots_always_two():
    """Appendix A: Stacked Jack Equip Slots."""
    assert stack(3, jack(), [jack()])["equip_slots"] == 2


def test_appendix_a_gravedigger_and_stacked_jacks_separate_in_the_graveyard():
    """Appendix A: Gravedigger and Stacked Jacks — four separate cards, Gravedigger takes one."""
    result = stack(2, jack(), [jack(), jack()])
    assert result["cards_to_graveyard_on_death"] == 4
    assert "Appendix A: Gravedigger and Stacked Jacks" in result["citations"]


def test_payload_error_for_more_jacks_than_exist():
    with pytest.raises(PayloadError) as caught:
        stack(7, jack(), [jack(jacks=2)])
    assert [e["field"] for e in caught.value.errors] == ["adding"]


def test_payload_error_names_missing_fields():
    with pytest.raises(PayloadError) as caught:
        adjudicate(
            "superjack", "stack-jacks", {"base": {"jacks": 0, "tapped": False}, "adding": []}
        )
    assert {e["field"] for e in caught.value.errors} == {
        "base.jacks",
        "base.damage",
        "base.fresh",
        "adding",
        "added_this_turn",
    }
