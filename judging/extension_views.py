"""Granting and removing a table's time extension from the judge's pages (903.1b).

The forms sit on the judge's table page and on the console (``_extension_form.html``,
which names the table by number); both post here. The time itself is
``tournaments.clock.extensions``'s: these views read the form, call it, and answer with the table
page, a message on success (and the warning when the result is already in), the form
again with the field marked on a refusal. Judges and organisers of the event only.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from judging import calls
from judging.views import table_context
from tournaments.clock import extensions as clock
from tournaments.event.roles import JUDGE, ORGANISER, event_role_required
from tournaments.models import Event, Match, TimeExtension
from web.errors import ServiceError
from web.inputs import whole_number

STAFF = (ORGANISER, JUDGE)
RELATED = ("player_a__user", "player_b__user", "round__event")


def _table_in_play(event: Event, raw: str) -> Match:
    """The match at table ``raw`` of the round being played, or a ServiceError on "table"."""
    if not raw:
        raise ServiceError(_("Give the table number."), "table")
    table = whole_number(raw)
    if table is None:
        raise ServiceError(_("The table is a number (1, 2, 3…)."), "table")
    round_ = calls.current_round(event)
    if round_ is None:
        raise ServiceError(_("No round is being played: no table's clock is running."), "table")
    match = round_.matches.select_related(*RELATED).filter(table=table, is_bye=False).first()
    if match is None:
        raise ServiceError(
            _("Round %(round)s has no table %(table)s.") % {"round": round_.number, "table": table},
            "table",
        )
    return match


def _match_of(event: Event, form: QueryDict) -> Match:
    """The form's match: by id (the table page) or by table number (the console)."""
    raw_match = str(form.get("match") or "").strip()
    if not raw_match:
        return _table_in_play(event, str(form.get("table") or "").strip())
    pk = whole_number(raw_match)
    match = Match.objects.select_related(*RELATED).filter(pk=pk, round__event=event).first()
    if pk is None or match is None:
        raise ServiceError(_("Choose a table of this event."), "match")
    return match


def _minutes(raw: str) -> int:
    if not raw:
        raise ServiceError(_("Give the minutes of the extension."), "minutes")
    minutes = whole_number(raw)
    if minutes is None:
        raise ServiceError(_("The minutes of a time extension are a whole number."), "minutes")
    return minutes


def _standing(match: Match) -> str:
    if not match.extension_minutes:
        return _("no extension left: its clock ends with the round")
    return _("its clock now ends %(minutes)s min after the round's") % {
        "minutes": match.extension_minutes
    }


def _errors(exc: ServiceError) -> dict[str, str]:
    """Each refused field's message; "general" for a refusal of the request as a whole."""
    return {e["field"] or "general": e["message"] for e in exc.errors}


def _refused(
    request: HttpRequest,
    event: Event,
    match: Match | None,
    exc: ServiceError,
    removing: int | None = None,
) -> HttpResponse:
    """The form again with what was wrong, nothing written: the table page, or (when no
    table could be found) the extension form alone. ``removing``: the extension whose
    removal was refused (its form is marked, not the grant form)."""
    messages.error(request, str(exc))
    if removing is not None:
        context = {"removing": removing, "remove_errors": _errors(exc)}
    else:
        context = {"extension_errors": _errors(exc), "extension_form": request.POST}
    if match is None:
        return render(
            request, "judging/extension_grant.html", {"event": event, **context}, status=400
        )
    return render(request, "judging/table.html", table_context(event, match) | context, status=400)


@require_POST
@event_role_required(*STAFF)
def grant_extension(request: HttpRequest, event: Event) -> HttpResponse:
    """POST match (or table), minutes, reason: more time on that table's clock."""
    try:
        match = _match_of(event, request.POST)
    except ServiceError as exc:
        return _refused(request, event, None, exc)
    try:
        minutes = _minutes(str(request.POST.get("minutes") or "").strip())
        granted = clock.grant_extension(
            match, minutes, request.POST.get("reason", ""), request.user
        )
    except ServiceError as exc:
        return _refused(request, event, match, exc)
    match = granted.match
    messages.success(
        request,
        _("Table %(table)s: +%(minutes)s min granted (%(standing)s).")
        % {"table": match.table, "minutes": granted.minutes, "standing": _standing(match)},
    )
    warning = clock.warning_for(match)
    if warning:
        messages.warning(request, warning)
    return redirect("judging:match", event.pk, match.pk)


@require_POST
@event_role_required(*STAFF)
def remove_extension(request: HttpRequest, event: Event, extension_id: int) -> HttpResponse:
    """POST reason: take the extension back (it stays listed, struck out, with the reason)."""
    extension = get_object_or_404(
        TimeExtension.objects.select_related("match__round"),
        pk=extension_id,
        match__round__event=event,
    )
    try:
        removed = clock.remove_extension(extension, request.user, request.POST.get("reason", ""))
    except ServiceError as exc:
        match = Match.objects.select_related(*RELATED).get(pk=extension.match_id)
        return _refused(request, event, match, exc, removing=extension.pk)
    match = removed.match
    messages.success(
        request,
        _("Table %(table)s: the +%(minutes)s min extension was removed (%(standing)s).")
        % {"table": match.table, "minutes": removed.minutes, "standing": _standing(match)},
    )
    return redirect("judging:match", event.pk, match.pk)
