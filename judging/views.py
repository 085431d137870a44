"""The judge's pages: the event console, penalties with their escalation preview,
judge calls, and the search timer. Judges and organisers of the event only."""

from __future__ import annotations

from contextlib import suppress

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from judging import calls, roster, routing
from judging import penalties as penalty_service
from judging import queue as judge_queue
from judging.models import JudgeCall, Penalty, infraction_choices
from tournaments import once
from tournaments.event.roles import JUDGE, ORGANISER, event_role_required
from tournaments.models import Event, Match, Registration
from tournaments.record import player_names
from tournaments.record.rounds import latest_round
from tournaments.results.services import games_of
from web.errors import ServiceError
from web.inputs import whole_number

STAFF = (ORGANISER, JUDGE)


def _current_matches(event: Event) -> list[Match]:
    current = latest_round(event)
    if current is None:
        return []
    return list(
        current.matches.filter(is_bye=False)
        .select_related("player_a__user", "player_b__user", "round")
        .order_by("table")
    )


# The console's parts live.js fetches again when the round changes (``?part=``).
CONSOLE_PARTS = {
    "round": "judging/_console_round.html",  # "Round 2 (running)" under the title
    "tables": "judging/_console_tables.html",  # the grid of the current round's tables
}


def _view_of(request: HttpRequest, event: Event) -> dict:
    """The judge's own view (their zone and team, judging.roster) or, with ``?all=1``,
    everything; organisers and the head judge always see everything."""
    scope = roster.scope_for(request.user, event)
    asked = request.GET.get("all") == "1" and not (scope.everything or scope.zone is None)
    show_all = asked or scope.everything or scope.zone is None
    return {"scope": scope, "show_all": show_all, "view_query": "all=1" if asked else ""}


def _queue_for(request: HttpRequest, event: Event, view: dict) -> judge_queue.Queue:
    queue = judge_queue.build_queue(event, timezone.now())
    if view["show_all"]:
        return queue
    return routing.queue_for(queue, event, request.user.pk, view["scope"])


def _tables_for(event: Event, view: dict) -> list[Match]:
    matches = _current_matches(event)
    if view["show_all"]:
        return matches
    return [m for m in matches if view["scope"].holds(m.table)]


@event_role_required(*STAFF)
def console(request: HttpRequest, event: Event) -> HttpResponse:
    """The queue of what waits for a judge, the forms to log a call and grant time, and
    every table of the current round; a floor judge's view holds their zone (``?all=1``:
    everything).

    The round's heading and its tables are fetched again (``?part=round``,
    ``?part=tables``) whenever a round is paired, started or closed, so a judge's grid
    always links to the round being played."""
    part = request.GET.get("part", "") if request.htmx else ""
    view = _view_of(request, event)
    context = {"event": event, "round": latest_round(event), **view}
    if part in CONSOLE_PARTS:
        if part == "tables":
            context["matches"] = _tables_for(event, view)
        return render(request, CONSOLE_PARTS[part], context)
    context.update(
        queue=_queue_for(request, event, view),
        matches=_tables_for(event, view),
        deck_checks=event.deck_checks.select_related("registration__user")[:5],
        may_manage_roster=roster.may_manage(request.user, event),
    )
    return render(request, "judging/event_console.html", context)


@event_role_required(*STAFF)
def console_queue(request: HttpRequest, event: Event) -> HttpResponse:
    """The console's queue alone: the fragment the console fetches again every 20 s."""
    view = _view_of(request, event)
    queue = _queue_for(request, event, view)
    return render(request, "judging/_queue.html", {"event": event, "queue": queue, **view})


def _penalty_form_context(event: Event, request: HttpRequest) -> dict:
    matches = _current_matches(event)
    chosen = whole_number(request.GET.get("match") or request.POST.get("match") or "")
    players = (
        event.registrations.exclude(status=Registration.Status.WAITLISTED)
        .select_related("user")
        .order_by("name", "user__username")
    )
    everyone = list(players)
    table = next((m for m in matches if m.pk == chosen), None)
    if table is not None:  # a table chosen: its two players only
        players = [p for p in everyone if p.pk in (table.player_a_id, table.player_b_id)]
    else:
        players = everyone
    return {
        "event": event,
        "matches": matches,
        "chosen": chosen,
        "infractions": infraction_choices(event.game),
        "adopted_rules": penalty_service.adopted_rules(event.game),
        "players": players,
        "all_players": everyone,
    }


