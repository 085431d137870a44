"""Confidence intervals for proportions: the Wilson score interval.

Why Wilson and not the textbook ``p ± z·sqrt(p(1-p)/n)``: the textbook (Wald) interval
collapses to a single point at 0 of n and n of n, leaves [0, 1], and covers far less
than it claims for the small samples a metagame is made of (an archetype's eight
matches against another). Wilson's interval stays inside [0, 1], is never empty, and
keeps close to its stated coverage down to a handful of trials (Brown, Cai and
DasGupta, "Interval Estimation for a Binomial Proportion", 2001).
"""

from __future__ import annotations

import math
from typing import NamedTuple

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile, Φ⁻¹(0.975)."""


class Interval(NamedTuple):
    """A closed interval [low, high] inside [0, 1]."""

    low: float
    high: float


def _lower(successes: int, trials: int, z: float) -> float:
    """The lower Wilson bound; 0 exactly when there is no success."""
    if successes == 0:
        return 0.0
    p = successes / trials
    z2n = z * z / trials
    centre = p + z2n / 2
    spread = z * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    return max(0.0, (centre - spread) / (1 + z2n))


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``successes`` out of ``trials`` (95% by default).

    With no trial there is nothing to estimate: the answer is the whole range (0.0, 1.0),
    which a page shows as "no data" rather than as a figure. The upper bound is computed
    as one minus the lower bound of the failures, so the interval is symmetric by
    construction: ``wilson(k, n) == 1 - reversed(wilson(n - k, n))``.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials is not a proportion.")
    if trials == 0:
        return Interval(0.0, 1.0)
    return Interval(
        _lower(successes, trials, z),
        1.0 - _lower(trials - successes, trials, z),
    )
