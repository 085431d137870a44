"""Pages of a running event: the organiser's controls, the player's match, public views.

Views read, check roles and call services; the services hold the rules.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import (
    dashboard_lists,
    decklist_gate,
    entry_offers,
    event_state,
    once,
    player_names,
    result_notices,
    results,
    rounds,
    services,
)
from tournaments import my_match as my_match_text
from tournaments.models import Event, Match, Registration, Round, with_result_versions
from tournaments.pairings_list import lines_html, pairing_lines
from tournaments.placings import event_placings
from tournaments.roles import (
    JUDGE,
    ORGANISER,
    event_role_required,
    has_role,
    visible_event_or_404,
)
from web.errors import ServiceError
from web.inputs import Reader, whole_number

STEP_ACTIONS = {
    "pair": lambda event, user: rounds.pair_next_round(event, user),
    "start": lambda event, user: rounds.start_round(rounds.latest_round(event), user),
    "close": lambda event, user: rounds.close_round(rounds.latest_round(event), user),
    "top_cut": lambda event, user: rounds.start_top_cut(event, user),
    "advance": lambda event, user: rounds.advance_top_cut(event, user),
    "finish": lambda event, user: rounds.finish_event(event, user),
}


def _round_matches(round_: Round | None):
    if round_ is None:
        return []
    return list(
        round_.matches.select_related("player_a__user", "player_b__user").order_by(
            "is_bye", "table"
        )
    )


def _round_or_latest(event: Event, number: str | None) -> Round | None:
    if whole_number(number) is not None:
        return event.rounds.filter(number=whole_number(number)).first()
    return rounds.latest_round(event)


@event_role_required(ORGANISER)
def dashboard(request: HttpRequest, event: Event) -> HttpResponse:
    """The organiser's one screen: the next step and what needs them now (tables without
    a result, disputes, drops), then the round's tables and the players a page at a time
    (``dashboard_lists``; htmx fetches another page or a search in place), staff and log."""
    part = request.GET.get("part", "") if request.htmx else ""
    current = rounds.latest_round(event)
    try:
        context = {
            "event": event,
            "round": current,
            **DASHBOARD_CONTEXT[part](request, event, current),
        }
    except ServiceError as exc:  # a bad page number: said plainly, in place of the list
        if request.htmx:
            return render(request, "_empty.html", {"title": str(exc)}, status=400)
        return render(request, "400.html", {"reason": str(exc)}, status=400)
    template = _part(request, DASHBOARD_PARTS, "tournaments/event_manage.html")
    return render(request, template, context)


def _dashboard_status(request: HttpRequest, event: Event, current: Round | None) -> dict:
    return {
        "next_step": rounds.next_step(event),
        "blocked": event_state.pairing_blocker(event),
        **dashboard_lists.round_summary(current),
        **_decklist_context(event, current),
    }


def _dashboard_tables(request: HttpRequest, event: Event, current: Round | None) -> dict:
    """One page of the round's tables: ``tq`` searches, ``tpage`` pages, ``show=open``."""
    if current is None:
        return {"tables": None}
    tables = dashboard_lists.round_tables(
        current,
        dashboard_lists.search_text(request.GET.get("tq")),
        dashboard_lists.page_number(request.GET.get("tpage")),
        only_open=request.GET.get("show") == "open",
    )
    player_names.tell_apart(event, [p for m in tables.items for p in (m.player_a, m.player_b)])
    return {"tables": tables, "matches": tables.items}


def _dashboard_players(request: HttpRequest, event: Event, current: Round | None) -> dict:
    """One page of the registrations: ``pq`` searches, ``ppage`` pages."""
    players = dashboard_lists.registrations(
        event,
        dashboard_lists.search_text(request.GET.get("pq")),
        dashboard_lists.page_number(request.GET.get("ppage")),
    )
    return {
        "players": players,
        "players_hint": event_state.players_empty_hint(event),
        **dashboard_lists.player_counts(event),
    }


def _dashboard_swap(request: HttpRequest, event: Event, current: Round | None) -> dict:
    """The re-pair and swap forms: every seated player to choose from, asked for on demand."""
    matches = _round_matches(current)
    player_names.tell_apart(event, [p for m in matches for p in (m.player_a, m.player_b)])
    return {"matches": matches}


def _dashboard_page(request: HttpRequest, event: Event, current: Round | None) -> dict:
    return {
        **_dashboard_status(request, event, current),
        **_dashboard_tables(request, event, current),
        **_dashboard_players(request, event, current),
        "swiss_rounds": rounds.swiss_round_count(event),
        "staff": event.roles.select_related("user"),
        "open_offers": entry_offers.open_offers_in(event),
        "log": event.log.select_related("actor")[:12],
        # Without JavaScript the swap forms come with the page once asked for (?swap=1).
        "swap_matches": _dashboard_swap(request, event, current)["matches"]
        if request.GET.get("swap")
        else None,
    }


