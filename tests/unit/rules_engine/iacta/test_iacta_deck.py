"""deck-legality (201-203, 902.1, 101.4) and sideboard-swap (902.2-902.5)."""

import pytest

from rules_engine import PayloadError, adjudicate

CARDS = {
    **{f"Emb {i}": {"syndicate": "EMB", "tier": "major"} for i in range(15)},
    **{f"Vox {i}": {"syndicate": "VOX", "tier": "minor"} for i in range(5)},
    **{f"Rust {i}": {"syndicate": "RUST", "tier": "major"} for i in range(5)},
    **{f"Neutral {i}": {"syndicate": None, "tier": "neutral"} for i in range(10)},
    "Swarm": {"syndicate": None, "tier": "neutral", "max_copies": 8},
}


def entries(*pairs):
    return [{"name": name, "count": count} for name, count in pairs]


def deck(main, sideboard=(), main_syndicate=None, cards=CARDS):
    payload = {"main": main, "sideboard": list(sideboard)}
    if main_syndicate:
        payload["main_syndicate"] = main_syndicate
    if cards is not None:
        payload["cards"] = cards
    return adjudicate("iacta", "deck-legality", payload)


def emb(n_names, copies=4):
    return entries(*((f"Emb {i}", copies) for i in range(n_names)))


def rules(result):
    return [v["rule"] for v in result["violations"]]


def test_legal_forty_card_mono_deck():
    """201.1/202.1: forty cards of one Major Syndicate are legal."""
    r = deck(emb(10))
    assert r["legal"] is True and r["violations"] == []
    assert r["main_syndicate"] == "EMB" and r["deck_size"] == 40


def test_deck_size_40_to_60_201_1():
    """201.1: no fewer than forty, no more than sixty."""
    assert rules(deck(emb(9) + entries(("Neutral 0", 3)))) == ["201.1"]
    assert rules(deck(emb(15) + entries(("Neutral 0", 1)))) == ["201.1"]
    assert deck(emb(15))["legal"] is True


def test_four_copies_unless_the_card_says_otherwise_201_1():
    """201.1: no more than four of one card unless its text says otherwise (max_copies)."""
    r = deck(emb(9) + entries(("Neutral 0", 5)))
    assert rules(r) == ["201.1"] and "5 copies of Neutral 0" in r["violations"][0]["message"]
    assert deck(emb(9) + entries(("Swarm", 8)))["legal"] is True


def test_art_variants_count_together_201_2():
    """201.2: different arts are the same card; names match ignoring case and spaces."""
    r = deck(emb(9) + entries(("Neutral 0", 3), (" neutral 0 ", 2)))
    assert rules(r) == ["201.1"] and "201.2" in r["citations"]


def test_sideboard_counts_toward_the_copy_limit_902_1():
    """902.1: cards in the Sideboard count toward the four of a kind limit."""
    r = deck(emb(10), sideboard=entries(("Emb 0", 1)))
    assert rules(r) == ["201.1"] and "902.1" in r["violations"][0]["message"]


def test_sideboard_at_most_ten_902_1():
    """902.1: a Sideboard of up to 10 cards."""
    assert deck(emb(10), entries(("Neutral 0", 4), ("Neutral 1", 4), ("Neutral 2", 2)))["legal"]
    r = deck(emb(10), entries(("Neutral 0", 4), ("Neutral 1", 4), ("Neutral 2", 3)))
    assert rules(r) == ["902.1"]


def test_sideboard_may_hold_other_syndicates_902_2():
    """902.2: cards from other syndicates may remain in the Sideboard."""
    assert deck(emb(10), entries(("Rust 0", 4), ("Vox 0", 4)))["legal"] is True


def test_main_syndicate_is_the_major_with_most_cards_202_1():
    """Contract: without main_syndicate, the Major syndicate with most Deck cards is Main."""
    r = deck(emb(8) + entries(("Rust 0", 4), ("Rust 1", 4)))
    assert r["legal"] is True
    assert (r["main_syndicate"], r["splash_syndicate"], r["splash_cards"]) == ("EMB", "RUST", 8)