def _penalty_input(event: Event, data) -> tuple[Registration, Match | None, str, int]:
    """The form's player, match, infraction and game, or ServiceError naming the field.

    With a table chosen, the player must be one of its two.
    """
    match = None
    if data.get("match"):
        match_id = whole_number(data.get("match"))
        match = Match.objects.filter(pk=match_id, round__event=event).first() if match_id else None
        if match is None:
            raise ServiceError(_("Choose a table of this event."), "match")
    player_id = whole_number(data.get("player"))
    player = event.registrations.filter(pk=player_id).first() if player_id else None
    if player is None:
        raise ServiceError(_("Choose the player who receives the penalty."), "player")
    if match is not None and player.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError(
            _("%(player)s is not a player of table %(table)s: choose one of its two players.")
            % {"player": player.display_name, "table": match.table},
            "player",
        )
    infraction = str(data.get("infraction") or "")
    if infraction not in dict(infraction_choices(event.game)):
        raise ServiceError(_("Choose the infraction."))
    game = whole_number(data.get("game") or "1")
    if game is None:
        raise ServiceError(_("The game number is a whole number (1, 2, 3…)."))
    return player, match, infraction, game


@event_role_required(*STAFF)
def new_penalty(request: HttpRequest, event: Event) -> HttpResponse:
    """Log a penalty in seconds: table, player, infraction, game; preview; confirm.

    The form's one-time token answers it once: sent twice (a double tap, a browser's
    retry), it logs one penalty.
    """
    context = _penalty_form_context(event, request)
    if request.method == "POST":
        chosen = context["chosen"]
        form_again = reverse("judging:new_penalty", args=[event.pk])
        if chosen:
            form_again += f"?match={chosen}"
        return once.form_once(
            request,
            lambda: _issue_from_form(request, event, context),
            lambda: redirect(form_again),
        )
    return render(request, "judging/penalty_form.html", context)


def _issue_from_form(
    request: HttpRequest, event: Event, context: dict
) -> tuple[HttpResponse, bool]:
    try:
        player, match, infraction, game = _penalty_input(event, request.POST)
        penalty = penalty_service.issue_penalty(
            player,
            infraction,
            request.user,
            game=game,
            match=match,
            notes=request.POST.get("notes", ""),
            confirmed=request.POST.get("confirm_change", ""),
            says=penalty_service.judge_says_from_form(request.POST, match),
        )
    except ServiceError as exc:
        messages.error(request, str(exc))
        context["form"] = request.POST
        preview = getattr(exc, "preview", None)
        if preview is not None:
            context.update(preview=preview, preview_player=player, preview_match=match)
        return render(request, "judging/penalty_form.html", context, status=400), False
    summary = penalty_service.describe(penalty)
    messages.success(
        request,
        _("Penalty logged: %(penalty)s. %(summary)s") % {"penalty": penalty, "summary": summary},
    )
    for change in penalty_service.changes_made(penalty):
        messages.info(request, _("Result changed: %(change)s") % {"change": change})
    if match is not None:
        return redirect("judging:match", event.pk, match.pk), True
    return redirect("judging:penalties", event.pk), True


@event_role_required(*STAFF)
def preview(request: HttpRequest, event: Event) -> HttpResponse:
    """The escalation the penalty would cause, shown before the judge confirms (htmx)."""
    data = request.POST or request.GET
    try:
        player, match, infraction, game = _penalty_input(event, data)
    except ServiceError as exc:
        return render(request, "judging/_preview.html", {"error": str(exc)})
    context = {"player": player, "preview_match": match}
    try:
        says = penalty_service.judge_says_from_form(data, match)
        context["preview"] = penalty_service.preview_penalty(player, infraction, game, match, says)
    except ServiceError as exc:
        context["error"] = str(exc)
        if {"in_result", "game_winner"} & set(exc.fields):  # an answer refused: ask again
            with suppress(ServiceError):  # then the error alone says what is wrong
                context["preview"] = penalty_service.preview_penalty(
                    player, infraction, game, match
                )
    return render(request, "judging/_preview.html", context)


@event_role_required(*STAFF)
def penalty_list(request: HttpRequest, event: Event) -> HttpResponse:
    penalties = event.penalties.select_related(
        "player__user", "judge", "round", "match", "voided_by"
    ).order_by("-issued_at", "-pk")
    penalties = penalty_service.with_void_effects(list(penalties))
    return render(request, "judging/penalty_list.html", {"event": event, "penalties": penalties})


@require_POST
@event_role_required(*STAFF)
def void(request: HttpRequest, event: Event, penalty_id: int) -> HttpResponse:
    penalty = get_object_or_404(Penalty, pk=penalty_id, event=event)
    try:
        manual = penalty_service.void_penalty(penalty, request.user, request.POST.get("reason", ""))
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Penalty voided: %(penalty)s. What it caused was taken back.") % {"penalty": penalty},
        )
        for step in manual:
            messages.warning(request, _("By hand: %(step)s") % {"step": step})
    if request.POST.get("from") == "table" and penalty.match_id:
        return redirect("judging:match", event.pk, penalty.match_id)
    return redirect("judging:penalties", event.pk)


