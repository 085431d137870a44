"""Archetypes: Iacta's rule 202, clusters of shared cards, and the organiser's overrides."""

import random

import pytest

from metagame.archetypes import (
    NO_MAJOR,
    Archetype,
    apply_overrides,
    cluster_decks,
    display_name,
    iacta_archetype,
    merged_key,
)
from rules_engine.iacta.deck import deck_findings

CARDS = {
    **{f"Ember {i}": {"syndicate": "EMB", "tier": "major"} for i in range(10)},
    **{f"Vox {i}": {"syndicate": "VOX", "tier": "major"} for i in range(10)},
    **{f"Shade {i}": {"syndicate": "SHD", "tier": "minor"} for i in range(4)},
    **{f"Ledger {i}": {"syndicate": None, "tier": "neutral"} for i in range(6)},
}


def deck(**counts: int) -> list[dict]:
    """``deck(Ember_0=4)`` → [{"name": "Ember 0", "count": 4}]."""
    return [{"name": name.replace("_", " "), "count": n} for name, n in counts.items()]


# --- Iacta (202) ------------------------------------------------------------------------


def test_a_mono_syndicate_deck_is_its_major_syndicate():
    main = deck(Ember_0=4, Ember_1=4, Ember_2=4, Ledger_0=4, Ledger_1=4)
    assert iacta_archetype(main, CARDS) == Archetype("EMB", "EMB", (), "EMB")


def test_a_splash_gives_the_second_part_of_the_key():
    main = deck(Ember_0=4, Ember_1=4, Ember_2=4, Shade_0=4, Ledger_0=4)
    assert iacta_archetype(main, CARDS) == Archetype(
        "EMB/SHD", "EMB", ("SHD",), "EMB splashing SHD"
    )


def test_a_major_syndicate_can_be_the_splash():
    # 202.3: the Splash Cards' syndicate may be Minor or Major.
    main = deck(Ember_0=4, Ember_1=4, Ember_2=4, Vox_0=4, Vox_1=4)
    assert iacta_archetype(main, CARDS).key == "EMB/VOX"


def test_the_designation_wins_over_the_count_and_is_read_in_capitals():
    main = deck(Ember_0=4, Vox_0=4, Vox_1=4)
    found = iacta_archetype(main, CARDS, main_syndicate=" emb ")
    assert (found.key, found.major, found.splash) == ("EMB/VOX", "EMB", ("VOX",))


def test_names_match_ignoring_case_and_spaces_and_unknown_cards_say_nothing():
    main = [
        {"name": "  ember 0 ", "count": 4},
        {"name": "Mystery Card", "count": 4},
        {"name": "Ledger 1", "count": 4},
    ]
    assert iacta_archetype(main, CARDS).key == "EMB"


def test_no_major_syndicate_when_none_is_designated_and_none_leads():
    tied = deck(Ember_0=4, Vox_0=4)
    assert iacta_archetype(tied, CARDS) == Archetype(NO_MAJOR, None, (), "No Major Syndicate")
    only_minor = deck(Shade_0=4, Ledger_0=4)
    assert iacta_archetype(only_minor, CARDS).key == NO_MAJOR


def test_an_illegal_second_splash_is_named_not_hidden():
    main = deck(Ember_0=4, Ember_1=4, Vox_0=2, Shade_0=2)
    found = iacta_archetype(main, CARDS)
    assert (found.key, found.name) == ("EMB/SHD+VOX", "EMB splashing SHD and VOX")


@pytest.mark.parametrize(
    "counts",
    [
        {"Ember_0": 4, "Ember_1": 4, "Ledger_0": 4},
        {"Ember_0": 4, "Ember_1": 4, "Shade_0": 4, "Ledger_0": 4},
        {"Vox_0": 4, "Vox_1": 4, "Vox_2": 1, "Ember_0": 4, "Ember_1": 4},
        {"Vox_0": 4, "Shade_1": 2, "Ledger_3": 4},
    ],
)
def test_the_archetype_agrees_with_the_legality_check(counts):
    main = deck(**counts)
    found = deck_findings(main, [], CARDS)
    archetype = iacta_archetype(main, CARDS)
    assert archetype.major == found["main_syndicate"]
    assert archetype.splash == ((found["splash_syndicate"],) if found["splash_syndicate"] else ())


# --- Clusters ----------------------------------------------------------------------------