def test_a_tie_for_main_syndicate_is_a_202_1_violation():
    """Contract: a tie is a 202.1 violation: designate one."""
    main = (
        emb(3)
        + entries(*((f"Rust {i}", 4) for i in range(3)))
        + entries(*((f"Neutral {i}", 4) for i in range(4)))
    )
    r = deck(main)
    assert rules(r) == ["202.1"] and "designate" in r["violations"][0]["message"]
    r = deck(main, main_syndicate="EMB")
    assert rules(r) == ["202.3"]  # 12 RUST Splash Cards in 40 > 8


def test_no_major_syndicate_is_a_202_1_violation():
    """202.1: a Deck must designate exactly one Major Syndicate."""
    r = deck(entries(*((f"Neutral {i}", 4) for i in range(10))))
    assert rules(r) == ["202.1"]


def test_designated_minor_main_is_a_202_1_violation():
    r = deck(emb(10), main_syndicate="vox")
    assert "202.1" in rules(r)


def test_splash_limit_one_per_five_cards_202_3():
    """202.3: up to one Splash Card for every five cards: 40 -> 8, 44 -> 8, 60 -> 12."""
    ok = emb(8) + entries(("Vox 0", 4), ("Vox 1", 4))
    assert deck(ok)["splash_limit"] == 8 and deck(ok)["legal"] is True
    r = deck(emb(8) + entries(("Vox 0", 4), ("Vox 1", 4), ("Vox 2", 1)))
    assert r["splash_limit"] == 8 and rules(r) == ["202.3"]
    r60 = deck(emb(12) + entries(("Vox 0", 4), ("Vox 1", 4), ("Vox 2", 4)))
    assert r60["splash_limit"] == 12 and r60["legal"] is True


def test_splash_cards_from_one_syndicate_202_3():
    """202.3: all Splash Cards must belong to a single syndicate (Major or Minor)."""
    r = deck(emb(8) + entries(("Vox 0", 4), ("Rust 0", 4)), main_syndicate="EMB")
    assert rules(r) == ["202.3"]


def test_every_violation_is_listed():
    """Contract: every violation is listed, not only the first."""
    main = emb(5, copies=5) + entries(("Vox 0", 4), ("Rust 0", 4), ("Mystery", 1))
    r = deck(main, sideboard=entries(*((f"Neutral {i}", 3) for i in range(4))))
    assert sorted(set(rules(r))) == ["101.4", "201.1", "202.3", "902.1"]
    assert rules(r).count("201.1") == 6  # size + five cards over four


def test_unknown_card_is_a_101_4_violation():
    """101.4: a card's classification comes from its official listing; none means unknown."""
    r = deck(emb(9) + entries(("Mystery Card", 4)))
    assert rules(r) == ["101.4"] and r["unknown_cards"] == ["Mystery Card"]


def test_without_card_data_every_card_is_unknown():
    """101.4: without card data no card can be classified."""
    r = deck(emb(10), cards=None)
    assert rules(r).count("101.4") == 10


def test_major_card_without_syndicate_is_a_payload_error():
    """202.1/202.3 need a major or minor card's syndicate: missing ones are payload errors."""
    cards = {
        "Odd One": {"tier": "major", "syndicate": None},
        "Other": {"tier": "minor", "syndicate": ""},
    }
    with pytest.raises(PayloadError) as caught:
        deck(entries(("Odd One", 4)), cards=cards)
    assert [e["field"] for e in caught.value.errors] == [
        "cards.Odd One.syndicate",
        "cards.Other.syndicate",
    ]


