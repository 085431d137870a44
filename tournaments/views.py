"""Event pages. Thin: they read, check roles, and call services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import entry_offers, event_state, services
from tournaments.forms import EventForm, GrantRoleForm
from tournaments.models import EntryOffer, Event, EventRole, Registration
from tournaments.placings import event_placings
from tournaments.roles import (
    JUDGE,
    ORGANISER,
    event_role_required,
    has_role,
    roles_in,
    visible_event_or_404,
)
from tournaments.rounds import swiss_round_count
from web.errors import ServiceError
from web.forms import show_refusal

SEATED = Q(registrations__status=Registration.Status.REGISTERED)


def _with_counts(events):
    return events.annotate(players=Count("registrations", filter=SEATED))


def event_list(request: HttpRequest) -> HttpResponse:
    events = _with_counts(Event.objects.visible_to(request.user))
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
    }
    return render(request, "tournaments/event_detail.html", context)


def _winner(event: Event) -> dict | None:
    """The decided winner's placings row, for the event page (None before the end)."""
    if event.status not in (Event.Status.RUNNING, Event.Status.FINISHED):
        return None
    return event_placings(event).winner


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = services.create_event(request.user, **form.cleaned_data)
        messages.success(
            request, _("%(event)s created. You are its organiser.") % {"event": event.name}
        )
        return redirect("tournaments:manage", event.pk)
    return render(request, "tournaments/event_form.html", {"form": form, "creating": True})


@event_role_required(ORGANISER)
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_event(event, request.user, **form.cleaned_data)
        except ServiceError as exc:
            show_refusal(form, exc)
        else:
            messages.success(request, _("Event details saved."))
            return redirect("tournaments:manage", event.pk)
    return render(request, "tournaments/event_form.html", {"form": form, "event": event})


@require_POST
@event_role_required(ORGANISER)
def grant_role(request: HttpRequest, event: Event) -> HttpResponse:
    form = GrantRoleForm(request.POST)
    if form.is_valid():
        try:
            grant = services.grant_role(
                event, form.cleaned_data["username"], form.cleaned_data["role"]
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            # The English has always read "a organiser".
            now = {
                EventRole.Role.ORGANISER: _("%(username)s is now a organiser."),
                EventRole.Role.JUDGE: _("%(username)s is now a judge."),
            }
            messages.success(request, now[grant.role] % {"username": grant.user.username})
    else:
        messages.error(request, _("Give a username and a role."))
    return redirect("tournaments:manage", event.pk)


@require_POST
@event_role_required(ORGANISER)
def revoke_role(request: HttpRequest, event: Event, grant_id: int) -> HttpResponse:
    try:
        services.revoke_role(event, grant_id)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Role removed."))
    return redirect("tournaments:manage", event.pk)


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
        "organising": _with_counts(Event.objects.filter(roles__user=user, roles__role=ORGANISER)),
        "judging": _with_counts(Event.objects.filter(roles__user=user, roles__role=JUDGE)),
        "playing": Registration.objects.filter(user=user).select_related("event"),
        "offers": entry_offers.offers_waiting_for(user),
    }
    return render(request, "tournaments/my_events.html", context)


@require_POST
@event_role_required(ORGANISER)
def withdraw_offer(request: HttpRequest, event: Event, offer_id: int) -> HttpResponse:
    """The organiser takes back an entry offered from this event that nobody answered."""
    offer = get_object_or_404(
        EntryOffer.objects.select_related("registration"), pk=offer_id, registration__event=event
    )
    try:
        entry_offers.withdraw_offer(offer, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("The offer of %(player)s's entry is withdrawn.")
            % {"player": offer.registration.display_name},
        )
    return redirect("tournaments:manage", event.pk)


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


@login_required
def judge_console(request: HttpRequest) -> HttpResponse:
    """The judge's home: the events they judge, each linking to its calls and penalties."""
    events = (
        Event.objects.all()
        if request.user.is_superuser
        else Event.objects.filter(roles__user=request.user, roles__role=EventRole.Role.JUDGE)
    )
    return render(request, "judging/console.html", {"events": _with_counts(events.distinct())})