CORES = {
    "dragons": [f"Dragon {i}" for i in range(12)],
    "walls": [f"Wall {i}" for i in range(12)],
    "daemons": [f"Daemon {i}" for i in range(12)],
}
STAPLES = [f"Staple {i}" for i in range(8)]


def three_cores(seed: int) -> dict[str, dict[str, int]]:
    """Thirty decks: each ten of a core's cards, two staples and a random flex card."""
    rng = random.Random(seed)
    decks = {}
    for core, cards in CORES.items():
        for n in range(10):
            chosen = rng.sample(cards, 10) + rng.sample(STAPLES, 2)
            decks[f"{core}-{n:02}"] = {card: rng.randint(1, 3) for card in chosen}
    return decks


def test_three_card_cores_make_three_named_clusters():
    clusters = cluster_decks(three_cores(7))
    groups = {c.key: c for c in clusters.values()}
    assert len(groups) == 3
    for cluster in groups.values():
        cores = {member.split("-")[0] for member in cluster.members}
        assert len(cores) == 1
        (core,) = cores
        # Named by cards of its own core, never by a staple every cluster plays.
        assert len(cluster.cards) == 2
        assert all(card in CORES[core] for card in cluster.cards)
        assert cluster.name == " + ".join(cluster.cards)


def test_the_clusters_do_not_depend_on_the_input_order():
    decks = three_cores(11)
    first = cluster_decks(decks)
    shuffled = list(decks.items())
    random.Random(3).shuffle(shuffled)
    again = cluster_decks({d: dict(reversed(list(cards.items()))) for d, cards in shuffled})
    assert again == first


def test_distinctive_cards_rank_by_share_inside_minus_share_outside_then_name():
    decks = {
        "a1": {"X": 1, "Y": 1, "S": 1},
        "a2": {"X": 1, "Y": 1, "S": 1},
        "b1": {"P": 1, "Q": 1, "S": 1},
        "b2": {"P": 1, "Q": 1, "R": 1, "S": 1},
    }
    clusters = cluster_decks(decks)
    # a: X and Y both 1 - 0; S is 1 - 1. b: P and Q 1 - 0 beat R (0.5 - 0); tie by name.
    assert clusters["a1"].cards == ("X", "Y")
    assert clusters["b2"].cards == ("P", "Q")
    assert clusters["b1"].members == ("b1", "b2")


def test_a_cut_at_zero_keeps_only_identical_decks_together():
    decks = {"a": {"X": 1}, "b": {"X": 2}, "c": {"Y": 1}}
    clusters = cluster_decks(decks, threshold=0.0)
    assert clusters["a"] is clusters["b"]
    assert clusters["c"].members == ("c",)


def test_same_naming_cards_get_distinct_keys():
    # Three decks far apart at a tiny cut: each its own cluster, keys unique.
    decks = {"a": {"X": 1}, "b": {"X": 1, "Y": 1, "Z": 1, "W": 1}, "c": {"V": 1}}
    keys = {c.key for c in cluster_decks(decks, threshold=0.01).values()}
    assert len(keys) == 3


def test_few_decks():
    assert cluster_decks({}) == {}
    (only,) = cluster_decks({"solo": {"A": 2, "B": 1}}).values()
    assert (only.members, only.cards) == (("solo",), ("A", "B"))


# --- Overrides ---------------------------------------------------------------------------


def test_moves_then_merges_then_names():
    computed = {1: "EMB", 2: "EMB/VOX", 3: "VOX", 4: None, 5: "EMB"}
    overrides = {
        "merge": {"EMB/VOX": "EMB", "EMB": "EMB-ALL"},
        "move": {"5": "EMB-CONTROL", "4": "VOX"},
        "names": {"EMB-ALL": "Ember (all)"},
    }
    assert apply_overrides(computed, overrides) == {
        1: "EMB-ALL",
        2: "EMB-ALL",
        3: "VOX",
        4: "VOX",
        5: "EMB-CONTROL",
    }
    assert display_name("EMB-ALL", overrides) == "Ember (all)"
    assert display_name("VOX", overrides, {"VOX": "Vox"}) == "Vox"
    assert display_name("EMB-CONTROL", overrides) == "EMB-CONTROL"


def test_no_overrides_change_nothing():
    computed = {"p": "A", "q": None}
    assert apply_overrides(computed, {}) == computed


def test_a_circle_of_merges_is_refused():
    with pytest.raises(ValueError, match="A → B → A"):
        merged_key("A", {"A": "B", "B": "A"})
