"""Settling a table's result where the judge stands: the form on the table page.

The rules (a reason where the entry overrides the players, a score the format allows)
are ``tournaments.results.services.enter_result``'s; this view only reads the form and shows
the refusal next to the field it names, with what was typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from judging.views import STAFF, table_context
from tournaments import once
from tournaments.event.roles import event_role_required
from tournaments.models import Event, Match
from tournaments.results import services as results
from web.errors import ServiceError


@require_POST
@event_role_required(*STAFF)
def table_result(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Settle a dispute, or enter or correct the result, from the judge's table page.

    The form carries the version of the result it was drawn with: when another judge
    changed the result meanwhile, the entry is refused and the page drawn again with what
    they decided. Its one-time token answers a form sent twice once.
    """
    match = get_object_or_404(
        Match.objects.select_related("player_a__user", "player_b__user", "round"),
        pk=match_id,
        round__event=event,
    )
    return once.form_once(
        request,
        lambda: _settle(request, event, match),
        lambda: redirect("judging:match", event.pk, match.pk),
    )


def _settle(request: HttpRequest, event: Event, match: Match) -> tuple[HttpResponse, bool]:
    typed = {"score": request.POST.get("score", ""), "reason": request.POST.get("reason", "")}
    settling = match.status == Match.Status.DISPUTED
    try:
        score = results.parse_score(typed["score"])
        version = results.version_from_form(request.POST.get("version"))
        match = results.enter_result(
            match, score, request.user, typed["reason"], seen_version=version
        )
    except ServiceError as exc:
        match.refresh_from_db()
        context = table_context(event, match)
        context["settle_form"] = typed
        context["settle_errors"] = {
            (e["field"] if e["field"] in ("score", "reason") else "form"): e["message"]
            for e in exc.errors
        }
        return render(request, "judging/table.html", context, status=exc.status), False
    values = {
        "a": match.player_a.display_name,
        "score": results.games_of(match).score_text(),
        "b": match.player_b.display_name,
    }
    if settling:
        done = _("Dispute settled: %(a)s %(score)s %(b)s.") % values
    else:
        done = _("Result saved: %(a)s %(score)s %(b)s.") % values
    messages.success(request, done)
    return redirect("judging:match", event.pk, match.pk), True
