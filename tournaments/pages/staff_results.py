"""Organisers and judges at a table: entering or correcting a match's result.

Views read, check roles and call services; the services hold the rules.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import once
from tournaments.event.roles import (
    JUDGE,
    ORGANISER,
    event_role_required,
)
from tournaments.models import Event, Match, with_result_versions
from tournaments.record import player_names
from tournaments.results import services as results
from web.errors import ServiceError


@require_POST
@event_role_required(ORGANISER, JUDGE)
def enter_result(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Staff enter or correct a table's result; with htmx only that row is redrawn.

    The form carries the result's version it was drawn with and a one-time token: an
    entry over a change not seen is refused with what changed, and a form sent twice
    is answered once.
    """
    match = get_object_or_404(Match, pk=match_id, round__event=event)

    def answer(error: str = "") -> HttpResponse:
        if request.htmx:
            current = with_result_versions(Match.objects.filter(pk=match.pk)).get()
            player_names.tell_apart(event, [current.player_a, current.player_b])
            context = {"event": event, "m": current, "round": current.round, "row_error": error}
            return render(request, "tournaments/_match_row.html", context)
        return _back_to_staff_page(request, event)

    def perform() -> tuple[HttpResponse, bool]:
        try:
            score = results.parse_score(request.POST.get("score", ""))
            version = results.version_from_form(request.POST.get("version"))
            reason = request.POST.get("reason", "")
            results.enter_result(match, score, request.user, reason, seen_version=version)
        except ServiceError as exc:
            if not request.htmx:
                messages.error(
                    request,
                    _("Table %(table)s: %(error)s") % {"table": match.table, "error": str(exc)},
                )
            return answer(str(exc)), False
        if not request.htmx:
            messages.success(request, _("Table %(table)s: result saved.") % {"table": match.table})
        return answer(), True

    return once.form_once(request, perform, answer)


def _back_to_staff_page(request: HttpRequest, event: Event) -> HttpResponse:
    """Back to the page the staff form was on (``next``), else the dashboard."""
    back = request.POST.get("next", "")
    # Only a path on this site: redirect() would read any other word as a URL name.
    if back.startswith("/") and url_has_allowed_host_and_scheme(back, {request.get_host()}):
        return HttpResponseRedirect(back)
    return redirect("tournaments:manage", event.pk)
