"""The organiser's list of players who must not meet in Swiss (family, teammates).

One page on a phone: the pairs listed, a form to add one (two of the event's
registrations, a reason), a button to remove each. Views read and call
``tournaments.event.avoid_pairs``; the service holds the rules and logs each change.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import once
from tournaments.event import avoid_pairs
from tournaments.event.roles import ORGANISER, event_role_required
from tournaments.models import Event, Registration
from tournaments.record.player_names import player_labels
from web.errors import ServiceError
from web.inputs import whole_number


@event_role_required(ORGANISER)
def avoid_page(request: HttpRequest, event: Event) -> HttpResponse:
    """GET: the pairs and the form; POST: add a pair (answered once per form token)."""
    if request.method != "POST":
        return _page(request, event)

    def perform() -> tuple[HttpResponse, bool]:
        return redirect("tournaments:avoid_pairs", event.pk), _add(request, event)

    return once.form_once(request, perform, lambda: _page(request, event))


def _add(request: HttpRequest, event: Event) -> bool:
    chosen = [_registration(event, request.POST.get(key)) for key in ("first", "second")]
    if None in chosen:
        messages.error(request, _("Choose the two players to keep apart."))
        return False
    first, second = chosen
    try:
        avoid_pairs.add_pair(event, first, second, request.user, request.POST.get("reason", ""))
    except ServiceError as exc:
        messages.error(request, str(exc))
        return False
    messages.success(
        request,
        _("%(first)s and %(second)s will not be paired against each other in Swiss.")
        % {"first": first.display_name, "second": second.display_name},
    )
    return True


def _registration(event: Event, value: str | None) -> Registration | None:
    pk = whole_number(value)
    if pk is None:
        return None
    return event.registrations.select_related("user").filter(pk=pk).first()


@require_POST
@event_role_required(ORGANISER)
def remove_avoid_pair(request: HttpRequest, event: Event, pair_id: int) -> HttpResponse:
    """Remove one pair: its players may meet again from the next pairing."""

    def perform() -> tuple[HttpResponse, bool]:
        try:
            avoid_pairs.remove_pair(event, pair_id, request.user)
        except ServiceError as exc:
            messages.error(request, str(exc))
            wrote = False
        else:
            messages.success(request, _("The pair may meet again from the next pairing."))
            wrote = True
        return redirect("tournaments:avoid_pairs", event.pk), wrote

    return once.form_once(request, perform, lambda: _page(request, event))


def _page(request: HttpRequest, event: Event) -> HttpResponse:
    """The pairs and the form; every entry of the event is a choice (waitlisted too)."""
    registrations = list(event.registrations.select_related("user"))
    labels = player_labels(registrations)
    choices = sorted(((labels[r.pk], r.pk) for r in registrations), key=lambda c: c[0].casefold())
    pairs = avoid_pairs.listed(event)
    for pair in pairs:
        pair.first.label = labels.get(pair.first_id, pair.first.display_name)
        pair.second.label = labels.get(pair.second_id, pair.second.display_name)
    context = {"event": event, "pairs": pairs, "choices": choices}
    return render(request, "tournaments/avoid_pairs.html", context)
