"""§6.2 Straights and Appendix A: Straights - Color Requirement."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate
from rules_engine.superjack.cards import color, gem_value

GEMS = [f"{r}{s}" for r in range(2, 8) for s in "HDSC"]


def straights(cards, tapped=(), **extra):
    gems = [{"card": c, "tapped": c in tapped} for c in cards]
    return adjudicate("superjack", "straights", {"gems": gems, **extra})


def runs(result):
    return [s["cards"] for s in result["straights"]]


def test_contract_example_tapped_gems_are_left_out():
    result = straights(["3H", "4D", "5H", "6D", "2S"], tapped={"6D"})
    assert result["straights"] == [
        {
            "cards": ["3H", "4D", "5H"],
            "length": 3,
            "color": "red",
            "maximal": True,
            "power": None,
            "sacrifice": False,
        }
    ]


def test_s6_2_every_maximal_and_sub_run_of_three_or_more():
    result = straights(["5S", "2C", "4S", "3S"])
    assert runs(result) == [["2C", "3S", "4S"], ["2C", "3S", "4S", "5S"], ["3S", "4S", "5S"]]
    assert [s["maximal"] for s in result["straights"]] == [False, True, False]


def test_appendix_a_straights_must_be_one_colour():
    """Appendix A: Straights - Color Requirement."""
    result = straights(["3H", "4S", "5H", "4C", "5D"])
    assert result["straights"] == []
    assert "Appendix A: Straights - Color Requirement" in result["citations"]


def test_s6_2_gems_must_be_consecutive():
    assert straights(["2H", "3H", "5H"])["straights"] == []


def test_s6_2_two_gems_of_a_rank_give_two_straights():
    assert runs(straights(["3H", "4H", "4D", "5H"])) == [["3H", "4H", "5H"], ["3H", "4D", "5H"]]


def test_s6_2_five_and_six_card_straights_sacrifice_a_gem():
    """§6.2 Gem Sacrifice and Appendix A: Gravedigger/Mind Control Gem Sacrifice; §7.2: Mind
    Control is the 6-card straight."""
    result = straights(["2D", "3D", "4D", "5D", "6D", "7D"])
    by_length = {}
    for s in result["straights"]:
        by_length.setdefault(s["length"], set()).add((s["power"], s["sacrifice"]))
    assert by_length == {
        3: {(None, False)},
        4: {(None, False)},
        5: {("Gravedigger", True)},
        6: {("Mind Control", True)},
    }
    assert "Appendix A: Gravedigger/Mind Control Gem Sacrifice" in result["citations"]
    assert "does not say which power a 3-card or 4-card straight has" in result["explanation"]


def test_organiser_data_names_the_unknown_straight_powers():
    result = straights(["2D", "3D", "4D"], data={"straights": {"3": {"name": "Plus One"}}})
    assert result["straights"][0]["power"] == "Plus One"
    assert "does not say" not in result["explanation"]


def test_payload_error_names_repeated_and_non_gem_cards():
    with pytest.raises(PayloadError) as caught:
        straights(["3H", "3H"])
    assert caught.value.errors == [
        {"field": "gems[1].card", "message": "3H is already listed at gems[0].card."}
    ]
    with pytest.raises(PayloadError) as caught:
        straights(["8H", "JH"])
    assert {e["field"] for e in caught.value.errors} == {"gems[0].card", "gems[1].card"}


def brute_force(untapped):
    found = set()
    for n in range(3, 7):
        for combo in combinations(untapped, n):
            values = sorted(gem_value(g) for g in combo)
            if len({color(g) for g in combo}) == 1 and values == list(
                range(values[0], values[0] + n)
            ):
                found.add(frozenset(combo))
    return found


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(GEMS), max_size=12, unique=True), st.data())
def test_s6_2_property_exactly_the_untapped_same_colour_consecutive_runs(cards, data):
    tapped = set(data.draw(st.lists(st.sampled_from(cards), unique=True))) if cards else set()
    result = straights(cards, tapped=tapped)
    found = [frozenset(s["cards"]) for s in result["straights"]]
    assert len(found) == len(set(found))
    assert set(found) == brute_force([c for c in cards if c not in tapped])
