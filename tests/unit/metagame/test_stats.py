"""The Wilson score interval against published values and its defining properties."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metagame.stats import Interval, wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # 7 of 10: p = 0.7, z² = 3.8415; centre (0.7 + 0.19207)/1.38415 = 0.64453,
        # half-width 1.96·sqrt(0.021 + 0.0096036)/1.38415 = 0.24773.
        (7, 10, 0.39678, 0.89221),
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_published_values(k, n, low, high):
    got = wilson(k, n)
    assert got.low == pytest.approx(low, abs=5e-5)
    assert got.high == pytest.approx(high, abs=5e-5)


def test_none_and_all_of_five():
    # With p = 0 the bound is z²/(n + z²): 3.841459/8.841459.
    assert wilson(0, 5) == (0.0, pytest.approx(0.434482, abs=1e-6))
    assert wilson(5, 5) == (pytest.approx(0.565518, abs=1e-6), 1.0)


def test_a_large_sample_is_close_to_the_normal_interval():
    # 5,000 of 10,000: half-width ~ 1.96·0.5/100 = 0.0098.
    low, high = wilson(5000, 10000)
    assert low == pytest.approx(0.490202, abs=1e-6)
    assert high == pytest.approx(0.509798, abs=1e-6)


def test_no_trial_is_the_whole_range():
    assert wilson(0, 0) == Interval(0.0, 1.0)


@pytest.mark.parametrize(("k", "n"), [(-1, 3), (4, 3), (0, -1)])
def test_not_a_proportion_is_refused(k, n):
    with pytest.raises(ValueError, match="not a proportion"):
        wilson(k, n)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_interval_holds_the_estimate_and_is_symmetric(case):
    k, n = case
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0
    mirror = wilson(n - k, n)
    assert low == pytest.approx(1 - mirror.high, abs=1e-12)
    assert high == pytest.approx(1 - mirror.low, abs=1e-12)
    assert not math.isnan(low + high)
