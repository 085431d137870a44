"""The gate from Day 1 to Day 2: who plays on, and why (plain data, no Django).

Two-day events let players through on record: "at least 19 match points", "the top
32", or "19 points or the top 32, whichever lets more through". The rule is set
before the event and applied once to the merged standings of every Day 1 flight;
each player is told the reason for their own outcome, so the rule must be exact:

* Only players still in the event count: a dropped or disqualified player never goes
  through and takes no place in the top N (the next player takes it).
* ``points``: every eligible player with at least that many match points.
* ``top``: the first N eligible players in standings order (tiebreakers decide the
  boundary); with ``ties="points"``, everyone on the N-th player's points too.
* Both set: whichever lets more through. Both sets are prefixes of the standings
  (ranked by match points first), so the larger one is their union.

The standings rows are those of :func:`pairing.standings.compute_standings`
(``rank``, ``player``, ``match_points``, ``dropped``, ``disqualified``), in rank order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Ties = Literal["tiebreakers", "points"]
Why = Literal["points", "top", "tied_top", "below", "tiebreakers", "dropped", "disqualified"]
TIES: tuple[Ties, ...] = ("tiebreakers", "points")


class GateRuleError(ValueError):
    """The rule cannot be applied; the message names the setting."""


@dataclass(frozen=True, slots=True)
class GateRule:
    """``points``: at least this many match points; ``top``: the first N; both: the more."""

    points: int | None = None
    top: int | None = None
    ties: Ties = "tiebreakers"

    def __post_init__(self) -> None:
        if self.points is None and self.top is None:
            raise GateRuleError("the gate needs points, top, or both")
        if self.points is not None and (not isinstance(self.points, int) or self.points < 0):
            raise GateRuleError(f"points must be a whole number of 0 or more, got {self.points!r}")
        if self.top is not None and (not isinstance(self.top, int) or self.top < 1):
            raise GateRuleError(f"top must be a whole number of 1 or more, got {self.top!r}")
        if self.ties not in TIES:
            raise GateRuleError(f"ties must be one of {', '.join(TIES)}, got {self.ties!r}")

    def as_json(self) -> dict[str, Any]:
        """The rule as the interchange and the API write it."""
        return {"points": self.points, "top": self.top, "ties": self.ties}


@dataclass(frozen=True, slots=True)
class GateDecision:
    """One player's outcome: through or not, and the rule's reason for it.

    ``why``: "points" (enough points), "top" (inside the top N), "tied_top" (on the
    N-th player's points, with ``ties="points"``), "below" (neither), "tiebreakers"
    (on the last player through's points but behind them on tiebreakers), "dropped",
    "disqualified".
    """

    player: Any
    rank: int
    points: int | float
    through: bool
    why: Why


@dataclass(frozen=True)
class GateResult:
    """Every player's decision in standings order, and where the line fell."""

    rule: GateRule
    decisions: list[GateDecision]
    through: int
    last_points: int | float | None = None
    by_player: dict[Any, GateDecision] = field(default_factory=dict, repr=False)

    def decision_for(self, player: Any) -> GateDecision | None:
        """The decision for ``player`` (None: not in the standings)."""
        return self.by_player.get(player)


def apply_gate(rows: Sequence[Mapping[str, Any]], rule: GateRule) -> GateResult:
    """Decide the gate for every row (standings order). Pure and deterministic."""
    eligible = [row for row in rows if not row.get("dropped") and not row.get("disqualified")]
    through_ids: dict[Any, Why] = {}
    if rule.points is not None:
        for row in eligible:
            if row["match_points"] >= rule.points:
                through_ids[row["player"]] = "points"
    if rule.top is not None:
        top = eligible[: rule.top]
        for row in top:
            through_ids.setdefault(row["player"], "top")
        if rule.ties == "points" and len(eligible) > rule.top:
            line = top[-1]["match_points"]
            for row in eligible[rule.top :]:
                if row["match_points"] == line:
                    through_ids.setdefault(row["player"], "tied_top")
    through_points = [row["match_points"] for row in eligible if row["player"] in through_ids]
    last_points = min(through_points) if through_points else None
    decisions = [_decision(row, through_ids, last_points) for row in rows]
    return GateResult(
        rule=rule,
        decisions=decisions,
        through=len(through_ids),
        last_points=last_points,
        by_player={d.player: d for d in decisions},
    )


def _decision(
    row: Mapping[str, Any], through_ids: Mapping[Any, Why], last_points: int | float | None
) -> GateDecision:
    player, points = row["player"], row["match_points"]
    why: Why
    if row.get("disqualified"):
        why = "disqualified"
    elif row.get("dropped"):
        why = "dropped"
    elif player in through_ids:
        why = through_ids[player]
    elif last_points is not None and points == last_points:
        why = "tiebreakers"
    else:
        why = "below"
    return GateDecision(player, row["rank"], points, player in through_ids, why)
