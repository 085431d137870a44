"""A signed-in player's own match: the phone page, the live fragment, reporting and
confirming a result, dropping out.

Views read, check roles and call services; the services hold the rules.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import once
from tournaments.event import check_in as check_in_state
from tournaments.event import phases, services
from tournaments.event.roles import (
    JUDGE,
    ORGANISER,
    has_role,
    visible_event_or_404,
)
from tournaments.models import Event, Match, Registration, Round
from tournaments.record import player_names
from tournaments.record.match_games import best_of, games_needed
from tournaments.record.placings import event_placings
from tournaments.record.rounds import latest_round
from tournaments.results import notices as result_notices
from tournaments.results import services as results
from tournaments.rounds import my_match as my_match_text
from web.errors import ServiceError


def _my_registration(request: HttpRequest, event: Event) -> Registration:
    registration = Registration.objects.filter(event=event, user=request.user).first()
    if registration is None:
        raise PermissionDenied(_("You are not a player in this event."))
    return registration


def _my_current_match(event: Event, registration: Registration) -> Match | None:
    current = latest_round(event)
    if current is None:
        return None
    return (
        current.matches.filter(Q(player_a=registration) | Q(player_b=registration))
        .select_related("player_a__user", "player_b__user", "round")
        .first()
    )


def _my_match_context(request: HttpRequest, event: Event, me: Registration) -> dict:
    """What the page and its live fragment show: the seat, the clock, the result to
    report (by a tap or typed) or to confirm, and the notices about the player's results."""
    match = _my_current_match(event, me)
    games = results.games_of(match) if match is not None else None
    top_cut = match is not None and match.round.kind == Round.Kind.TOP_CUT
    taps = my_match_text.tap_scores(event.match_format, top_cut) if match is not None else []
    asked = request.GET.get("report", "")
    opponent = my_match_text.opponent_of(match, me) if match is not None else None
    if match is not None:
        player_names.tell_apart(event, [match.player_a, match.player_b])
    return {
        "event": event,
        "me": me,
        "match": match,
        "opponent": opponent,
        "seat": my_match_text.seat_text(match, me) if match is not None else "",
        "i_reported": match is not None and match.reported_by_id == me.pk,
        "score": games.score if games is not None and games.played else None,
        "notices": result_notices.notices_for(me),
        "taps": taps,
        # The game-by-game picker: the format's games, and two more for drawn games.
        "game_numbers": range(1, best_of(event.match_format) + 3),
        "games_needed": games_needed(event.match_format),
        # Without JavaScript a tap opens the page with ?report=2-1: the question to confirm.
        "asked": next((t for t in taps if t.text == asked), None),
        # Once the event is over, the player's place shows above their last match too.
        "idle": _idle(event, me)
        if match is None or event.status == Event.Status.FINISHED
        else None,
        "check_in": check_in_state.state_for(event, me) if match is None else None,
        "gate_status": phases.player_gate_status(event, me),
    }


def _idle(event: Event, me: Registration) -> my_match_text.Idle | None:
    """Why a player without a match has none: dropped, out of the cut, the event over."""
    if event.status not in (Event.Status.RUNNING, Event.Status.FINISHED):
        return None
    placings = event_placings(event)
    return my_match_text.idle_text(
        me,
        placings.row_for(me.pk),
        event_over=placings.complete,
        cut_now=placings.cut_now,
    )


@login_required
def my_match(request: HttpRequest, event_id: int) -> HttpResponse:
    """The player's phone page: table, opponent, clock, and the result to report or confirm.

    Live (live.js): its region is fetched afresh from ``my_match_fragment`` on the
    player's own ``my_match`` notices, a round's changes and extensions. A tapped score
    and the typed form both post here, to the one report path.
    """
    event = visible_event_or_404(request.user, event_id)
    registration = _my_registration(request, event)
    if request.method == "POST":
        match = _my_current_match(event, registration)

        def perform() -> tuple[HttpResponse, bool]:
            wrote = match is not None and _player_result_action(request, match, registration)
            return redirect("tournaments:my_match", event.pk), wrote

        return once.form_once(
            request,
            perform,
            lambda: redirect("tournaments:my_match", event.pk),
            about=match.pk if match is not None else None,
        )
    context = _my_match_context(request, event, registration)
    return render(request, "tournaments/my_match.html", context)


