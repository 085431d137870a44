"""An event in phases: Day 1 flights feed a main event's Day 2 through a gate.

A flight is an event of its own (its players, rounds, clock, hall, slips and judges:
everything an event has), whose ``parent`` is the main event. The main event holds the
gate rule, Day 2's Swiss rounds and the top cut. Its history reads every flight's
Swiss results as Day 1 (``tournaments.record.history``), so Day 2 pairs on each
player's whole record and never pairs a Day 1 opponent again, and the top cut seeds
from the final Swiss standings.

The gate (:func:`apply_gate`) is applied once, after every flight has played its
rounds: it decides from the merged Day 1 standings with :mod:`pairing.gate`, carries
each player through into a Day 2 entry that keeps their public id (so their Day 1
results are theirs), and logs every player's decision with its reason, which is what
each player is shown afterwards, even if a Day 1 result is corrected later.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pairing.gate import GateDecision, GateRule, GateRuleError
from pairing.gate import apply_gate as decide_gate
from tournaments import signals
from tournaments.models import AvoidPair, Event, EventLog, EventRole, Registration, Round
from tournaments.record import standings
from tournaments.record.history import EventHistory
from tournaments.record.standings import results_changed
from web.errors import FieldError, ServiceError
from web.inputs import limited

# What a flight copies from its main event when it is added.
COPIED_FIELDS = (
    "game",
    "date",
    "venue",
    "time_zone",
    "status",
    "match_format",
    "round_minutes",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreakers",
    "print_paper",
    "decklists_public",
    "decklist_policy",
    "break_minutes",
)
MAX_FLIGHTS = 12


def main_event(event: Event) -> Event:
    """The main event of a flight; an event that is no flight is its own."""
    return Event.objects.get(pk=event.parent_id) if event.parent_id else event


def is_phased(event: Event) -> bool:
    """A main event with Day 1 flights (or one of its flights)."""
    return bool(event.parent_id) or event.flights.exists()


def gate_rule(event: Event) -> GateRule | None:
    """The main event's gate, or None when it has none."""
    main = main_event(event)
    if main.gate_points is None and main.gate_top is None:
        return None
    return GateRule(points=main.gate_points, top=main.gate_top, ties=main.gate_ties)


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


@transaction.atomic
def add_flight(main: Event, actor, *, name: str, rounds: int) -> Event:
    """A new Day 1 flight of ``main``: its settings and staff copied, its own players."""
    limited("flight_name", name)
    main = _locked(main)
    name = (name or "").strip()
    if main.parent_id:
        raise ServiceError(_("A flight cannot have flights of its own."), field="flight_name")
    if not name:
        raise ServiceError(_('Name the flight ("A", "Saturday").'), field="flight_name")
    if len(name) > Event._meta.get_field("flight_name").max_length:
        raise ServiceError(_("Keep the flight's name to 40 characters."), field="flight_name")
    if main.flights.filter(flight_name=name).exists():
        raise ServiceError(
            _("This event already has a flight called %(name)s.") % {"name": name},
            field="flight_name",
        )
    if main.flights.count() >= MAX_FLIGHTS:
        raise ServiceError(
            _("An event has at most %(count)s flights.") % {"count": MAX_FLIGHTS},
            field="flight_name",
        )
    if main.rounds.exists() or main.registrations.exists():
        raise ServiceError(
            _("Flights are added before anyone registers for the main event or plays in it."),
            field="flight_name",
        )
    if not isinstance(rounds, int) or not 1 <= rounds <= 30:
        raise ServiceError(_("A flight plays from 1 to 30 Swiss rounds."), field="rounds")
    flight = Event.objects.create(
        name=_flight_title(main.name, name),
        parent=main,
        flight_name=name,
        swiss_rounds=rounds,
        top_cut=0,
        created_by=actor,
        **{field: getattr(main, field) for field in COPIED_FIELDS},
    )
    EventRole.objects.bulk_create(
        EventRole(event=flight, user_id=user_id, role=role)
        for user_id, role in main.roles.values_list("user_id", "role")
    )
    EventLog.objects.create(
        event=main, actor=actor, action="flight", data={"flight": flight.pk, "name": name}
    )
    EventLog.objects.create(event=flight, actor=actor, action="flight", data={"main": main.pk})
    return flight


def _flight_title(main: str, flight: str) -> str:
    """ "Regional — A", the main event's name shortened to fit the column if need be."""
    room = Event._meta.get_field("name").max_length - len(flight) - 3
    shown = main if len(main) <= room else main[: room - 1] + "…"
    return f"{shown} — {flight}"


