"""An event's organisers: creating and editing it, its plan for the field, granting roles,
withdrawing offers.

Thin: they read, check roles, and call services.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import once
from tournaments.event import entry_offers, services
from tournaments.event import plan as field_plan
from tournaments.event.roles import (
    ORGANISER,
    event_role_required,
)
from tournaments.models import EntryOffer, Event, EventRole
from tournaments.pages.forms import EventForm, GrantRoleForm
from tournaments.pages.parts import back_to_dashboard_once
from tournaments.record.rounds import swiss_round_count
from web.errors import ServiceError
from web.forms import show_refusal
from web.inputs import whole_number


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, organiser=request.user)
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


@event_role_required(ORGANISER)
def event_plan(request: HttpRequest, event: Event) -> HttpResponse:
    """GET: the recommended rounds, cut and gate for the field beside the event's own, and
    the day simulated when that is quick; POST: accept the recommendation (once)."""
    if request.method == "POST":
        return _accept_plan(request, event)
    found = field_plan.recommendation(event)
    context = {
        "event": event,
        "found": found,
        "refusal": field_plan.accept_refusal(event, found),
        "day": field_plan.simulate(event, found),
        "simulated_up_to": field_plan.SIMULATED_UP_TO,
        "swiss_rounds": swiss_round_count(event),
    }
    return render(request, "tournaments/event_plan.html", context)


def _accept_plan(request: HttpRequest, event: Event) -> HttpResponse:
    def page() -> HttpResponse:
        return redirect("tournaments:plan", event.pk)

    counted = whole_number(request.POST.get("counted"))

    def perform() -> tuple[HttpResponse, bool]:
        try:
            if counted is None:  # the page always sends the field it showed
                raise ServiceError(
                    _("The form's player count is missing or not a number."), field="counted"
                )
            field_plan.accept_plan(event, request.user, counted)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return page(), False
        messages.success(request, _("The plan is accepted: the event's rounds and cut are set."))
        return page(), True

    return once.form_once(request, perform, page)


@require_POST
@event_role_required(ORGANISER)
def grant_role(request: HttpRequest, event: Event) -> HttpResponse:
    def act() -> bool:
        form = GrantRoleForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Give a username and a role."))
            return False
        try:
            grant = services.grant_role(
                event, form.cleaned_data["username"], form.cleaned_data["role"]
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        # The English has always read "a organiser".
        now = {
            EventRole.Role.ORGANISER: _("%(username)s is now a organiser."),
            EventRole.Role.JUDGE: _("%(username)s is now a judge."),
        }
        messages.success(request, now[grant.role] % {"username": grant.user.username})
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def revoke_role(request: HttpRequest, event: Event, grant_id: int) -> HttpResponse:
    def act() -> bool:
        try:
            services.revoke_role(event, grant_id)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(request, _("Role removed."))
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def withdraw_offer(request: HttpRequest, event: Event, offer_id: int) -> HttpResponse:
    """The organiser takes back an entry offered from this event that nobody answered."""
    offer = get_object_or_404(
        EntryOffer.objects.select_related("registration"), pk=offer_id, registration__event=event
    )

    def act() -> bool:
        try:
            entry_offers.withdraw_offer(offer, request.user)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(
            request,
            _("The offer of %(player)s's entry is withdrawn.")
            % {"player": offer.registration.display_name},
        )
        return True

    return back_to_dashboard_once(request, event, act)