@login_required
def my_match_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The page's live region alone, for the player themself only (as the page)."""
    event = visible_event_or_404(request.user, event_id)
    registration = _my_registration(request, event)
    context = _my_match_context(request, event, registration)
    return render(request, "tournaments/my_match_fragment.html", context)


def _player_result_action(request: HttpRequest, match: Match, me: Registration) -> bool:
    """Report, confirm or dispute from a player's form; whether it wrote (else a message
    says why not)."""
    action = request.POST.get("action")
    try:
        if action == "report":
            score = results.parse_score(request.POST.get("score", ""))  # their own wins first
            match = results.report_result(match, me, score, request.user)
        elif action == "report_games":  # game by game, in the order played
            picks = _game_picks(request.POST, match.round.event.match_format)
            score = results.score_of_picks(picks)
            match = results.report_result(match, me, score, request.user, in_order=picks)
        elif action == "confirm":
            match = results.confirm_result(match, me, request.user)
        elif action == "dispute":
            typed = request.POST.get("score", "").strip()
            claimed = results.parse_score(typed) if typed else None  # their own wins first
            reason = request.POST.get("reason", "")
            match = results.dispute_result(match, me, request.user, reason, claimed)
        else:
            raise ServiceError(_("Unknown action."))
    except ServiceError as exc:
        messages.error(request, str(exc))
        return False
    notes = {
        Match.Status.REPORTED: _("Result reported: your opponent confirms it on their page."),
        Match.Status.CONFIRMED: _("Result confirmed. Thank you!"),
        Match.Status.DISPUTED: _("The reports disagree: a judge is coming to your table."),
    }
    messages.success(request, notes.get(match.status) or _("Saved."))
    return True


def _game_picks(data, match_format: str) -> list[str]:
    """The picker's games in order ("game_1", "game_2"…), up to the first left blank and
    the game that decided the match."""
    picks = []
    for number in range(1, best_of(match_format) + 3):
        pick = data.get(f"game_{number}", "")
        if not pick:
            break
        picks.append(pick)
    return results.games_played(picks, match_format)


@login_required
def match_page(request: HttpRequest, event_id: int, match_id: int) -> HttpResponse:
    """The page a match slip's QR code opens: players report and confirm; staff enter."""
    event = visible_event_or_404(request.user, event_id)
    match = get_object_or_404(
        Match.objects.select_related("player_a__user", "player_b__user", "round"),
        pk=match_id,
        round__event=event,
    )
    me = next((p for p in match.players() if p.user_id == request.user.pk), None)
    staff = has_role(request.user, event, ORGANISER, JUDGE)
    if me is None and not staff:
        raise PermissionDenied(
            _("Only the players of this match and the event's staff may open it.")
        )
    if request.method == "POST" and me is not None:

        def perform() -> tuple[HttpResponse, bool]:
            wrote = _player_result_action(request, match, me)
            return redirect("tournaments:match", event.pk, match.pk), wrote

        return once.form_once(
            request, perform, lambda: redirect("tournaments:match", event.pk, match.pk)
        )
    opponent = None
    if me is not None and not match.is_bye:
        opponent = match.player_b if match.player_a_id == me.pk else match.player_a
    player_names.tell_apart(event, [match.player_a, match.player_b])
    context = {
        "event": event,
        "me": me,
        "match": match,
        "opponent": opponent,
        "staff": staff,
        "i_reported": me is not None and match.reported_by_id == me.pk,
        "notices": result_notices.notices_for(me, match) if me is not None else [],
    }
    return render(request, "tournaments/match.html", context)


@require_POST
@login_required
def check_in_self(request: HttpRequest, event_id: int) -> HttpResponse:
    """The player checks themself in (their own registration only, whatever is posted),
    back to the page they came from: My match, or else the event's page."""
    event = visible_event_or_404(request.user, event_id)
    _my_registration(request, event)
    try:
        services.self_check_in(event, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You are checked in."))
    if request.POST.get("back") == "my_match":
        return redirect("tournaments:my_match", event.pk)
    return redirect(event)


@require_POST
@login_required
def drop_self(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request.user, event_id)
    registration = _my_registration(request, event)
    try:
        services.drop_player(event, registration, request.user, "dropped by the player")
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You have dropped; you will not be paired again. Thanks!"))
    return redirect(event)