def _decklist_context(event: Event, current: Round | None) -> dict:
    """Before round 1: who has no legal submitted list; after it: what the pairing applied."""
    if not decklist_gate.needs_decklists(event):
        return {}
    if current is None:
        return {
            "decklists_open": True,
            "decklists_missing": decklist_gate.missing_decklists(event),
            "registered_count": event.registrations.filter(
                status=Registration.Status.REGISTERED
            ).count(),
        }
    if current.number != 1:
        return {}  # the record belongs to round 1's pairing: its view shows it
    return {"decklist_record": decklist_gate.describe(current.pairing_stats)}


@require_POST
@event_role_required(ORGANISER)
def remind_decklists(request: HttpRequest, event: Event) -> HttpResponse:
    """E-mail the players without a legal list (the ones ticked, or all of them)."""
    missing = decklist_gate.missing_decklists(event)
    chosen = {n for n in map(whole_number, request.POST.getlist("players")) if n}
    players = [m.registration for m in missing if not chosen or m.registration.pk in chosen]
    sent, unreachable = decklist_gate.remind(event, players, request.user)
    if sent:
        messages.success(
            request, _("Reminder e-mailed to %(players)s.") % {"players": ", ".join(sent)}
        )
    if unreachable:
        messages.warning(
            request,
            _("No e-mail address for %(players)s: tell them in person.")
            % {"players": ", ".join(unreachable)},
        )
    if not sent and not unreachable:
        messages.info(request, _("Everyone has a legal submitted decklist: nobody to remind."))
    return redirect("tournaments:manage", event.pk)


@require_POST
@event_role_required(ORGANISER)
def next_step(request: HttpRequest, event: Event) -> HttpResponse:
    action = request.POST.get("action", "")
    step = rounds.next_step(event)
    if step is None or action != step[0] or action not in STEP_ACTIONS:
        messages.error(request, _("That step is not the next one any more: the page was stale."))
        return redirect("tournaments:manage", event.pk)
    blocked = event_state.pairing_blocker(event) if action == "pair" else None
    if blocked:
        messages.error(request, blocked)
        return redirect("tournaments:manage", event.pk)
    try:
        if action == "pair":
            # The players the organiser saw listed as missing a decklist, and confirmed.
            ids = ",".join(request.POST.getlist("missing")).split(",")
            seen = [n for n in map(whole_number, ids) if n]
            rounds.pair_next_round(event, request.user, confirm_missing_decklists=seen)
        else:
            STEP_ACTIONS[action](event, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Done: %(step)s.") % {"step": step[1]})
    return redirect("tournaments:manage", event.pk)


@require_POST
@event_role_required(ORGANISER)
def repair(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    try:
        rounds.repair_round(round_, request.user, request.POST.get("reason", ""))
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Round %(round)s paired again; the old pairing is logged.") % {"round": number},
        )
    return redirect("tournaments:manage", event.pk)


@require_POST
@event_role_required(ORGANISER)
def swap(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    try:
        first = event.registrations.get(pk=whole_number(request.POST.get("first")) or 0)
        second = event.registrations.get(pk=whole_number(request.POST.get("second")) or 0)
        rounds.swap_players(round_, first, second, request.user, request.POST.get("reason", ""))
    except Registration.DoesNotExist:
        messages.error(request, _("Choose the two players to swap."))
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Swapped %(first)s and %(second)s.")
            % {"first": first.display_name, "second": second.display_name},
        )
    return redirect("tournaments:manage", event.pk)


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


@require_POST
@event_role_required(ORGANISER)
def check_in(request: HttpRequest, event: Event) -> HttpResponse:
    if request.POST.get("all"):
        ids = list(event.registrations.values_list("pk", flat=True))
    else:
        ids = [n for n in map(whole_number, request.POST.getlist("players")) if n is not None]
    changed = services.check_in(event, ids, request.user)
    # The English has always said "player(s)" for one and many alike.
    checked = ngettext(
        "%(count)s player(s) checked in.", "%(count)s player(s) checked in.", changed
    )
    messages.success(request, checked % {"count": changed})
    return redirect("tournaments:manage", event.pk)


@require_POST
@event_role_required(ORGANISER)
def drop(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=registration_id, event=event)
    try:
        services.drop_player(event, registration, request.user, request.POST.get("reason", ""))
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("%(player)s is dropped from the next round.") % {"player": registration.display_name},
        )
    return redirect("tournaments:manage", event.pk)


