"""§1 What You Need to Play and §2 Deck Composition: the 40-card deck."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate
from rules_engine.superjack.cards import DECK

ALL_52 = [
    r + s
    for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    for s in "HDSC"
]


def deck(cards):
    return adjudicate("superjack", "deck-legality", {"cards": cards})


def test_s2_the_forty_cards_in_any_order_are_legal():
    shuffled = list(DECK)
    random.Random(7).shuffle(shuffled)
    result = deck(shuffled)
    assert result["legal"] is True and result["violations"] == []
    assert result["citations"] == ["§1 What You Need to Play", "§2 Deck Composition"]


def test_s1_an_eight_makes_the_deck_illegal_not_the_payload_malformed():
    result = deck([*DECK[:-1], "8H"])
    assert result["legal"] is False
    messages = [(v["rule"], v["message"]) for v in result["violations"]]
    assert (
        "§1 What You Need to Play",
        "8H: 8s, 9s and 10s are removed from a Superjack deck.",
    ) in messages
    assert ("§2 Deck Composition", f"{DECK[-1]} is missing.") in messages


def test_s1_a_full_52_card_deck_lists_every_8_9_and_10():
    result = deck(ALL_52)
    removed = [v for v in result["violations"] if v["rule"] == "§1 What You Need to Play"]
    assert len(removed) == 12
    assert {
        "rule": "§2 Deck Composition",
        "message": "The deck has 52 cards; it must have 40.",
    } in result["violations"]


def test_s2_duplicates_and_missing_cards_are_each_listed():
    cards = [*DECK[:-2], "QS", "QS"]
    result = deck(cards)
    messages = {v["message"] for v in result["violations"]}
    assert "QS appears 3 times; each card once." in messages
    assert {f"{DECK[-2]} is missing.", f"{DECK[-1]} is missing."} <= messages
    assert all(v["rule"] == "§2 Deck Composition" for v in result["violations"])


def test_s2_an_empty_deck_is_illegal():
    result = deck([])
    assert result["legal"] is False
    assert len(result["violations"]) == 41  # size + 40 missing


def test_payload_error_names_every_code_that_is_no_playing_card():
    with pytest.raises(PayloadError) as caught:
        deck(["4D", "1H", "QS", "ZZ", "qs", "11C"])
    assert {e["field"] for e in caught.value.errors} == {
        "cards[1]",
        "cards[3]",
        "cards[4]",
        "cards[5]",
    }


def test_payload_error_for_missing_cards_key():
    with pytest.raises(PayloadError) as caught:
        adjudicate("superjack", "deck-legality", {})
    assert caught.value.errors == [{"field": "cards", "message": "This field is required."}]


near_decks = st.one_of(
    st.permutations(DECK).map(list),
    st.tuples(
        st.permutations(DECK), st.lists(st.sampled_from(ALL_52), max_size=3), st.integers(0, 3)
    ).map(lambda t: list(t[0])[t[2] :] + t[1]),
    st.lists(st.sampled_from(ALL_52), max_size=60),
)


@settings(max_examples=200, deadline=None)
@given(near_decks)
def test_s2_property_legal_exactly_when_the_40_distinct_cards(cards):
    result = deck(cards)
    assert result["legal"] == (Counter(cards) == Counter(DECK))
    assert result["legal"] == (result["violations"] == [])
