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
from typing import Any, NamedTuple


def gettext_noop(message: str) -> str:
    """Marks a message for the site's catalogues (``makemessages`` reads this name); this
    module stays free of Django: the site translates ``Problem.template`` itself."""
    return message


METHODS = {
    "match_points": gettext_noop("match points scored in each event"),
    "placings": gettext_noop("a table of points per final place"),
}
TIEBREAKERS = {
    "best_finish": gettext_noop("best single finish"),
    "match_wins": gettext_noop("match wins across the series"),
    "events_played": gettext_noop("events played"),
    "omw": gettext_noop("average opponents' match-win percentage"),
}
DEFAULT_TIEBREAKERS = ("best_finish", "match_wins", "omw")
MAX_TABLE_PLACES = 1024  # the largest top cut an event can have
MAX_POINTS = 10_000


class Problem(NamedTuple):
    """Why a rule cannot be used: the field, and the sentence as a template and its values,
    so a site can show it in its reader's language."""

    field: str
    template: str
    params: dict[str, Any] = {}

    @property
    def message(self) -> str:
        return self.template % self.params


class SeriesRuleError(ValueError):
    """A rule that cannot be used, with every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
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
                gettext_noop("“%(entry)s” is not a place and its points: write 1: 10, or 3-4: 6."),
                entry=entry.strip()[:40],
            )
        first, last, points = int(matched[1]), int(matched[2] or matched[1]), int(matched[3])
        _check_entry(first, last, points, given)
        for place in range(first, last + 1):
            given[place] = points
    return _contiguous(given)


def checked_points(points: Sequence[int]) -> tuple[int, ...]:
    """Points per place given as a list (``[10, 8, 6, 6]``), checked as a typed table is."""
    given: dict[int, int] = {}
    for place, value in enumerate(points, start=1):
        _check_entry(place, place, value, given)
        given[place] = value
    return _contiguous(given) if given else ()


def _table_error(template: str, **params: Any) -> SeriesRuleError:
    return SeriesRuleError([Problem("placing_points", template, params)])


def _check_entry(first: int, last: int, points: int, given: dict[int, int]) -> None:
    if first < 1 or last < first:
        raise _table_error(
            gettext_noop("Places run from 1 upwards; %(first)s-%(last)s is not a range of places."),
            first=first,
            last=last,
        )
    if last > MAX_TABLE_PLACES:
        raise _table_error(
            gettext_noop("The table can give points to places 1 to %(most)s."),
            most=MAX_TABLE_PLACES,
        )
    if points < 0:
        raise _table_error(
            gettext_noop("Place %(place)s has %(points)s points: points cannot be negative."),
            place=first,
            points=points,
        )
    if points > MAX_POINTS:
        raise _table_error(
            gettext_noop("Place %(place)s has %(points)s points: at most %(most)s."),
            place=first,
            points=points,
            most=f"{MAX_POINTS:,}",
        )
    twice = sorted(set(range(first, last + 1)) & set(given))
    if twice:
        raise _table_error(gettext_noop("Place %(place)s is given points twice."), place=twice[0])


def _contiguous(given: dict[int, int]) -> tuple[int, ...]:
    last = max(given)
    missing = [place for place in range(1, last + 1) if place not in given]
    if missing:
        raise _table_error(
            gettext_noop(
                "Place %(place)s has no points: the table must give points to every place "
                "from 1 to %(last)s."
            ),
            place=missing[0],
            last=last,
        )
    points = tuple(given[place] for place in range(1, last + 1))
    for place in range(1, len(points)):
        if points[place] > points[place - 1]:
            raise _table_error(
                gettext_noop(
                    "Place %(worse)s earns more than place %(better)s (%(more)s against "
                    "%(less)s): a better finish must earn at least as much."
                ),
                worse=place + 1,
                better=place,
                more=points[place],
                less=points[place - 1],
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


def rule_problems(rule: SeriesRule, event_count: int) -> list[Problem]:
    """Everything wrong with ``rule`` for a series of ``event_count`` events."""
    problems: list[Problem] = []
    if rule.method not in METHODS:
        problems.append(
            Problem(
                "method",
                gettext_noop("Points are earned by %(methods)s."),
                {"methods": _either(METHODS)},
            )
        )
    if rule.method == "placings" and not rule.placing_points:
        problems.append(
            Problem(
                "placing_points",
                gettext_noop("Give the points per place, for example 1: 10, 2: 8."),
            )
        )
    if not 0 <= rule.participation <= MAX_POINTS:
        problems.append(
            Problem(
                "participation",
                gettext_noop("Participation points run from 0 to %(most)s, not negative."),
                {"most": f"{MAX_POINTS:,}"},
            )
        )
    if event_count < 1:
        problems.append(Problem("events", gettext_noop("A series needs at least one event.")))
    problems.extend(_best_of_problems(rule.best_of, event_count))
    problems.extend(_tiebreaker_problems(rule.tiebreakers))
    return problems


def _best_of_problems(best_of: int | None, event_count: int) -> list[Problem]:
    if best_of is None:
        return []
    if best_of < 1:
        return [
            Problem(
                "best_of",
                gettext_noop("Count at least one event per player, or leave it empty."),
            )
        ]
    if event_count >= 1 and best_of > event_count:
        template = (
            gettext_noop("Best %(best)s cannot be counted: the series has %(events)s event.")
            if event_count == 1
            else gettext_noop("Best %(best)s cannot be counted: the series has %(events)s events.")
        )
        return [Problem("best_of", template, {"best": best_of, "events": event_count})]
    return []


def _tiebreaker_problems(tiebreakers: Sequence[str]) -> list[Problem]:
    unknown = [name for name in tiebreakers if name not in TIEBREAKERS]
    if unknown:
        return [
            Problem(
                "tiebreakers",
                gettext_noop("Unknown tiebreaker “%(name)s”: use %(known)s."),
                {"name": unknown[0], "known": _either(TIEBREAKERS)},
            )
        ]
    if len(set(tiebreakers)) != len(tiebreakers):
        return [Problem("tiebreakers", gettext_noop("Each tiebreaker can be used once."))]
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
