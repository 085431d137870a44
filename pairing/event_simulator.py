"""How a planned event plays out: when each round starts and ends, how many players reach
Day 2, when it finishes (plain Python, no Django).

Organisers ask "with 300 players, how many reach Day 2 and when does the event end?"
before they book the hall. Each simulated event is paired round by round by the real
engine (:func:`pairing.swiss.pair_round`, timed) with the random results of
:mod:`pairing.simulator` (same seed, same draws: without byes or a gate its Day 1 is
that module's event), players with awarded byes winning their first rounds unpaired.
Several seeds give the spread of the Day 2 field; the schedule takes the slowest
pairing of each round, since a plan has to hold on the bad day.

A round starts after the previous one's end and the break, or after its pairing if the
pairing takes longer (the pairing is made during the break); starts are whole minutes.
Day 2 starts on the next day at round 1's time of day; the top cut follows the last
Swiss round.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from datetime import time as clock_time
from typing import Any

from pairing.plan import Plan
from pairing.simulator import DRAW, WIN
from pairing.swiss import pair_round

BASE_DAY = date(2000, 1, 1)  # day 1 of a simulated event; only times of day are shown
DEFAULT_SEEDS = (1, 2, 3, 4, 5)


class SettingsError(ValueError):
    """A simulation setting out of range; ``argument`` names its CLI flag."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument
        self.message = message


def _at_least(value: int | None, least: int, flag: str, what: str) -> None:
    if value is not None and value < least:
        raise SettingsError(flag.lstrip("-"), f"{flag} must be {what}")


def parse_start(text: str) -> clock_time:
    """``"09:00"`` as a time of day; SettingsError naming --start otherwise."""
    try:
        hours, minutes = (int(part) for part in text.split(":"))
        return clock_time(hours, minutes)
    except ValueError:
        raise SettingsError("start", f"--start: {text!r} is not a time of day HH:MM") from None


@dataclass(frozen=True, slots=True)
class Settings:
    """The schedule's numbers and the simulated events' seeds and result rates."""

    round_minutes: int = 50
    break_minutes: int = 10
    start: clock_time = clock_time(9, 0)
    gate_points: int | None = None
    gate_top: int | None = None
    day2_rounds: int | None = None
    gate_ties: str = "tiebreakers"
    seeds: tuple[int, ...] = DEFAULT_SEEDS
    draw_rate: float = 0.05
    drop_rate: float = 0.02

    @classmethod
    def from_cli(
        cls,
        *,
        round_minutes: int,
        break_minutes: int,
        start: str,
        gate_points: int | None,
        gate_top: int | None,
        day2_rounds: int | None,
        seeds: Iterable[int],
        gate_ties: str = "tiebreakers",
    ) -> Settings:
        """Checked settings; a SettingsError names the flag that is out of range."""
        _at_least(round_minutes, 1, "--round-minutes", "at least 1")
        _at_least(break_minutes, 0, "--break-minutes", "0 or more")
        _at_least(gate_points, 0, "--gate-points", "0 or more")
        _at_least(gate_top, 1, "--gate-top", "at least 1")
        _at_least(day2_rounds, 0, "--day2-rounds", "0 or more")
        if gate_ties not in GATE_TIES:
            raise SettingsError("gate-ties", "--gate-ties must be tiebreakers or points")
        seeds = tuple(seeds)
        if not seeds:
            raise SettingsError("runs", "--runs must be at least 1")
        return cls(
            round_minutes=round_minutes,
            break_minutes=break_minutes,
            start=parse_start(start),
            gate_points=gate_points,
            gate_top=gate_top,
            day2_rounds=day2_rounds,
            gate_ties=gate_ties,
            seeds=seeds,
        )


@dataclass(frozen=True, slots=True)
class EventRun:
    """One simulated event: each Swiss round's pairing time, and the Day 2 field."""

    pairing_seconds: tuple[float, ...]
    day2_players: int | None
    points: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Slot:
    """A round in the schedule; ``phase``: swiss, day2, top_cut or elimination."""

    number: int
    phase: str
    start: datetime
    end: datetime
    pairing_seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "phase": self.phase,
            "day": day_of(self.start),
            "start": f"{self.start:%H:%M}",
            "end": f"{self.end:%H:%M}",
            "pairing_seconds": round(self.pairing_seconds, 3),
        }


