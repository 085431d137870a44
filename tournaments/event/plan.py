"""The plan for an event's field: what its table recommends for the players entered, the
organiser accepting it, and a simulation of the day when it is cheap.

The numbers come from :mod:`pairing.plan` (game data, Magic's Appendix E unless the event
names another table); awarded byes count as the table says. Accepting writes the event's
Swiss rounds, top cut and (where the table gives one) Day 2 gate, and only before round 1
is paired: after that the rounds are announced and players have planned around them.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import time as clock_time
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from pairing import event_simulator
from pairing import plan as tables
from tournaments.models import Event, EventLog, Registration
from web.errors import ServiceError

# The page simulates fields up to this size (three events of 300 players took 0.2 s, 0.5 s
# on a busy machine; of 1,000, 0.3 to 0.9 s); larger ones are left to
# `python -m pairing.plan --simulate`.
SIMULATED_UP_TO = 500
SIMULATED_SEEDS = (1, 2, 3)
DEFAULT_START = clock_time(9, 0)


@dataclass(frozen=True)
class Field:
    """The players an event's plan counts: registered players, by their awarded byes."""

    players: int
    byes: dict[int, int]

    @property
    def with_byes(self) -> int:
        return sum(self.byes.values())


@dataclass(frozen=True)
class Recommendation:
    """The table's answer for the field, or why there is none (``problem``)."""

    field: Field
    table: str
    title: str
    source: str
    plan: tables.Plan | None
    problem: str = ""


def entrants(event: Event) -> Field:
    """Registered players (not the waiting list or dropped), counted by awarded byes; a
    main event's are its Day 1 flights' (its own entries are only those Day 2 carries)."""
    entries = (
        Registration.objects.filter(event__parent=event)
        if event.flights.exists()
        else event.registrations.all()
    )
    rows = (
        entries.filter(status=Registration.Status.REGISTERED)
        .values("awarded_byes")
        .annotate(n=Count("pk"))
    )
    counts = {row["awarded_byes"]: row["n"] for row in rows}
    byes = {level: counts[level] for level in tables.BYE_LEVELS if counts.get(level)}
    return Field(players=sum(counts.values()), byes=byes)


def table_name(event: Event, data: dict[str, Any]) -> str:
    """The event's own table, else its game's (Appendix E unless the tables say otherwise)."""
    return event.plan_table or tables.table_for_game(event.game, data)


def recommendation(event: Event) -> Recommendation:
    """What the event's table recommends for the players entered now."""
    data = tables.load_tables()
    field = entrants(event)
    name = table_name(event, data)
    table = data["tables"].get(name, {})
    shown = {"field": field, "table": name, "title": table.get("title", name)}
    shown["source"] = table.get("source", "")
    if not table:
        problem = _("The event names the table “%(table)s”, which is not there.") % {"table": name}
        return Recommendation(**shown, plan=None, problem=problem)
    try:
        plan = tables.recommend(field.players, field.byes, name, tables=data)
    except tables.PlanInputError:
        first = min(row["min"] for row in table["rows"] if not row.get("teams_only"))
        problem = _("The table recommends nothing for fewer than %(first)s players.") % {
            "first": first
        }
        return Recommendation(**shown, plan=None, problem=problem)
    return Recommendation(**shown, plan=plan)


def accept_refusal(event: Event, found: Recommendation) -> str:
    """Why the organiser may not accept the recommendation now ('' when they may)."""
    if event.rounds.exists():
        return _(
            "Round 1 is paired: the rounds and the cut were announced with it and stay as they are."
        )
    if found.plan is None:
        return found.problem
    if not found.plan.runs_swiss:
        return _(
            "The table runs a field this size as single elimination without Swiss rounds, "
            "which Arbiter does not run: choose the rounds under Edit details."
        )
    return ""


def _accepted_fields(found: tables.Plan) -> dict[str, int | None]:
    fields: dict[str, int | None] = {"swiss_rounds": found.swiss_rounds, "top_cut": found.top_cut}
    if found.has_gate:
        fields |= {"gate_points": found.gate_points, "gate_top": found.gate_top}
    return fields


@transaction.atomic
def accept_plan(event: Event, actor, counted: int | None = None) -> Event:
    """Set the event's rounds, cut (and gate) to its table's recommendation, logged.

    ``counted`` is the field the organiser saw (players after byes): if entries came or
    went since, the recommendation may differ, so they are asked to look again.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    found = recommendation(event)
    refusal = accept_refusal(event, found)
    if refusal:
        raise ServiceError(refusal)
    if counted is not None and counted != found.plan.counted:
        raise ServiceError(
            _(
                "The field changed while you read the page: it counts %(counted)s players "
                "now. Look at the recommendation again."
            )
            % {"counted": found.plan.counted},
            field="counted",
        )
    fields = _accepted_fields(found.plan)
    before = {name: getattr(event, name) for name in fields}
    for name, value in fields.items():
        setattr(event, name, value)
    event.save(update_fields=list(fields))
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="plan",
        data={
            "table": found.table,
            "players": found.field.players,
            "counted": found.plan.counted,
            "set": fields,
            "before": before,
        },
    )
    return event


@dataclass(frozen=True)
class DayPlan:
    """The simulated schedule as the page shows it, in the venue's time."""

    simulation: event_simulator.Simulation
    first_day: datetime | None

    def when(self, moment: datetime) -> datetime | None:
        """``moment`` (a simulated day and time) on the event's own dates, if it has them."""
        if self.first_day is None:
            return None
        days = event_simulator.day_of(moment) - 1
        return datetime.combine(self.first_day.date() + timedelta(days=days), moment.time())

    @property
    def rows(self) -> list[dict[str, Any]]:
        """Each round: its number, whether it is the top cut's, its day and times."""
        return [
            {
                "number": slot.number,
                "top_cut": slot.phase == "top_cut",
                "day": event_simulator.day_of(slot.start),
                "start": slot.start,
                "end": slot.end,
            }
            for slot in self.simulation.slots
        ]

    @property
    def end_day(self) -> int:
        return event_simulator.day_of(self.simulation.end)

    @property
    def end_at(self) -> datetime | None:
        return self.when(self.simulation.end)


def simulate(event: Event, found: Recommendation) -> DayPlan | None:
    """The day played out a few times, when the field is small enough to answer at once."""
    plan = found.plan
    if plan is None or not plan.runs_swiss or plan.players > SIMULATED_UP_TO:
        return None
    first = event.first_round_at
    if first is not None:
        first = first.astimezone(zoneinfo.ZoneInfo(event.time_zone))
    settings = event_simulator.Settings(
        round_minutes=event.round_minutes,
        break_minutes=event.break_minutes,
        start=first.time() if first is not None else DEFAULT_START,
        gate_points=event.gate_points,
        gate_top=event.gate_top,
        gate_ties=event.gate_ties,
        seeds=SIMULATED_SEEDS,
    )
    return DayPlan(event_simulator.simulate_plan(plan, found.field.byes, settings), first)