def test_deck_schema_errors_list_every_field():
    """Contract: schema problems of a decklist are all listed with their fields."""
    with pytest.raises(PayloadError) as caught:
        adjudicate(
            "iacta",
            "deck-legality",
            {
                "main": [{"name": "A", "count": 0}, {"count": 2}],
                "sideboard": [],
                "cards": {"A": {"syndicate": None, "tier": "rare"}},
            },
        )
    assert {e["field"] for e in caught.value.errors} == {
        "main[0].count",
        "main[1].name",
        "cards.A.tier",
    }


# --- sideboard-swap ------------------------------------------------------------------

REGISTERED = {
    "main": emb(8) + entries(("Neutral 0", 4), ("Neutral 1", 4)),
    "sideboard": entries(("Neutral 2", 4), ("Vox 0", 2)),
}


def swap(proposed, previous=REGISTERED, new_match=False):
    payload = {
        "registered": REGISTERED,
        "previous": previous,
        "proposed": proposed,
        "new_match": new_match,
        "cards": CARDS,
    }
    return adjudicate("iacta", "sideboard-swap", payload)


def test_one_for_one_swap_is_legal_902_4():
    """902.4: swap cards between Deck and Sideboard one for one."""
    proposed = {
        "main": emb(8) + entries(("Neutral 0", 4), ("Neutral 1", 2), ("Vox 0", 2)),
        "sideboard": entries(("Neutral 2", 4), ("Neutral 1", 2)),
    }
    r = swap(proposed)
    assert r["legal"] is True
    assert r["swapped_in"] == [{"name": "Vox 0", "count": 2}]
    assert r["swapped_out"] == [{"name": "Neutral 1", "count": 2}]


def test_sideboard_keeps_its_size_902_3():
    """902.3: the Sideboard always holds the same number of cards between games."""
    proposed = {
        "main": emb(8) + entries(("Neutral 0", 4), ("Neutral 1", 4), ("Vox 0", 2)),
        "sideboard": entries(("Neutral 2", 4)),
    }
    assert set(v["rule"] for v in swap(proposed)["violations"]) == {"902.3", "902.4"}


def test_cards_from_outside_are_not_swaps_902_4():
    proposed = {
        "main": emb(8) + entries(("Neutral 0", 4), ("Neutral 1", 3), ("Neutral 5", 1)),
        "sideboard": entries(("Neutral 2", 4), ("Vox 0", 2)),
    }
    r = swap(proposed)
    assert [v["rule"] for v in r["violations"]] == ["902.4", "902.4"]
    assert "Neutral 5" in r["violations"][0]["message"]


def test_modified_deck_stays_legal_902_2():
    """902.2: the modified Deck must remain legal under Section 200 (splash limit here)."""
    registered_big_side = {
        "main": REGISTERED["main"],
        "sideboard": entries(("Vox 0", 4), ("Vox 1", 4), ("Vox 2", 1)),
    }
    proposed = {
        "main": emb(6)
        + entries(("Neutral 0", 3), ("Vox 0", 4), ("Vox 1", 4), ("Vox 2", 1), ("Neutral 1", 4)),
        "sideboard": entries(("Emb 6", 4), ("Emb 7", 4), ("Neutral 0", 1)),
    }
    r = adjudicate(
        "iacta",
        "sideboard-swap",
        {
            "registered": registered_big_side,
            "previous": registered_big_side,
            "proposed": proposed,
            "new_match": False,
            "cards": CARDS,
        },
    )
    assert [v["rule"] for v in r["violations"]] == ["202.3"]
    assert "902.2" in r["citations"]


def test_new_match_returns_to_registered_902_5():
    """902.5: at the start of a new match, back to the registered configuration."""
    previous = {
        "main": emb(8) + entries(("Neutral 0", 4), ("Neutral 1", 2), ("Vox 0", 2)),
        "sideboard": entries(("Neutral 2", 4), ("Neutral 1", 2)),
    }
    assert swap(previous, previous=previous, new_match=False)["legal"] is True
    r = swap(previous, previous=previous, new_match=True)
    assert [v["rule"] for v in r["violations"]] == ["902.5"]
    assert swap(REGISTERED, previous=previous, new_match=True)["legal"] is True
