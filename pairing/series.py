"""Series standings: a season or circuit of events added up per player. Pure Python.

A series earns points per event in one of two ways:

* ``match_points``: the match points the player scored in the event;
* ``placings``: a table of points per final place (``points[0]`` for 1st, ``points[1]``
  for 2nd, …; places past the table earn none). A band of tied places ("3rd-4th", the
  semifinal losers) earns the points of its best place.

Either way each event played adds the participation points, and a player disqualified
from an event earns nothing there. Only a player's best ``best_of`` events count (all
of them when ``best_of`` is None); ties on the total are broken by the series'
tiebreakers, in order, and players equal on all of them share a rank.

The rule and its limits are this module's; the site stores a series and calls it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

METHODS = {
    "match_points": "match points scored in each event",
    "placings": "a table of points per final place",
}
TIEBREAKERS = {
    "best_finish": "best single finish",
    "match_wins": "match wins across the series",
    "events_played": "events played",
    "omw": "average opponents' match-win percentage",
}
DEFAULT_TIEBREAKERS = ("best_finish", "match_wins", "omw")
MAX_TABLE_PLACES = 1024  # the largest top cut an event can have
MAX_POINTS = 10_000


class SeriesRuleError(ValueError):
    """A rule that cannot be used, with every problem as ``(field, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(message for _, message in problems))
        self.problems = problems


@dataclass(frozen=True)
class SeriesRule:
    method: str = "match_points"
    placing_points: tuple[int, ...] = ()
    participation: int = 0
    best_of: int | None = None
    tiebreakers: tuple[str, ...] = DEFAULT_TIEBREAKERS


@dataclass(frozen=True)
class Finish:
    """One player's result in one event, as the series reads it."""

    event: int
    player: str  # the identity across events: an account, or one walk-in entry
    name: str
    place: int
    match_points: int = 0
    match_wins: int = 0
    omw: float = 0.0
    disqualified: bool = False


@dataclass(frozen=True)
class EventScore:
    event: int
    place: int
    points: int
    counted: bool
    disqualified: bool = False


@dataclass
class SeriesRow:
    rank: int
    player: str
    name: str
    total: int
    scores: list[EventScore] = field(default_factory=list)
    best_finish: int | None = None
    match_wins: int = 0
    omw: float = 0.0

    @property
    def events_played(self) -> int:
        return len(self.scores)

    def score_in(self, event: int) -> EventScore | None:
        return next((s for s in self.scores if s.event == event), None)


# --- the rule -------------------------------------------------------------------------------


_ENTRY = re.compile(r"^\s*(\d+)\s*(?:[-\u2013]\s*(\d+))?\s*[:=]\s*(-?\d+)\s*$")


def parse_points_table(text: str) -> tuple[int, ...]:
    """A table typed as ``1: 10, 2: 8, 3-4: 6`` (commas or lines) as points per place.

    Raises SeriesRuleError naming the entry: a place given twice, a gap (a place with no
    points between two that have them), a negative value, a worse place earning more."""
    entries = [part for part in re.split(r"[,;\n]", text or "") if part.strip()]
    if not entries:
        return ()
    given: dict[int, int] = {}
    for entry in entries:
        matched = _ENTRY.match(entry)
        if not matched:
            raise _table_error(
                f"“{entry.strip()[:40]}” is not a place and its points: write 1: 10, or 3-4: 6."
            )
        first, last, points = int(matched[1]), int(matched[2] or matched[1]), int(matched[3])
        _check_entry(first, last, points, given)
        for place in range(first, last + 1):
            given[place] = points
    return _contiguous(given)


def _table_error(message: str) -> SeriesRuleError:
    return SeriesRuleError([("placing_points", message)])


def _check_entry(first: int, last: int, points: int, given: dict[int, int]) -> None:
    if first < 1 or last < first:
        raise _table_error(f"Places run from 1 upwards; {first}-{last} is not a range of places.")
    if last > MAX_TABLE_PLACES:
        raise _table_error(f"The table can give points to places 1 to {MAX_TABLE_PLACES}.")
    if points < 0:
        raise _table_error(f"Place {first} has {points} points: points cannot be negative.")
    if points > MAX_POINTS:
        raise _table_error(f"Place {first} has {points} points: at most {MAX_POINTS:,}.")
    twice = sorted(set(range(first, last + 1)) & set(given))
    if twice:
        raise _table_error(f"Place {twice[0]} is given points twice.")


def _contiguous(given: dict[int, int]) -> tuple[int, ...]:
    last = max(given)
    missing = [place for place in range(1, last + 1) if place not in given]
    if missing:
        raise _table_error(
            f"Place {missing[0]} has no points: the table must give points to every place "
            f"from 1 to {last}."
        )
    points = tuple(given[place] for place in range(1, last + 1))
    for place in range(1, len(points)):
        if points[place] > points[place - 1]:
            raise _table_error(
                f"Place {place + 1} earns more than place {place} ({points[place]} against "
                f"{points[place - 1]}): a better finish must earn at least as much."
            )
    return points