@require_POST
@event_role_required(ORGANISER)
def late_entry(request: HttpRequest, event: Event) -> HttpResponse:
    username = request.POST.get("username", "")
    name = request.POST.get("name", "").strip()
    try:
        registration = services.add_late_entry(event, request.user, username=username, name=name)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, services.entry_added_text(registration))
    return redirect("tournaments:manage", event.pk)


@require_POST
@event_role_required(ORGANISER)
def pin_table(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=registration_id, event=event)
    fields = Reader(request.POST)
    table = fields.integer("table", required=False, message=services.table_pin_rule())
    try:
        fields.check()
        services.pin_table(event, registration, table, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, _("%(player)s: table pin saved.") % {"player": registration.display_name}
        )
    return redirect("tournaments:manage", event.pk)


def _my_registration(request: HttpRequest, event: Event) -> Registration:
    registration = Registration.objects.filter(event=event, user=request.user).first()
    if registration is None:
        raise PermissionDenied(_("You are not a player in this event."))
    return registration


def _my_current_match(event: Event, registration: Registration) -> Match | None:
    current = rounds.latest_round(event)
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
        # Without JavaScript a tap opens the page with ?report=2-1: the question to confirm.
        "asked": next((t for t in taps if t.text == asked), None),
        # Once the event is over, the player's place shows above their last match too.
        "idle": _idle(event, me)
        if match is None or event.status == Event.Status.FINISHED
        else None,
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
            score = results.parse_score(request.POST.get("score", ""))
            score = results.score_from_player(match, me, score)
            match = results.report_result(match, me, score, request.user)
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


def pairings(request: HttpRequest, event_id: int) -> HttpResponse:
    """Public pairings by name (what players look for on the wall), with a search box."""
    event = visible_event_or_404(request.user, event_id)
    round_ = _round_or_latest(event, request.GET.get("round"))
    query = request.GET.get("q", "").strip()
    lines = pairing_lines(round_, query) if round_ is not None else []
    context = {
        "event": event,
        "round": round_,
        "rows": lines_html(lines) if lines else "",
        "query": query,
        "rounds": event.rounds.all(),
        "chosen_round": whole_number(request.GET.get("round")) is not None,
    }
    return render(request, _part(request, PAIRINGS_PARTS, "tournaments/pairings.html"), context)


# The fragments a page's htmx and live.js fetch (``?part=``), by the page they belong to.
PAIRINGS_PARTS = {
    "": "tournaments/_pairings_rows.html",  # the search box's
    "rows": "tournaments/_pairings_rows.html",
    "head": "tournaments/_pairings_head.html",
}
DASHBOARD_PARTS = {
    "status": "tournaments/_manage_status.html",
    "tables": "tournaments/_manage_tables.html",  # the rows alone (live.js)
    "round_tables": "tournaments/_manage_round_tables.html",  # search box and pages (htmx)
    "players": "tournaments/_manage_players.html",
    "swap": "tournaments/_manage_swap.html",
}
# What each part needs (``""``: the whole page); an unknown part is the whole page.
DASHBOARD_CONTEXT = defaultdict(
    lambda: _dashboard_page,
    {
        "status": _dashboard_status,
        "tables": _dashboard_tables,
        "round_tables": _dashboard_tables,
        "players": _dashboard_players,
        "swap": _dashboard_swap,
    },
)


def _part(request: HttpRequest, parts: dict[str, str], page: str) -> str:
    """The template of the fragment asked for with htmx (``?part=``), else the page's."""
    if not request.htmx:
        return page
    return parts.get(request.GET.get("part", ""), page)


def bracket_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request.user, event_id)
    cut_rounds = [
        {"round": r, "matches": _round_matches(r)}
        for r in event.rounds.filter(kind=Round.Kind.TOP_CUT).order_by("number")
    ]
    context = {"event": event, "cut_rounds": cut_rounds, "winner": event_placings(event).winner}
    return render(request, "tournaments/bracket.html", context)


def projector(request: HttpRequest, event_id: int) -> HttpResponse:
    """Large type for the hall's screen: round clock, extensions, tables still playing."""
    event = visible_event_or_404(request.user, event_id)
    round_ = rounds.latest_round(event)
    matches = _round_matches(round_)
    context = {
        "event": event,
        "round": round_,
        "playing": [m for m in matches if not m.has_result],
        "extensions": [m for m in matches if m.extension_minutes],
    }
    return render(request, "tournaments/projector.html", context)
