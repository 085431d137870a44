"""§3.2 Color Requirement, §5.2 Playing Creatures, §6.3 Paid-Pair Bonus, §6.4 Royal Charge."""

import pytest

from rules_engine import PayloadError, adjudicate

# Hypothetical tables an organiser might supply; never shipped (data.toml leaves them unknown).
ORGANISER = {
    "creatures": {"Q": {"power": 2, "toughness": 2}},
    "pair_bonus": {
        "2": {"power": 1, "toughness": 1},
        "3": {"power": 1, "toughness": 1},
        "4": {"power": 1, "toughness": 1},
    },
}


def summon(creature, gems, pool=(), **extra):
    return adjudicate(
        "superjack",
        "summon",
        {"creature": creature, "gems": list(gems), "pool": list(pool), **extra},
    )


def red(gem=None):
    return {"color": "red", "gem": gem}


def test_contract_and_s6_3_example_queen_wears_both_pairs():
    """§6.3: a Queen paid with 2H 2D 3H 3D wears both pairs."""
    result = summon("QH", ["2H", "2D", "3H", "3D"])
    assert result["legal"] is True
    assert result["royal_charge"] is False
    assert result["equipped_pairs"] == [["2H", "2D"], ["3H", "3D"]]
    assert "§6.3 Paid-Pair Bonus" in result["citations"]


def test_s6_3_example_stats_unknown_without_the_missing_tables():
    """§6.3 Bonuses / §3.2 Creature Stats are missing: the ruling says so, invents nothing."""
    result = summon("QH", ["2H", "2D", "3H", "3D"])
    assert result["power"] is None and result["toughness"] is None
    assert "no number for a Queen's stats or a pair of 2s or a pair of 3s" in result["explanation"]


def test_s6_3_example_is_a_4_4_with_organiser_tables():
    """§6.3: "... summons a Queen wearing both pairs — a 4/4 until your next untap step"."""
    result = summon("QH", ["2H", "2D", "3H", "3D"], data=ORGANISER)
    assert (result["power"], result["toughness"]) == (4, 4)
    assert "It is a 4/4." in result["explanation"]


@pytest.mark.parametrize(
    "creature, gems", [("QH", ["3H", "4D", "5H", "6D"]), ("QS", ["6C", "3S", "5S", "4C"])]
)
def test_s6_4_example_queen_paid_with_same_colour_3_4_5_6_gets_royal_charge(creature, gems):
    """§6.4: "Playing a Queen (cost 4) by tapping 3-4-5-6 of the same color"."""
    result = summon(creature, gems)
    assert result["legal"] and result["royal_charge"]
    assert result["rush"] and result["rank_blocking"]
    assert result["equipped_pairs"] == []
    assert "§6.4 Royal Charge" in result["citations"]


def test_appendix_a_royal_charge_duration_lasts_until_end_of_turn():
    """Appendix A: Royal Charge Duration."""
    result = summon("KD", ["3D", "4H", "5D", "6H", "7D"])
    assert result["royal_charge_expires"] == "end_of_turn"
    assert "Appendix A: Royal Charge Duration" in result["citations"]
    assert "until end of turn" in result["explanation"]


@pytest.mark.parametrize(
    "creature, gems",
    [("JH", ["4H", "5D"]), ("AC", ["5S", "6C", "7S"]), ("KH", ["7H", "6D", "5H", "4D", "3H"])],
)
def test_s6_4_every_creature_can_royal_charge_a_run_of_two_for_a_jack(creature, gems):
    """§6.4: Jack 2-gem run, Ace 3, King 5."""
    assert summon(creature, gems)["royal_charge"] is True


@pytest.mark.parametrize("gems", [["2H", "3H", "5H"], ["2H", "2D", "3H"]])
def test_s6_4_gaps_and_repeated_ranks_are_no_straight(gems):
    result = summon("AH", gems)
    assert result["legal"] and not result["royal_charge"]


def test_s6_4_pool_energy_never_counts_toward_royal_charge():
    """§6.4: "energy from your pool (including Mine energy) never counts"."""
    from_gem = summon("QH", ["3H", "4D", "5H"], [red("6D")])
    from_mine = summon("QH", ["3H", "4D", "5H"], [red()])
    for result in (from_gem, from_mine):
        assert result["legal"] is True and result["royal_charge"] is False
        assert "pool energy never counts toward Royal Charge" in result["explanation"]
        assert "§5.3 The Energy Pool" in result["citations"]


