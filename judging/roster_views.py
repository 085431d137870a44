"""The judge roster's pages (issue 33): the roster itself (organisers and the head judge
change it; every judge of the event reads it), the end-of-round team's outstanding tables
by zone, and the deck-check team's random tables. Judges and organisers of the event only.

Thin: they read, check roles, and call ``judging.roster``.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from judging import roster
from judging.models import DeckCheckPick, JudgeAssignment
from tournaments.event.roles import JUDGE, ORGANISER, event_role_required
from tournaments.models import Event, EventRole
from web.errors import ServiceError

STAFF = (ORGANISER, JUDGE)


def _roster_context(event: Event, request: HttpRequest) -> dict:
    placed = {a.user_id for a in event.judge_roster.all()}
    staff = (
        EventRole.objects.filter(event=event, role__in=STAFF)
        .select_related("user")
        .order_by("user__username")
    )
    unplaced = sorted({r.user.username for r in staff if r.user_id not in placed})
    zones = list(event.judge_zones.prefetch_related("assignments__user"))
    return {
        "event": event,
        "assignments": event.judge_roster.select_related("user", "zone"),
        "zones": zones,
        "unplaced": unplaced,
        "roles": JudgeAssignment.Role.choices,
        "teams": JudgeAssignment.Team.choices,
        "may_manage": roster.may_manage(request.user, event),
        "scope": roster.scope_for(request.user, event),
    }


# What each form on the roster page asks of judging.roster, by its ``action``.
ACTIONS = {
    "assign": lambda event, user, data: roster.assign(
        event,
        user,
        username=data.get("username", ""),
        role=data.get("role", ""),
        team=data.get("team", ""),
        zone_id=data.get("zone") or None,
    ),
    "unassign": lambda event, user, data: roster.unassign(
        event, user, assignment_id=data.get("assignment")
    ),
    "zone": lambda event, user, data: roster.save_zone(
        event,
        user,
        name=data.get("name", ""),
        first_table=data.get("first_table", ""),
        last_table=data.get("last_table", ""),
        zone_id=data.get("zone") or None,
    ),
    "delete_zone": lambda event, user, data: roster.delete_zone(
        event, user, zone_id=data.get("zone")
    ),
}


@event_role_required(*STAFF)
def roster_page(request: HttpRequest, event: Event) -> HttpResponse:
    """Who judges what: roles, teams and zones. Every judge of the event reads it; the
    organisers and the head judge change it."""
    if request.method == "POST":
        if not roster.may_manage(request.user, event):
            raise PermissionDenied(
                _("Only this event's organisers and head judge may change the roster.")
            )
        action = ACTIONS.get(request.POST.get("action", ""))
        if action is None:
            messages.error(request, _("Nothing to change."))
            return redirect("judging:roster", event.pk)
        try:
            action(event, request.user, request.POST)
        except ServiceError as exc:
            messages.error(request, str(exc))
            context = {**_roster_context(event, request), "form": request.POST}
            return render(request, "judging/roster.html", context, status=400)
        messages.success(request, _("Roster saved."))
        return redirect("judging:roster", event.pk)
    return render(request, "judging/roster.html", _roster_context(event, request))


@event_role_required(*STAFF)
def end_of_round(request: HttpRequest, event: Event) -> HttpResponse:
    """The end-of-round team's view: the running round's tables with no result, by zone."""
    context = {
        "event": event,
        "round": roster.running_round(event),
        "groups": roster.outstanding_by_zone(event),
        "scope": roster.scope_for(request.user, event),
    }
    if request.htmx and request.GET.get("part") == "tables":
        return render(request, "judging/_end_of_round_tables.html", context)
    return render(request, "judging/end_of_round.html", context)


@event_role_required(*STAFF)
def deck_check_tables(request: HttpRequest, event: Event) -> HttpResponse:
    """The deck-check team's view: the tables drawn for this round (drawn once)."""
    current = roster.running_round(event)
    if request.method == "POST":
        try:
            roster.pick_deck_checks(event, request.user, count=request.POST.get("count", ""))
        except ServiceError as exc:
            messages.error(request, str(exc))
        return redirect("judging:deck_check_tables", event.pk)
    pick = DeckCheckPick.objects.filter(round=current).first() if current else None
    context = {"event": event, "round": current, "pick": pick, "matches": roster.picked(pick)}
    if request.htmx and request.GET.get("part") == "tables":
        return render(request, "judging/_deck_check_tables.html", context)
    return render(request, "judging/deck_check_tables.html", context)