def table_text(points: Sequence[int]) -> str:
    """The table written back as people type it, equal places folded: ``1: 10, 3-4: 6``."""
    parts, start = [], 0
    for place in range(1, len(points) + 1):
        if place == len(points) or points[place] != points[start]:
            band = f"{start + 1}" if place == start + 1 else f"{start + 1}-{place}"
            parts.append(f"{band}: {points[start]}")
            start = place
    return ", ".join(parts)


def rule_problems(rule: SeriesRule, event_count: int) -> list[tuple[str, str]]:
    """Everything wrong with ``rule`` for a series of ``event_count`` events."""
    problems: list[tuple[str, str]] = []
    if rule.method not in METHODS:
        problems.append(("method", f"Points are earned by {_either(METHODS)}."))
    if rule.method == "placings" and not rule.placing_points:
        problems.append(("placing_points", "Give the points per place, for example 1: 10, 2: 8."))
    if not 0 <= rule.participation <= MAX_POINTS:
        problems.append(
            ("participation", f"Participation points run from 0 to {MAX_POINTS:,}, not negative.")
        )
    if event_count < 1:
        problems.append(("events", "A series needs at least one event."))
    if rule.best_of is not None:
        if rule.best_of < 1:
            problems.append(("best_of", "Count at least one event per player, or leave it empty."))
        elif event_count >= 1 and rule.best_of > event_count:
            problems.append(
                (
                    "best_of",
                    f"Best {rule.best_of} cannot be counted: the series has {event_count} "
                    f"event{'s' if event_count != 1 else ''}.",
                )
            )
    problems.extend(_tiebreaker_problems(rule.tiebreakers))
    return problems


def _tiebreaker_problems(tiebreakers: Sequence[str]) -> list[tuple[str, str]]:
    unknown = [name for name in tiebreakers if name not in TIEBREAKERS]
    if unknown:
        return [("tiebreakers", f"Unknown tiebreaker “{unknown[0]}”: use {_either(TIEBREAKERS)}.")]
    if len(set(tiebreakers)) != len(tiebreakers):
        return [("tiebreakers", "Each tiebreaker can be used once.")]
    return []


def _either(names: Iterable[str]) -> str:
    names = list(names)
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


# --- the standings --------------------------------------------------------------------------


def event_points(finish: Finish, rule: SeriesRule) -> int:
    """What one event earns a player under ``rule``."""
    if finish.disqualified:
        return 0
    if rule.method == "placings":
        earned = (
            rule.placing_points[finish.place - 1] if finish.place <= len(rule.placing_points) else 0
        )
    else:
        earned = finish.match_points
    return earned + rule.participation


def series_standings(
    finishes: Iterable[Finish], rule: SeriesRule, event_order: Sequence[int]
) -> list[SeriesRow]:
    """Every player with a finish, ranked. ``event_order`` (oldest first) settles which
    of two equal scores counts when only some do: the earlier one."""
    order = {event: i for i, event in enumerate(event_order)}
    by_player: dict[str, list[Finish]] = {}
    for finish in finishes:
        by_player.setdefault(finish.player, []).append(finish)
    rows = [_row(played, rule, order) for played in by_player.values()]
    rows.sort(key=lambda row: (_sort_key(row, rule), row.name.casefold(), row.player))
    _rank(rows, rule)
    return rows


def _row(played: list[Finish], rule: SeriesRule, order: dict[int, int]) -> SeriesRow:
    played = sorted(played, key=lambda f: order.get(f.event, len(order)))
    points = {f.event: event_points(f, rule) for f in played}
    best = sorted(played, key=lambda f: (-points[f.event], order.get(f.event, len(order))))
    counted = {f.event for f in best[: rule.best_of]} if rule.best_of else set(points)
    scores = [
        EventScore(f.event, f.place, points[f.event], f.event in counted, f.disqualified)
        for f in played
    ]
    placed = [f.place for f in played if not f.disqualified]
    return SeriesRow(
        rank=0,
        player=played[0].player,
        name=played[-1].name,  # the latest name the player played under
        total=sum(points[event] for event in counted),
        scores=scores,
        best_finish=min(placed) if placed else None,
        match_wins=sum(f.match_wins for f in played),
        omw=sum(f.omw for f in played) / len(played),
    )


def _sort_key(row: SeriesRow, rule: SeriesRule) -> tuple:
    """Higher total first, then each tiebreaker (a lower place, more wins… first)."""
    keys: list[float] = [-row.total]
    for name in rule.tiebreakers:
        if name == "best_finish":
            keys.append(row.best_finish if row.best_finish is not None else MAX_TABLE_PLACES + 1)
        elif name == "match_wins":
            keys.append(-row.match_wins)
        elif name == "events_played":
            keys.append(-row.events_played)
        elif name == "omw":
            keys.append(-round(row.omw, 6))
    return tuple(keys)


def _rank(rows: list[SeriesRow], rule: SeriesRule) -> None:
    previous = None
    for index, row in enumerate(rows, start=1):
        key = _sort_key(row, rule)
        row.rank = rows[index - 2].rank if key == previous else index
        previous = key