def test_s6_3_pool_energy_from_gems_counts_for_the_paid_pair_bonus():
    """§6.3: tap a pair of 5s, Mine for +3, pay a King from the pool: the 5s equip it."""
    result = summon("KH", [], [red("5H"), red("5D"), red(), red(), red()])
    assert result["legal"] is True
    assert result["equipped_pairs"] == [["5H", "5D"]]
    assert result["royal_charge"] is False


def test_s6_3_a_pair_split_between_tapped_gems_and_pool_still_equips():
    result = summon("AD", ["4H", "7D"], [red("4D")])
    assert result["equipped_pairs"] == [["4H", "4D"]]


def test_s3_2_ace_creature_mode_is_a_1_1_with_rush():
    """§3.2 Three Modes: Creature Mode is a 1/1 with Rush (known, so given)."""
    result = summon("AH", ["2H", "4D", "6H"])
    assert result["legal"] and result["rush"] and not result["royal_charge"]
    assert (result["power"], result["toughness"]) == (1, 1)
    assert "§3.2 Three Modes" in result["citations"]


def test_appendix_c_v2_2_paid_pair_bonus_applies_to_aces_too():
    result = summon("AH", ["4H", "4D", "6H"], data=ORGANISER)
    assert result["equipped_pairs"] == [["4H", "4D"]]
    assert (result["power"], result["toughness"]) == (2, 2)


@pytest.mark.parametrize(
    "gems, message",
    [
        (
            ["2H", "3H", "4H", "5H", "6H"],
            "A Queen costs exactly 4 energy; 5 are paid (no overpaying).",
        ),
        (["2H", "3H", "4H"], "A Queen costs exactly 4 energy; 3 are paid (too little)."),
    ],
)
def test_s3_2_cost_is_paid_exactly(gems, message):
    result = summon("QH", gems)
    assert result["legal"] is False and result["royal_charge"] is False
    assert result["violations"] == [{"rule": "§3.2 Color Requirement", "message": message}]
    assert result["equipped_pairs"] == [] and result["power"] is None


def test_s3_2_energy_must_match_the_creature_colour():
    result = summon("QH", ["2H", "3S", "4H"], [{"color": "black", "gem": None}])
    assert result["legal"] is False
    assert result["violations"] == [
        {
            "rule": "§3.2 Color Requirement",
            "message": "QH needs red energy; 3S and pool energy 1 are not red.",
        }
    ]


def test_s6_3_equip_slots_at_most_two_pairs_equip():
    """§6.3 Equip Slots: three pairs (only with an organiser's cost 6 Jack) leave one over."""
    result = summon(
        "JS", ["2S", "2C", "3S", "3C", "4S", "4C"], data={"creatures": {"J": {"cost": 6}}}
    )
    assert result["equipped_pairs"] == [["2S", "2C"], ["3S", "3C"]]
    assert result["unequipped_pairs"] == [["4S", "4C"]]


def test_payload_error_names_duplicate_gems_and_wrong_pool_colours():
    with pytest.raises(PayloadError) as caught:
        summon("QH", ["2H", "2H"], [{"color": "black", "gem": "3H"}, red("2H")])
    assert caught.value.errors == [
        {"field": "gems[1]", "message": "2H is already listed at gems[0]."},
        {"field": "pool[1].gem", "message": "2H is already listed at gems[0]."},
        {"field": "pool[0].color", "message": "3H makes red energy, not black."},
    ]


def test_payload_error_for_a_gem_that_is_a_creature_and_a_creature_that_is_a_gem():
    with pytest.raises(PayloadError) as caught:
        summon("4D", ["QH", "9H"])
    assert {e["field"] for e in caught.value.errors} == {"creature", "gems[0]", "gems[1]"}


def test_payload_error_for_bad_organiser_data_names_its_path():
    with pytest.raises(PayloadError) as caught:
        summon("QH", ["2H", "2D", "3H", "3D"], data={"creatures": {"Q": {"power": -1}}})
    assert [e["field"] for e in caught.value.errors] == ["data.creatures.Q.power"]


def test_s6_3_definition_examples_pairs_are_same_rank_and_same_colour():
    """§6.3 Definition: two red 4s and two black 6s are pairs; a red 4 and a black 4 are not."""
    from rules_engine.superjack.summoning import paid_pairs

    assert paid_pairs(["4H", "4D"]) == [["4H", "4D"]]
    assert paid_pairs(["6S", "6C"]) == [["6S", "6C"]]
    assert paid_pairs(["4H", "4S"]) == []
    assert summon("QS", ["6S", "2C", "6C", "3S"])["equipped_pairs"] == [["6S", "6C"]]