@transaction.atomic
def set_gate(
    main: Event, actor, *, points: int | None, top: int | None, ties: str = "tiebreakers"
) -> Event:
    """Set the rule from Day 1 to Day 2; refused once any flight has paired a round."""
    main = _locked(main)
    if main.parent_id:
        raise ServiceError(_("Set the gate on the main event, not on a flight."))
    if Round.objects.filter(event__parent=main).exists() or main.gate_applied_at:
        raise ServiceError(
            _("The gate is stated before the event: Day 1 has started, so it stays as it is.")
        )
    try:
        rule = GateRule(points=points, top=top, ties=ties)  # type: ignore[arg-type]
    except GateRuleError:
        raise ServiceError.of(_gate_problems(points, top, ties)) from None
    main.gate_points, main.gate_top, main.gate_ties = rule.points, rule.top, rule.ties
    main.save(update_fields=["gate_points", "gate_top", "gate_ties"])
    EventLog.objects.create(event=main, actor=actor, action="gate_rule", data=rule.as_json())
    return main


def _gate_problems(points: Any, top: Any, ties: Any) -> list[FieldError]:
    problems = []
    if points is None and top is None:
        problems.append(
            FieldError(
                field="gate_points", message=_("Give the points, the top N, or both, for Day 2.")
            )
        )
    if points is not None and (not isinstance(points, int) or points < 0):
        problems.append(FieldError(field="gate_points", message=_("The points must be 0 or more.")))
    if top is not None and (not isinstance(top, int) or top < 1):
        problems.append(FieldError(field="gate_top", message=_("The top N must be 1 or more.")))
    if ties not in ("tiebreakers", "points"):
        problems.append(
            FieldError(field="gate_ties", message=_("Choose how ties at the line are decided."))
        )
    return problems


def day1_rounds(main: Event) -> int:
    """The Swiss rounds every flight plays (the most any flight plays)."""
    counts = [f.swiss_rounds or 0 for f in main.flights.all()]
    return max(counts, default=0)


def closed_rounds(flights: list[Event]) -> dict[int, int]:
    """The last Swiss round each flight has closed (0: none yet), by flight id."""
    closed = dict.fromkeys((f.pk for f in flights), 0)
    for event_id, number in Round.objects.filter(
        event__in=flights, kind=Round.Kind.SWISS, status=Round.Status.CLOSED
    ).values_list("event_id", "number"):
        closed[event_id] = max(closed[event_id], number)
    return closed


def _day1_problems(main: Event) -> list[str]:
    """Why Day 1 is not over yet, one sentence per flight."""
    flights = list(main.flights.order_by("pk"))
    if not flights:
        return [_("This event has no flights.")]
    rounds = {f.swiss_rounds for f in flights}
    if len(rounds) > 1:
        return [_("Every flight must play the same number of Swiss rounds before the gate.")]
    needed = rounds.pop() or 0
    played = closed_rounds(flights)
    return [
        _("%(flight)s has closed %(played)s of its %(count)s rounds.")
        % {"flight": f.flight_name, "played": played[f.pk], "count": needed}
        for f in flights
        if played[f.pk] < needed
    ]


def gate_preview(main: Event):
    """The gate's decisions on the merged Day 1 standings as they stand now."""
    rule = gate_rule(main)
    if rule is None:
        return None
    rows = EventHistory.read(main, plain=True).standings_rows()
    return decide_gate(rows, rule)


@transaction.atomic
def apply_gate(main: Event, actor) -> int:
    """Let Day 1's players through to Day 2 by the rule; returns how many went through."""
    main = _locked(main)
    if main.parent_id:
        raise ServiceError(_("Apply the gate on the main event, not on a flight."))
    if main.gate_applied_at:
        raise ServiceError(_("The gate has been applied already."))
    rule = gate_rule(main)
    if rule is None:
        raise ServiceError(_("Set the gate's rule first."), field="gate_points")
    problems = _day1_problems(main)
    if problems:
        raise ServiceError(" ".join(problems))
    total = main.swiss_rounds or 0
    if total <= day1_rounds(main):
        raise ServiceError(
            _(
                "Set the event's Swiss rounds to Day 1's %(day1)s plus Day 2's before the "
                "gate (now %(total)s)."
            )
            % {"day1": day1_rounds(main), "total": total},
            field="swiss_rounds",
        )
    history = EventHistory.read(main)
    rows = history.standings_rows()
    result = decide_gate(rows, rule)
    entries = {e.public_id: e for e in history.day1_only}
    flight_rows = Registration.objects.filter(event__parent=main).in_bulk(
        [entries[d.player].pk for d in result.decisions if d.through]
    )
    _carry(main, [flight_rows[entries[d.player].pk] for d in result.decisions if d.through])
    main.gate_applied_at = timezone.now()
    main.save(update_fields=["gate_applied_at"])
    EventLog.objects.create(
        event=main,
        actor=actor,
        action="gate",
        data={
            "rule": rule.as_json(),
            "through": result.through,
            "last_points": result.last_points,
            "decisions": [_logged(d) for d in result.decisions],
        },
    )
    results_changed(main)
    signals.send_on_commit(signals.gate_applied, Event, event_id=main.pk, through=result.through)
    return result.through


