"""A signed-in player's events: registering, withdrawing, My events, answering offers.

Thin: they read, check roles, and call services.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.event import entry_offers, services
from tournaments.event.roles import (
    JUDGE,
    ORGANISER,
)
from tournaments.models import EntryOffer, Event, Registration
from tournaments.pages.parts import with_counts
from web.errors import ServiceError


@require_POST
@login_required
def register(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    try:
        registration = services.register_player(event, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        if registration.status == Registration.Status.WAITLISTED:
            messages.warning(request, _("The event is full: you are on the waiting list."))
        else:
            messages.success(
                request, _("You are registered for %(event)s.") % {"event": event.name}
            )
    return redirect(event)


@require_POST
@login_required
def withdraw(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    try:
        services.withdraw_player(event, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You have withdrawn from %(event)s.") % {"event": event.name})
    return redirect(event)


@login_required
def my_events(request: HttpRequest) -> HttpResponse:
    user = request.user
    context = {
        "organising": with_counts(Event.objects.filter(roles__user=user, roles__role=ORGANISER)),
        "judging": with_counts(Event.objects.filter(roles__user=user, roles__role=JUDGE)),
        "playing": Registration.objects.filter(user=user).select_related("event"),
        "offers": entry_offers.offers_waiting_for(user),
    }
    return render(request, "tournaments/my_events.html", context)


@require_POST
@login_required
def answer_offer(request: HttpRequest, offer_id: int, answer: str) -> HttpResponse:
    """The player accepts or declines an entry offered to their account; an offer made
    to someone else is not found (404), so nobody learns whose it is."""
    offer = get_object_or_404(
        EntryOffer.objects.select_related("registration__event"), pk=offer_id, account=request.user
    )
    event = offer.registration.event
    try:
        if answer == "accept":
            entry_offers.accept_offer(offer, request.user)
            said = _("%(event)s: the entry is now yours, with its results.") % {"event": event.name}
        else:
            entry_offers.decline_offer(offer, request.user)
            said = _("%(event)s: you declined the entry; it stays a walk-in.") % {
                "event": event.name
            }
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, said)
    return redirect("tournaments:my_events")
