"""Dataclysm: Deck size, Cards with the same name, Great Power Units."""

import pytest

from rules_engine import PayloadError, adjudicate


def deck(*entries):
    return adjudicate("dataclysm", "deck-legality", {"cards": list(entries)})


def card(name, count=3, gpu=False):
    return {"name": name, "count": count, "gpu": gpu}


TEN_TRIPLES = [card(f"CARD {i}") for i in range(10)]


def test_deck_size_30_and_50_are_legal_29_and_51_are_not():
    assert deck(*TEN_TRIPLES)["legal"] is True
    fifty = [card(f"C{i}") for i in range(16)] + [card("LAST", 2)]
    assert deck(*fifty)["legal"] is True
    short = deck(*TEN_TRIPLES[:-1], card("X", 2))
    assert short["violations"] == [
        {"rule": "Dataclysm: Deck size", "message": "The deck has 29 cards; it must have 30 to 50."}
    ]
    assert deck(*fifty, card("ONE MORE", 1))["legal"] is False


def test_same_name_up_to_three_counting_spellings_together():
    """Cards with the same name are the same card; names match ignoring case and spaces."""
    result = deck(*TEN_TRIPLES[1:], card("Dragon", 2), card(" DRAGON ", 2))
    assert result["violations"] == [
        {
            "rule": "Dataclysm: Cards with the same name",
            "message": "Dragon: 4 copies; at most 3 cards may share a name.",
        }
    ]


def test_gpu_is_at_most_one_so_none_is_legal():
    """ "A player can only have up to one [GPU] card in their deck" — up to, not exactly."""
    none = deck(*TEN_TRIPLES)
    one = deck(*TEN_TRIPLES[1:], card("A", 2), card("OVERCLOCK", 1, gpu=True))
    assert none["legal"] and none["gpu_cards"] == 0
    assert one["legal"] and one["gpu_cards"] == 1


@pytest.mark.parametrize(
    "gpus",
    [
        [card("OVERCLOCK", 2, gpu=True)],
        [card("OVERCLOCK", 1, gpu=True), card("MAINFRAME", 1, gpu=True)],
    ],
)
def test_gpu_two_great_power_units_are_illegal(gpus):
    result = deck(*TEN_TRIPLES[1:], card("A", 1), *gpus)
    assert [v["rule"] for v in result["violations"]] == ["Dataclysm: Great Power Units"]


def test_every_violation_is_listed():
    result = deck(card("A", 5, gpu=True), card("B", 4))
    assert [v["rule"] for v in result["violations"]] == [
        "Dataclysm: Deck size",
        "Dataclysm: Cards with the same name",
        "Dataclysm: Cards with the same name",
        "Dataclysm: Great Power Units",
    ]


def test_payload_error_for_one_name_with_two_gpu_flags():
    with pytest.raises(PayloadError) as caught:
        deck(card("X", 1, gpu=True), card("x", 1, gpu=False))
    assert [e["field"] for e in caught.value.errors] == ["cards[1].gpu"]


def test_payload_error_names_each_bad_entry():
    with pytest.raises(PayloadError) as caught:
        deck(
            {"name": "  ", "count": 1, "gpu": False},
            {"name": "B", "count": 0, "gpu": False},
            {"count": 2, "gpu": False},
            {"name": "C", "count": 1},
        )
    assert {e["field"] for e in caught.value.errors} == {
        "cards[0].name",
        "cards[1].count",
        "cards[2].name",
        "cards[3].gpu",
    }