@dataclass(frozen=True, slots=True)
class Simulation:
    """The schedule of a planned event and, with a gate, how many reach Day 2."""

    slots: tuple[Slot, ...]
    runs: tuple[EventRun, ...]
    gate_points: int | None
    gate_top: int | None

    @property
    def end(self) -> datetime:
        return self.slots[-1].end

    def day2_spread(self) -> dict[str, int] | None:
        """min / median (the lower middle) / max players through the gate over the runs."""
        counts = [run.day2_players for run in self.runs if run.day2_players is not None]
        if not counts:
            return None
        return {
            "min": min(counts),
            "median": statistics.median_low(counts),
            "max": max(counts),
        }

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schedule": [slot.as_json() for slot in self.slots],
            "end": {"day": day_of(self.end), "time": f"{self.end:%H:%M}"},
            "runs": len(self.runs),
        }
        spread = self.day2_spread()
        if spread is not None:
            gate = {"gate_points": self.gate_points, "gate_top": self.gate_top}
            out["day2"] = {**{k: v for k, v in gate.items() if v is not None}, **spread}
        return out


def day_of(moment: datetime) -> int:
    """Which day of the event ``moment`` falls on, from 1."""
    return (moment.date() - BASE_DAY).days + 1


GATE_TIES = ("tiebreakers", "points")


def gate_count(
    points: Iterable[int],
    gate_points: int | None,
    gate_top: int | None,
    ties: str = "tiebreakers",
) -> int:
    """Players through "at least ``gate_points`` or the top ``gate_top``, whichever lets more
    through". Ties on points at the top-N boundary: ``"tiebreakers"`` decide them (exactly
    N), or with ``"points"`` everyone on the N-th player's points goes through."""
    points = sorted(points, reverse=True)
    by_points = sum(p >= gate_points for p in points) if gate_points is not None else 0
    by_top = min(gate_top, len(points)) if gate_top is not None else 0
    if ties == "points" and by_top:
        by_top = sum(p >= points[by_top - 1] for p in points)
    return max(by_points, by_top)


def _with_byes(ids: list[str], byes: Mapping[int, int]) -> dict[str, int]:
    """Awarded byes to the first players by number (p1, p2, …), most byes first."""
    awarded = dict.fromkeys(ids, 0)
    numbered = sorted(ids, key=lambda pid: int(pid[1:]))
    for level in sorted(byes, reverse=True):
        for pid in numbered[: byes[level]]:
            awarded[pid] = level
        numbered = numbered[byes[level] :]
    return awarded


class _Event:
    """One simulated event's state, played a round at a time (pairing.simulator's model)."""

    def __init__(self, players: int, byes: Mapping[int, int], seed: int, settings: Settings):
        self.rng = random.Random(seed)
        self.settings = settings
        self.ids = [f"p{i}" for i in range(1, players + 1)]
        self.rng.shuffle(self.ids)  # the standings order among equal points
        self.awarded = _with_byes(self.ids, byes)
        self.points = dict.fromkeys(self.ids, 0)
        self.opponents: dict[str, list[str]] = {pid: [] for pid in self.ids}
        self.had_bye = dict.fromkeys(self.ids, False)
        self.dropped = dict.fromkeys(self.ids, False)

    def play(self, number: int) -> float:
        """Pair round ``number`` with the engine and give it results; the pairing's seconds."""
        order = sorted(self.ids, key=lambda pid: -self.points[pid])
        seed = self.rng.randrange(2**31)
        players = [
            {
                "id": pid,
                "points": self.points[pid],
                "opponents": list(self.opponents[pid]),
                "had_bye": self.had_bye[pid],
                "dropped": self.dropped[pid] or self.awarded[pid] >= number,
            }
            for pid in order
        ]
        began = time.perf_counter()
        pairing = pair_round(players, number, seed)
        seconds = time.perf_counter() - began
        self._results(pairing.pairings, pairing.bye, number)
        return seconds

    def _results(self, pairs: Iterable[tuple[str, str]], bye: str | None, number: int) -> None:
        draw_rate = self.settings.draw_rate
        for a, b in pairs:
            self.opponents[a].append(b)
            self.opponents[b].append(a)
            roll = self.rng.random()
            if roll < draw_rate:
                self.points[a] += DRAW
                self.points[b] += DRAW
            else:
                self.points[a if roll < (1 + draw_rate) / 2 else b] += WIN
        if bye is not None:
            self.points[bye] += WIN
            self.had_bye[bye] = True
        for pid in self.ids:
            if self.awarded[pid] >= number and not self.dropped[pid]:
                self.points[pid] += WIN
            if not self.dropped[pid] and self.rng.random() < self.settings.drop_rate:
                self.dropped[pid] = True

    def gate(self, gate_points: int | None, gate_top: int | None) -> int:
        """Let the gate's players through to Day 2 (the rest stop); how many went through."""
        standing = sorted(
            (pid for pid in self.ids if not self.dropped[pid]), key=lambda pid: -self.points[pid]
        )
        points = (self.points[p] for p in standing)
        through = gate_count(points, gate_points, gate_top, self.settings.gate_ties)
        for pid in standing[through:]:
            self.dropped[pid] = True
        return through


