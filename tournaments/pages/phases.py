"""The event in phases: the organiser's page for flights and the gate, and what the
event's public page and My match say about them. Thin: services decide."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments import once
from tournaments.event import phases
from tournaments.event.roles import ORGANISER, event_role_required
from tournaments.models import Event, Registration, Round
from web.errors import ServiceError
from web.inputs import Reader


def _flight_rows(main: Event) -> list[dict[str, Any]]:
    """Each flight with its players and the rounds it has closed (two queries)."""
    flights = list(main.flights.order_by("pk"))
    players = dict.fromkeys((f.pk for f in flights), 0)
    for event_id in Registration.objects.filter(
        event__in=flights, status=Registration.Status.REGISTERED
    ).values_list("event_id", flat=True):
        players[event_id] += 1
    closed = phases.closed_rounds(flights)
    return [
        {"event": f, "players": players[f.pk], "closed": closed[f.pk], "rounds": f.swiss_rounds}
        for f in flights
    ]


def public_context(event: Event, registration: Registration | None) -> dict[str, Any]:
    """What the event page shows of the phases; empty for an event in one phase."""
    main = phases.main_event(event)
    if not main.flights.exists():
        return {}
    rule = phases.gate_rule(main)
    return {
        "phases": {
            "main": main,
            "is_flight": event.pk != main.pk,
            "flights": _flight_rows(main),
            "rule": phases.rule_text(rule) if rule else "",
            "applied": main.gate_applied_at is not None,
            "through": main.registrations.count() if main.gate_applied_at else None,
            "mine": phases.player_gate_status(event, registration) if registration else None,
        }
    }


@event_role_required(ORGANISER)
def manage_phases(request: HttpRequest, event: Event) -> HttpResponse:
    """Flights, the gate's rule, Day 1's progress and the gate itself, on one page."""
    if event.parent_id:
        return redirect("tournaments:phases", event.parent_id)
    if request.method == "POST":
        return once.form_once(request, lambda: _act(request, event), lambda: _page(request, event))
    return _page(request, event)


def _page(request: HttpRequest, event: Event) -> HttpResponse:
    event.refresh_from_db()
    rule = phases.gate_rule(event)
    preview = None
    if rule is not None and event.flights.exists() and not event.gate_applied_at:
        preview = phases.gate_preview(event)
    context = {
        "event": event,
        "flights": _flight_rows(event),
        "rule": phases.rule_text(rule) if rule else "",
        "preview": preview,
        "day1_rounds": phases.day1_rounds(event),
        "gate_locked": bool(event.gate_applied_at)
        or Round.objects.filter(event__parent=event).exists(),
        "through": event.registrations.count() if event.gate_applied_at else None,
    }
    return render(request, "tournaments/phases.html", context)


def _act(request: HttpRequest, event: Event) -> tuple[HttpResponse, bool]:
    fields = Reader(request.POST)
    action = fields.choice("action", ["flight", "gate", "apply"])
    try:
        fields.check()
        if action == "flight":
            name = fields.text("flight_name", required=True)
            rounds = fields.integer("rounds", minimum=1, maximum=30)
            fields.check()
            flight = phases.add_flight(event, request.user, name=name, rounds=rounds)
            messages.success(request, _("Flight %(name)s added.") % {"name": flight.flight_name})
        elif action == "gate":
            points = fields.integer("gate_points", required=False, minimum=0, maximum=999)
            top = fields.integer("gate_top", required=False, minimum=1, maximum=100_000)
            ties = fields.choice("gate_ties", ["tiebreakers", "points"])
            fields.check()
            phases.set_gate(event, request.user, points=points, top=top, ties=ties)
            messages.success(request, _("The gate to Day 2 is saved."))
        else:
            through = phases.apply_gate(event, request.user)
            messages.success(
                request,
                _("The gate is applied: %(count)s players play on Day 2.") % {"count": through},
            )
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("tournaments:phases", event.pk), False
    return redirect("tournaments:phases", event.pk), True
