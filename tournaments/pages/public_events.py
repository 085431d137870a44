"""Anyone's event pages: the home page, the list of events, one event's page.

Thin: they read, check roles, and call services.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.event import check_in as check_in_state
from tournaments.event import next_step as event_state
from tournaments.event.roles import (
    ORGANISER,
    has_role,
    roles_in,
    visible_event_or_404,
)
from tournaments.event.schedule import live_schedule
from tournaments.models import Event, Registration
from tournaments.pages import phases as phase_pages
from tournaments.pages.parts import with_counts
from tournaments.record.placings import event_placings
from tournaments.record.rounds import swiss_round_count


def home(request: HttpRequest) -> HttpResponse:
    """The site's front page: the next events the visitor may see (none that is over)."""
    upcoming = (
        Event.objects.visible_to(request.user)
        .exclude(status=Event.Status.FINISHED)
        .order_by("date", "pk")[:6]
    )
    return render(request, "home.html", {"upcoming": upcoming})


def event_list(request: HttpRequest) -> HttpResponse:
    events = with_counts(Event.objects.visible_to(request.user))
    return render(request, "tournaments/event_list.html", {"events": events})


def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request.user, event_id)
    roles = roles_in(request.user, event)
    registration = (
        Registration.objects.filter(event=event, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    context = {
        "event": event,
        "roles": roles,
        "is_organiser": has_role(request.user, event, ORGANISER),
        "registration": registration,
        "players": event.registrations.filter(status=Registration.Status.REGISTERED)
        .select_related("user")
        .count(),
        "waiting": event.registrations.filter(status=Registration.Status.WAITLISTED).count(),
        "swiss_rounds": swiss_round_count(event),
        "winner": _winner(event),
        "where_it_stands": event_state.public_note(event),
        "check_in": check_in_state.state_for(event, registration),
        "schedule": live_schedule(event) if event.first_round_at else None,
        **phase_pages.public_context(event, registration),
    }
    return render(request, "tournaments/event_detail.html", context)


def _winner(event: Event) -> dict | None:
    """The decided winner's placings row, for the event page (None before the end)."""
    if event.status not in (Event.Status.RUNNING, Event.Status.FINISHED):
        return None
    return event_placings(event).winner
