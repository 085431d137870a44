"""Scoring: flush-score (quick-start Scoring Combinations, 102.2), iacta-check (104.2d),
cash-out (quick-start How to Win)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate
from rules_engine.iacta.scoring import combos_covering, register_score

TABLE = {  # quick-start Scoring Combinations, copied by hand from the rules text
    "minor_run": 5,
    "major_run": 10,
    "deep_run": 18,
    "sigil": 40,
    "trio": 5,
    "quad": 12,
    "quint": 22,
    "hexa": 40,
    "full_house": 15,
    "dual_trio": 25,
    "three_pair": 20,
}


def flush(dice):
    return adjudicate("iacta", "flush-score", {"dice": dice})


@pytest.mark.parametrize(
    ("dice", "combo"),
    [
        ([2, 3, 4], "minor_run"),
        ([1, 2, 3, 4], "major_run"),
        ([2, 3, 4, 5, 6], "deep_run"),
        ([1, 2, 3, 4, 5, 6], "sigil"),
        ([4, 4, 4], "trio"),
        ([5, 5, 5, 5], "quad"),
        ([5, 5, 5, 5, 5], "quint"),
        ([6, 6, 6, 6, 6, 6], "hexa"),
        ([4, 4, 4, 2, 2], "full_house"),
        ([6, 6, 6, 1, 1, 1], "dual_trio"),
        ([2, 2, 3, 3, 5, 5], "three_pair"),
    ],
)
def test_every_table_example_scores_its_combo(dice, combo):
    """Quick-start Scoring Combinations: each row's own example."""
    r = flush(dice)
    assert r["combo"] == combo
    assert r["bonus"] == TABLE[combo]
    assert r["score"] == sum(dice) + TABLE[combo]
    assert "Quick-start: Scoring Combinations" in r["citations"]


def test_a_die_outside_the_combo_forfeits_the_bonus():
    """Quick-start Phase 2: Play (Flush): every die must be part of the combo."""
    r = flush([4, 4, 4, 1])
    assert (r["combo"], r["bonus"], r["score"]) == (None, 0, 13)
    assert "no combo uses every die" in r["explanation"]


def test_order_of_dice_does_not_matter():
    """Contract / Scoring Combinations: the order of dice in a Register does not matter."""
    assert flush([2, 4, 3])["combo"] == "minor_run"
    assert flush([2, 4, 2, 4, 4])["combo"] == "full_house"


def test_empty_and_short_registers_score_their_sum():
    """Quick-start Phase 2: Play (Flush): sum of the dice, no combo under three dice."""
    assert flush([])["score"] == 0
    assert flush([6])["score"] == 6
    assert flush([6, 6])["combo"] is None


def test_runs_above_six_count_102_2():
    """102.2: dice above six still form combos; a run is consecutive values at any height."""
    r = flush([7, 8, 9])
    assert (r["combo"], r["score"]) == ("minor_run", 29)
    assert "102.2" in r["citations"]
    assert flush([5, 6, 7, 8])["combo"] == "major_run"
    assert flush([9, 9, 9, 9])["combo"] == "quad"


def test_sigil_is_exactly_one_through_six():
    """Quick-start table: Sigil is exactly 1-6, so six consecutive dice from 2 are no combo."""
    assert flush([2, 3, 4, 5, 6, 7])["combo"] is None
    assert flush([1, 2, 3, 4, 5, 7])["combo"] is None


def test_groups_must_be_distinct_values():
    """Three Pair needs three distinct pairs; a Quad plus a Pair is none of the table."""
    assert flush([2, 2, 2, 2, 3, 3])["combo"] is None
    assert flush([1, 1, 2, 2, 3, 3])["combo"] == "three_pair"


def test_highest_bonus_wins_when_several_combos_cover():
    """Contract: where several combos cover all dice, the highest bonus counts."""
    assert flush([5, 5, 5, 5, 5])["combo"] == "quint"  # a Quint is never scored as Full House


def test_flush_payload_errors_list_every_field():
    """Contract: 0-6 dice, each at least 1; every problem listed with its field."""
    with pytest.raises(PayloadError) as caught:
        flush([0, 100, "x", 1, 1, 1, 1])
    fields = {e["field"] for e in caught.value.errors}
    assert {"dice", "dice[0]", "dice[1]", "dice[2]"} <= fields


# --- properties ---------------------------------------------------------------------

register = st.lists(st.integers(min_value=1, max_value=12), max_size=6)