def play_event(
    players: int,
    byes: Mapping[int, int],
    plan: Plan,
    seed: int,
    settings: Settings,
) -> EventRun:
    """One simulated event of the plan: Day 1's Swiss rounds, the gate, Day 2's rounds."""
    event = _Event(players, byes, seed, settings)
    gate_points, gate_top, day2_rounds = _day2(plan, settings)
    seconds = [event.play(number) for number in range(1, plan.swiss_rounds + 1)]
    through = None
    if gate_points is not None or gate_top is not None:
        through = event.gate(gate_points, gate_top)
        first = plan.swiss_rounds + 1
        seconds += [event.play(number) for number in range(first, first + day2_rounds)]
    return EventRun(tuple(seconds), through, dict(event.points))


def _day2(plan: Plan, settings: Settings) -> tuple[int | None, int | None, int]:
    """The gate and Day 2 rounds: the settings' where given, else the plan's."""
    if settings.gate_points is not None or settings.gate_top is not None:
        gate = (settings.gate_points, settings.gate_top)
    else:
        gate = (plan.gate_points, plan.gate_top)
    rounds = settings.day2_rounds if settings.day2_rounds is not None else plan.day2_rounds
    return gate[0], gate[1], rounds or 0


def _next_start(previous_end: datetime, settings: Settings, pairing: float) -> datetime:
    wait = max(settings.break_minutes, math.ceil(pairing / 60))
    return previous_end + timedelta(minutes=wait)


def schedule(
    plan: Plan, runs: Iterable[EventRun], settings: Settings, has_gate: bool
) -> tuple[Slot, ...]:
    """Each round's planned start and end, the slowest run's pairing time for each."""
    runs = list(runs)
    swiss = plan.swiss_rounds + (_day2(plan, settings)[2] if has_gate else 0)
    phases = ["swiss"] * plan.swiss_rounds + ["day2"] * (swiss - plan.swiss_rounds)
    if plan.elimination_rounds and not plan.runs_swiss:
        phases = ["elimination"] * plan.elimination_rounds
    phases += ["top_cut"] * (plan.top_cut.bit_length() - 1 if plan.top_cut else 0)
    length = timedelta(minutes=settings.round_minutes)
    slots: list[Slot] = []
    for index, phase in enumerate(phases):
        pairing = max(
            (r.pairing_seconds[index] for r in runs if index < len(r.pairing_seconds)), default=0.0
        )
        if not slots:
            start = datetime.combine(BASE_DAY, settings.start)
        else:
            start = _next_start(slots[-1].end, settings, pairing)
        if phase in ("day2", "top_cut") and has_gate and day_of(start) == 1:
            start = max(start, datetime.combine(BASE_DAY + timedelta(days=1), settings.start))
        slots.append(Slot(index + 1, phase, start, start + length, pairing))
    return tuple(slots)


def simulate_plan(
    plan: Plan, byes: Mapping[int, int] | None = None, settings: Settings | None = None
) -> Simulation:
    """The plan for ``plan.players`` players played out once per seed, and its schedule."""
    settings = settings or Settings()
    byes = dict(byes or {})
    gate_points, gate_top, _ = _day2(plan, settings)
    has_gate = gate_points is not None or gate_top is not None
    runs: tuple[EventRun, ...] = ()
    if plan.runs_swiss:
        runs = tuple(play_event(plan.players, byes, plan, s, settings) for s in settings.seeds)
    slots = schedule(plan, runs, settings, has_gate)
    if not slots:  # a plan with nothing to play (no Swiss, no elimination)
        start = datetime.combine(BASE_DAY, settings.start)
        slots = (Slot(0, "none", start, start),)
    return Simulation(slots, runs, gate_points if has_gate else None, gate_top)