def _carry(main: Event, flight_entries: list[Registration]) -> None:
    """Day 2 entries that keep each player's public id, account and name."""
    Registration.objects.bulk_create(
        Registration(
            event=main,
            user_id=entry.user_id,
            name=entry.name,
            external_id=entry.public_id,
            checked_in=True,
            carried_from=entry,
            number=number,
        )
        for number, entry in enumerate(flight_entries, start=1)
    )
    _carry_kept_apart(main)


def _carry_kept_apart(main: Event) -> None:
    """A flight's pairs who must not meet stay apart on Day 2 when both go through."""
    day2 = dict(
        Registration.objects.filter(event=main, carried_from__isnull=False).values_list(
            "carried_from_id", "pk"
        )
    )
    pairs = AvoidPair.objects.filter(event__parent=main, first__in=day2, second__in=day2)
    AvoidPair.objects.bulk_create(
        AvoidPair(
            event=main,
            first_id=min(day2[p.first_id], day2[p.second_id]),
            second_id=max(day2[p.first_id], day2[p.second_id]),
            reason=p.reason,
            added_by_id=p.added_by_id,
        )
        for p in pairs
    )


def _logged(decision: GateDecision) -> list:
    return [decision.player, decision.rank, decision.points, decision.through, decision.why]


def logged_decision(main: Event, public_id: str) -> GateDecision | None:
    """A player's decision as the gate logged it (None before the gate, or not in it)."""
    entry = main.log.filter(action="gate").order_by("-pk").values_list("data", flat=True).first()
    if not entry:
        return None
    for player, rank, points, through, why in entry.get("decisions", []):
        if player == public_id:
            return GateDecision(player, rank, points, through, why)
    return None


def rule_text(rule: GateRule) -> str:
    """The gate as players read it before the event."""
    if rule.points is not None and rule.top is not None:
        text = _(
            "Day 2: at least %(points)s match points or the top %(top)s of Day 1, "
            "whichever lets more players through."
        ) % {"points": rule.points, "top": rule.top}
    elif rule.points is not None:
        text = _("Day 2: at least %(points)s match points after Day 1.") % {"points": rule.points}
    else:
        text = _("Day 2: the top %(top)s of Day 1's merged standings.") % {"top": rule.top}
    if rule.top is not None:
        text += " " + (
            _("Everyone on the last place's points goes through.")
            if rule.ties == "points"
            else _("At the line, tiebreakers decide.")
        )
    return text


def decision_text(decision: GateDecision, rule: GateRule) -> str:
    """Why this player goes on, or not, in one sentence ("19 points: you play on Day 2")."""
    points, rank = decision.points, decision.rank
    if decision.why == "points":
        return ngettext(
            "%(points)s point: you play on Day 2.", "%(points)s points: you play on Day 2.", points
        ) % {"points": points}
    if decision.why == "top":
        return _("Rank %(rank)s of Day 1, inside the top %(top)s: you play on Day 2.") % {
            "rank": rank,
            "top": rule.top,
        }
    if decision.why == "tied_top":
        return _(
            "%(points)s points, the same as the last place of the top %(top)s: you play on Day 2."
        ) % {"points": points, "top": rule.top}
    if decision.why == "tiebreakers":
        return _(
            "%(points)s points, the same as the last player through, but rank %(rank)s on "
            "tiebreakers: your event ends after Day 1."
        ) % {"points": points, "rank": rank}
    if decision.why in ("dropped", "disqualified"):
        return _("You left the event during Day 1: no Day 2.")
    return _("%(points)s points, rank %(rank)s: not enough for Day 2. Thank you for playing!") % {
        "points": points,
        "rank": rank,
    }


def player_gate_status(event: Event, registration: Registration) -> str | None:
    """What a player of a phased event needs, or got, in one or two sentences."""
    if not event.parent_id and event.gate_points is None and event.gate_top is None:
        return None  # one phase: nothing to say, and no query to find that out
    main = main_event(event)
    rule = gate_rule(main)
    if rule is None:
        return None
    public_id = (
        registration.carried_from.public_id if registration.carried_from_id else None
    ) or registration.public_id
    if main.gate_applied_at:
        decision = logged_decision(main, public_id)
        return None if decision is None else decision_text(decision, rule)
    return " ".join(filter(None, [rule_text(rule), _points_so_far(event, registration)]))


def _points_so_far(event: Event, registration: Registration) -> str:
    """The player's points in their flight's (cached) standings, once they have any."""
    if not event.parent_id:
        return ""
    row = next(
        (r for r in standings.standings_rows(event) if r["registration"] == registration.pk),
        None,
    )
    if row is None:
        return ""
    return ngettext(
        "You have %(points)s point so far.",
        "You have %(points)s points so far.",
        row["match_points"],
    ) % {"points": row["match_points"]}