@event_role_required(*STAFF)
def match_page(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """The judge's place at one table: everything said, decided and granted there, and
    the forms to settle the result, grant time and log a penalty."""
    match = get_object_or_404(
        Match.objects.select_related("player_a__user", "player_b__user", "round"),
        pk=match_id,
        round__event=event,
    )
    return render(request, "judging/table.html", table_context(event, match))


def _named_changes(match: Match) -> list:
    """The result history, each change's author named as the claims above it name people:
    a player of the table by their name (``who``), staff by their account."""
    players = {p.user_id: p for p in match.players() if p.user_id is not None}
    player_names.tell_apart(match.round.event, match.players())
    changes = list(match.changes.select_related("changed_by"))
    for change in changes:
        player = players.get(change.changed_by_id)
        if player is not None:
            change.who = getattr(player, "label", player.display_name)
        elif change.changed_by is not None:
            change.who = change.changed_by.get_username()
        else:
            change.who = ""
    return changes


def table_context(event: Event, match: Match) -> dict:
    """What the table page shows; forms that fail re-render with it (and their errors)."""
    players = match.players()
    return {
        "event": event,
        "m": match,
        "claims": match.claims.select_related("player__user"),
        "changes": _named_changes(match),
        "penalties": penalty_service.with_void_effects(
            list(
                match.penalties.select_related(
                    "player__user", "judge", "voided_by", "round", "match"
                )
            )
        ),
        "calls": match.judge_calls.select_related("judge"),
        "extensions": match.extensions.select_related("granted_by", "removed_by"),
        "deck_checks": event.deck_checks.filter(registration__in=players).select_related(
            "registration__user", "judge"
        ),
        "game_losses": [
            {
                "game": f.game,
                "loser": match.player_b if f.winner == match.player_a_id else match.player_a,
            }
            for f in games_of(match).forced
        ],
    }


@require_POST
@event_role_required(*STAFF)
def new_call(request: HttpRequest, event: Event) -> HttpResponse:
    raw_table = request.POST.get("table", "").strip()
    table = whole_number(raw_table)
    try:
        if raw_table and table is None:
            raise ServiceError(_("The table is a number."))
        call = calls.open_call(
            event,
            request.user,
            question=request.POST.get("question", ""),
            table=table,
            judge=request.user,
        )
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("judging:console", event.pk)
    messages.success(request, _("Call at table %(table)s logged.") % {"table": call.table or "—"})
    return redirect("judging:call", event.pk, call.pk)


@event_role_required(*STAFF)
def call_page(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    call = get_object_or_404(
        JudgeCall.objects.select_related("match", "judge"), pk=call_id, event=event
    )
    if request.method == "POST":
        minutes = whole_number(request.POST.get("minutes", "").strip() or "0")
        try:
            if minutes is None:
                raise ServiceError(_("Minutes are a whole number."))
            calls.resolve_call(
                call,
                request.user,
                resolution=request.POST.get("resolution", ""),
                minutes=minutes,
                grant_extension=bool(request.POST.get("extension")),
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Call resolved."))
            return redirect("judging:console", event.pk)
    elapsed = None
    if call.is_open:
        elapsed = max(1, round((timezone.now() - call.called_at).total_seconds() / 60))
    return render(request, "judging/call.html", {"event": event, "call": call, "elapsed": elapsed})


@event_role_required(*STAFF)
def search_timer(request: HttpRequest, event: Event) -> HttpResponse:
    """A stopwatch for a search (904.2-904.6) that says when a warning may be issued."""
    table = request.GET.get("table", "")
    return render(request, "judging/search_timer.html", {"event": event, "table": table})


@require_POST
@event_role_required(*STAFF)
def attach_ruling(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Keep the ruling just read on the ruling page with the judge call it settles."""
    from web.jsonbody import BodyError, read_json_body

    call = get_object_or_404(JudgeCall, pk=call_id, event=event)
    try:
        body = read_json_body(request, limit=64 * 1024, expected="the ruling")
        if not isinstance(body, dict):
            raise ServiceError(_("Send {game, question, payload}."))
        calls.attach_ruling(
            call,
            request.user,
            game=str(body.get("game", "")),
            question=str(body.get("question", "")),
            payload=body.get("payload"),
        )
    except (BodyError, ServiceError) as exc:
        return HttpResponse(f'<p class="field-error">{escape(str(exc))}</p>', status=400)
    link = reverse("judging:call", args=[event.pk, call.pk])
    kept = _('Kept with the <a href="%(link)s">judge call at table %(table)s</a>.') % {
        "link": link,
        "table": call.table or "—",
    }
    return HttpResponse(f'<p class="flash flash-success">{kept}</p>')