def reference_combos(dice):
    """An independent reading of the quick-start table, for comparison."""
    n, counts = len(dice), sorted(Counter(dice).values(), reverse=True)
    found = set()
    consecutive = n > 0 and len(set(dice)) == n and max(dice) - min(dice) == n - 1
    if consecutive and n in (3, 4, 5):
        found.add({3: "minor_run", 4: "major_run", 5: "deep_run"}[n])
    if sorted(dice) == [1, 2, 3, 4, 5, 6]:
        found.add("sigil")
    shapes = {
        (3,): "trio",
        (4,): "quad",
        (5,): "quint",
        (6,): "hexa",
        (3, 2): "full_house",
        (3, 3): "dual_trio",
        (2, 2, 2): "three_pair",
    }
    if tuple(counts) in shapes:
        found.add(shapes[tuple(counts)])
    return found


@given(register)
def test_property_score_is_sum_plus_table_bonus(dice):
    """Score >= sum; == sum with no covering combo; bonus is the table's (Scoring Combinations)."""
    r = register_score(dice)
    assert r["sum"] == sum(dice)
    assert r["score"] >= r["sum"]
    expected = reference_combos(dice)
    if not expected:
        assert r["combo"] is None and r["score"] == sum(dice)
    else:
        assert r["combo"] in expected
        assert r["bonus"] == TABLE[r["combo"]] == max(TABLE[c] for c in expected)
    assert {c.slug for c in combos_covering(dice)} == expected


@given(st.lists(st.integers(min_value=1, max_value=9), max_size=6), st.randoms())
def test_property_order_is_irrelevant(dice, rnd):
    """Contract / Scoring Combinations: shuffling a Register never changes its score."""
    shuffled = list(dice)
    rnd.shuffle(shuffled)
    assert register_score(dice) == register_score(shuffled)


# --- iacta-check ---------------------------------------------------------------------


def check(registers):
    return adjudicate("iacta", "iacta-check", {"registers": registers})


def test_iacta_any_arrangement_of_three_of_each_value():
    """Quick-start How to Win: the three Registers *collectively* hold three of each."""
    assert check([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [1, 2, 3, 4, 5, 6]])["iacta"] is True


def test_iacta_needs_every_slot_and_exact_counts():
    """104.2d / How to Win: exactly three of each value, all 18 slots filled."""
    r = check([[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 6], [5, 5, 5, 6, 6, 6]])
    assert r["iacta"] is False and r["missing"] == [4] and r["extra"] == [6]
    r = check([[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4], [5, 5, 5, 6, 6, 6]])
    assert r["iacta"] is False and r["filled"] == 17
    assert "104.2d" in r["citations"]


def test_iacta_needs_three_registers():
    """301.1: a player has exactly three Registers."""
    with pytest.raises(PayloadError) as caught:
        check([[1, 1, 1]])
    assert caught.value.errors[0]["field"] == "registers"


# --- cash-out ------------------------------------------------------------------------


def test_cash_out_flushes_every_register_with_combos():
    """Quick-start How to Win: remaining Registers are Flushed, still counting combos."""
    r = adjudicate(
        "iacta",
        "cash-out",
        {
            "players": [
                {"id": "A", "banked": 0, "registers": [[6, 6, 6], [1, 2, 3, 4], [7, 7]]},
                {"id": "B", "banked": 50, "registers": [[], [], []]},
                {"id": "C", "banked": 10, "registers": [[1, 2, 3, 4, 5, 6], [], []]},
            ]
        },
    )
    assert r["totals"] == {"A": 23 + 20 + 14, "B": 50, "C": 10 + 21 + 40}
    assert r["winner"] == "C"
    assert [f["combo"] for f in r["flushes"]["A"]] == ["trio", "major_run", None]
    assert "102.2" in r["citations"]


def test_cash_out_three_way_tie_lists_the_tied():
    """Quick-start How to Win: a tie for the highest total goes to a roll-off."""
    players = [{"id": p, "banked": 5, "registers": [[], [], []]} for p in "ABC"]
    r = adjudicate("iacta", "cash-out", {"players": players})
    assert r["roll_off"] is True and r["winner"] is None and r["tied"] == ["A", "B", "C"]
    assert "2d6" in r["explanation"]


def test_cash_out_duplicate_player_is_a_payload_error():
    """Quick-start How to Win: each player is scored once; a repeated id is named."""
    players = [{"id": "A", "banked": 5, "registers": [[], [], []]}] * 2
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "cash-out", {"players": players})
    assert [e["field"] for e in caught.value.errors] == ["players[1].id"]
