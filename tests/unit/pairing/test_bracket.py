"""Top-cut seeding: the pure bracket module."""

import pytest

from pairing.bracket import first_round, next_round, seed_order


def test_bracket_seeding_is_one_v_eight_four_v_five_two_v_seven_three_v_six():
    assert first_round(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert first_round(4) == [(1, 4), (2, 3)]
    assert sorted(seed_order(32)) == list(range(1, 33))
    with pytest.raises(ValueError):
        first_round(6)


def test_winners_meet_in_bracket_order():
    assert next_round(["a", "b", "c", "d"]) == [("a", "b"), ("c", "d")]
