"""Dataclysm: Curse; Troop play limit, Cheat cards, Method cards, Settings cards, and
Base, Update and Ritual troops."""

import pytest

from rules_engine import PayloadError, adjudicate


def curse(hp, value):
    return adjudicate("dataclysm", "curse", {"hp": hp, "curse": value})


def play(played, proposed, has_target=True):
    return adjudicate(
        "dataclysm",
        "play-limit",
        {"played": played, "proposed": proposed, "has_target": has_target},
    )


def test_curse_contract_example_damage_then_reduce_by_5():
    result = curse(30, 12)
    assert (result["hp"], result["curse"]) == (18, 7)
    assert result["citations"] == ["Dataclysm: Curse"]


def test_curse_cannot_go_below_zero_and_zero_curse_deals_nothing():
    assert (curse(30, 3)["hp"], curse(30, 3)["curse"]) == (27, 0)
    assert (curse(5, 0)["hp"], curse(5, 0)["curse"], curse(5, 0)["damage"]) == (5, 0, 0)


def test_payload_error_negative_curse():
    with pytest.raises(PayloadError) as caught:
        curse(30, -1)
    assert [e["field"] for e in caught.value.errors] == ["curse"]


def test_troop_play_limit_contract_example_second_base_troop_is_legal():
    result = play(["base_troop", "cheat"], "base_troop", has_target=True)
    assert result["legal"] is True and result["played_of_kind"] == 1 and result["limit"] == 2


def test_troop_play_limit_third_base_troop_and_second_update_troop_are_not():
    assert play(["base_troop", "base_troop"], "base_troop")["legal"] is False
    assert play(["update_troop", "base_troop"], "update_troop")["legal"] is False
    assert play(["base_troop", "base_troop"], "update_troop")["legal"] is True


def test_cheat_cards_one_a_turn_and_only_with_a_target():
    assert play([], "cheat", has_target=True)["legal"] is True
    assert play(["cheat"], "cheat", has_target=True)["legal"] is False
    no_target = play([], "cheat", has_target=False)
    assert no_target["legal"] is False and "eligible target" in no_target["explanation"]


@pytest.mark.parametrize("proposed", ["cheat", "base_troop"])
def test_payload_error_when_has_target_is_missing(proposed):
    """The contract does not mark has_target optional, for a Cheat or any other kind."""
    with pytest.raises(PayloadError) as caught:
        adjudicate("dataclysm", "play-limit", {"played": [], "proposed": proposed})
    assert [e["field"] for e in caught.value.errors] == ["has_target"]


def test_method_cards_one_a_turn():
    assert play([], "method")["legal"] is True
    assert play(["method"], "method")["legal"] is False


def test_settings_cards_as_many_as_they_can():
    result = play(["settings"] * 6, "settings")
    assert result["legal"] is True and result["limit"] is None


def test_base_update_and_ritual_troops_rituals_have_no_stated_limit():
    result = play(["ritual_troop"] * 3 + ["base_troop"] * 2, "ritual_troop")
    assert result["legal"] is True and result["limit"] is None
    assert "no per-turn limit for Ritual troops" in result["explanation"]
    assert "Dataclysm: Base, Update and Ritual troops" in result["citations"]


def test_payload_error_unknown_kind_names_its_index():
    with pytest.raises(PayloadError) as caught:
        play(["base_troop", "spell"], "troop")
    assert {e["field"] for e in caught.value.errors} == {"played[1]", "proposed"}
