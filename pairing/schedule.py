"""An event's day as a schedule: when each round was planned, when it started or is expected
to, and how late the event is running (plain Python, no Django).

The plan is the baseline: round 1 at ``first_start``, each later round ``round_minutes``
plus ``break_minutes`` after the one before it. The expected times follow what happened:

* a started round starts when it started; it ends when it closed or, still running, after
  its ``round_minutes`` and the longest extension of a table still playing (and never
  before ``now``: a round past its time still holds the hall);
* a round not started yet starts ``break_minutes`` after the round before it ends; round
  1, at the planned time. A round never starts before ``now``, but it may start before
  its planned time: rounds start as soon as the hall is ready, the plan is only the
  baseline. The delay says so (negative: ahead of schedule).

A round's delay is its (expected or actual) start less its planned start, in whole
minutes; the event's running delay is that of the next round to start (the last round's
once all have started). Without a planned first start there is no plan: expected times
still follow the rounds started (from the first start on), delays are None.

Times are aware datetimes; a time within a day of the calendar's ends (where some zone's
clock cannot show it) is None, never an error.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

SWISS, TOP_CUT = "swiss", "top_cut"
ON_TIME_MINUTES = 1  # a delay within this many minutes either way reads "on time"
# The first and last moments a time may be: a day inside the calendar's ends, so that any
# zone's wall clock can still show it.
FIRST_MOMENT = datetime.datetime.min.replace(tzinfo=datetime.UTC) + datetime.timedelta(days=1)
LAST_MOMENT = datetime.datetime.max.replace(tzinfo=datetime.UTC) - datetime.timedelta(days=1)


@dataclass(frozen=True)
class Plan:
    """What the organiser planned: round 1's start, and the rounds' and breaks' lengths."""

    first_start: datetime.datetime | None
    round_minutes: int
    break_minutes: int
    swiss_rounds: int
    top_cut: int = 0

    @property
    def rounds(self) -> int:
        return self.swiss_rounds + cut_rounds(self.top_cut)


@dataclass(frozen=True)
class Played:
    """A round as it happened so far: its start and close (None until they happen), and
    the longest time extension of its tables still playing, in minutes."""

    number: int
    started_at: datetime.datetime | None = None
    closed_at: datetime.datetime | None = None
    longest_extension: int = 0
    kind: str | None = None  # the round's own kind, when it differs from the plan's


@dataclass(frozen=True)
class Slot:
    """One round of the schedule."""

    number: int
    kind: str
    planned_start: datetime.datetime | None
    actual_start: datetime.datetime | None
    expected_start: datetime.datetime | None  # the actual start once started
    expected_end: datetime.datetime | None  # the close once closed
    closed: bool = False

    @property
    def started(self) -> bool:
        return self.actual_start is not None

    @property
    def delay_minutes(self) -> int | None:
        """Start less planned start in whole minutes (nearest); None without both."""
        if self.planned_start is None or self.expected_start is None:
            return None
        return minutes_between(self.planned_start, self.expected_start)


def cut_rounds(top_cut: int) -> int:
    """A top cut of N players plays log2(N) rounds (0 without a cut)."""
    return top_cut.bit_length() - 1 if top_cut >= 2 else 0


def minutes_between(start: datetime.datetime, end: datetime.datetime) -> int:
    """Whole minutes from ``start`` to ``end``, to the nearest (half a minute rounds up)."""
    return int((end - start).total_seconds() + 30) // 60


def later(*moments: datetime.datetime | None) -> datetime.datetime | None:
    """The latest of the moments given (None ignored); None without any."""
    known = [m for m in moments if m is not None]
    return max(known) if known else None


def plus(moment: datetime.datetime | None, minutes: int) -> datetime.datetime | None:
    """``moment`` plus ``minutes``; None for none, or outside :data:`FIRST_MOMENT` to
    :data:`LAST_MOMENT`."""
    if moment is None:
        return None
    try:
        moved = moment + datetime.timedelta(minutes=minutes)
    except OverflowError:
        return None
    return moved if FIRST_MOMENT <= moved <= LAST_MOMENT else None


def planned_start(plan: Plan, number: int) -> datetime.datetime | None:
    """Round ``number``'s planned start: round 1's plus a round and a break per round."""
    return plus(plan.first_start, (number - 1) * (plan.round_minutes + plan.break_minutes))


def schedule(
    plan: Plan,
    played: Iterable[Played] = (),
    now: datetime.datetime | None = None,
    *,
    finished: bool = False,
) -> list[Slot]:
    """Every round planned or played, in order, with its planned and expected times.

    ``now``: the expected times are never in the past for what has not happened (a
    calendar file leaves it out, so the file changes only when something is done). A
    ``finished`` event lists only the rounds it played.
    """
    rounds = {p.number: p for p in played}
    count = max([0 if finished else plan.rounds, *rounds])
    slots: list[Slot] = []
    follows: datetime.datetime | None = None  # when the round before this one ends
    for number in range(1, count + 1):
        round_ = rounds.get(number, Played(number))
        planned = planned_start(plan, number)
        if round_.started_at is not None:
            start = round_.started_at
            end = round_.closed_at or later(
                plus(start, plan.round_minutes + round_.longest_extension), now
            )
        else:
            ready = planned if number == 1 else plus(follows, plan.break_minutes)
            start = later(ready, now) if ready is not None else None
            end = plus(start, plan.round_minutes)
        kind = round_.kind or (SWISS if number <= plan.swiss_rounds else TOP_CUT)
        slots.append(
            Slot(number, kind, planned, round_.started_at, start, end, round_.closed_at is not None)
        )
        follows = end
    return slots


def next_slot(slots: Iterable[Slot]) -> Slot | None:
    """The first round not started yet (None once every round has)."""
    return next((slot for slot in slots if not slot.started), None)


def running_delay(slots: list[Slot]) -> int | None:
    """How late the event runs: the next round's delay, else the last round's."""
    upcoming = next_slot(slots)
    if upcoming is not None:
        return upcoming.delay_minutes
    return slots[-1].delay_minutes if slots else None


def lateness(delay: int | None) -> str | None:
    """``"late"``, ``"early"`` or ``"on_time"`` for a delay in minutes; None without one."""
    if delay is None:
        return None
    if delay > ON_TIME_MINUTES:
        return "late"
    if delay < -ON_TIME_MINUTES:
        return "early"
    return "on_time"
