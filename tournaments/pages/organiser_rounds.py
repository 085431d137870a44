"""The organiser's running event: the dashboard, the next step, re-pairing and swaps,
check-in, drops, late entries and pinned tables.

Views read, check roles and call services; the services hold the rules.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.event import check_in as check_in_state
from tournaments.event import entry_offers, services
from tournaments.event import next_step as event_state
from tournaments.event.roles import (
    ORGANISER,
    event_role_required,
)
from tournaments.models import Event, Registration, Round
from tournaments.pages import dashboard_lists
from tournaments.pages.parts import back_to_dashboard_once, page_part, round_matches
from tournaments.record import player_names
from tournaments.record.rounds import latest_round, swiss_round_count
from tournaments.rounds import decklist_gate
from tournaments.rounds import services as rounds
from web.errors import ServiceError
from web.inputs import Reader, whole_number

STEP_ACTIONS = {
    "pair": lambda event, user: rounds.pair_next_round(event, user),
    "start": lambda event, user: rounds.start_round(latest_round(event), user),
    "close": lambda event, user: rounds.close_round(latest_round(event), user),
    "top_cut": lambda event, user: rounds.start_top_cut(event, user),
    "advance": lambda event, user: rounds.advance_top_cut(event, user),
    "finish": lambda event, user: rounds.finish_event(event, user),
}


@event_role_required(ORGANISER)
def dashboard(request: HttpRequest, event: Event) -> HttpResponse:
    """The organiser's one screen: the next step and what needs them now (tables without
    a result, disputes, drops), then the round's tables and the players a page at a time
    (``dashboard_lists``; htmx fetches another page or a search in place), staff and log."""
    part = request.GET.get("part", "") if request.htmx else ""
    current = latest_round(event)
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
    template = page_part(request, DASHBOARD_PARTS, "tournaments/event_manage.html")
    return render(request, template, context)


def _dashboard_status(request: HttpRequest, event: Event, current: Round | None) -> dict:
    return {
        "next_step": rounds.next_step(event),
        "blocked": event_state.pairing_blocker(event),
        **dashboard_lists.round_summary(current),
        **_decklist_context(event, current),
        **_check_in_context(event, current),
    }


def _check_in_context(event: Event, current: Round | None) -> dict:
    """Before round 1: the registered players it would leave out (not checked in)."""
    if current is not None:
        return {"not_checked_in": []}
    absent = check_in_state.not_checked_in(event)
    return {
        "not_checked_in": absent,
        "not_checked_in_names": ", ".join(r.display_name for r in absent),
        "self_check_in_closed": check_in_state.self_check_in_closed(event),
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
        "byes_open": current is None,
        **dashboard_lists.player_counts(event),
    }


def _dashboard_swap(request: HttpRequest, event: Event, current: Round | None) -> dict:
    """The re-pair and swap forms: every seated player to choose from, asked for on demand."""
    matches = round_matches(current)
    player_names.tell_apart(event, [p for m in matches for p in (m.player_a, m.player_b)])
    return {"matches": matches}


def _dashboard_page(request: HttpRequest, event: Event, current: Round | None) -> dict:
    return {
        **_dashboard_status(request, event, current),
        **_dashboard_tables(request, event, current),
        **_dashboard_players(request, event, current),
        "swiss_rounds": swiss_round_count(event),
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
    """E-mail the players without a legal list (the ones ticked, or all of them); once per
    form, so a resent form e-mails nobody twice."""

    def act() -> bool:
        chosen = {n for n in map(whole_number, request.POST.getlist("players")) if n}
        sent, unreachable = decklist_gate.remind_missing(event, chosen, request.user)
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
        return bool(sent)

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def next_step(request: HttpRequest, event: Event) -> HttpResponse:
    """Take the step the dashboard offered, if it is still the next one.

    Only the page's own question is asked here (is the button pressed still the step
    offered? a stale page could otherwise finish an event mid-Swiss); whether the step
    can be taken (a draft, too few players, a round not closed) is the service's to
    refuse, with the same words the API gives. Sent again with its one-time token (an
    answer lost on the way), the step is not taken twice: the first answer is given again.
    """
    return back_to_dashboard_once(request, event, lambda: _take_next_step(request, event))


def _take_next_step(request: HttpRequest, event: Event) -> bool:
    action = request.POST.get("action", "")
    step = rounds.next_step(event)
    if step is None or action != step[0] or action not in STEP_ACTIONS:
        messages.error(request, _("That step is not the next one any more: the page was stale."))
        return False
    try:
        if action == "pair":
            # The players the organiser saw listed as missing a decklist, and confirmed.
            ids = ",".join(request.POST.getlist("missing")).split(",")
            seen = [n for n in map(whole_number, ids) if n]
            # And those they saw listed as not checked in, and confirmed leaving out.
            ids = ",".join(request.POST.getlist("absent")).split(",")
            absent = [n for n in map(whole_number, ids) if n]
            rounds.pair_next_round(
                event,
                request.user,
                confirm_missing_decklists=seen,
                confirm_not_checked_in=absent,
            )
        else:
            STEP_ACTIONS[action](event, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return False
    messages.success(request, _("Done: %(step)s.") % {"step": step[1]})
    return True


@require_POST
@event_role_required(ORGANISER)
def repair(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)

    def act() -> bool:
        try:
            rounds.repair_round(round_, request.user, request.POST.get("reason", ""))
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(
            request,
            _("Round %(round)s paired again; the old pairing is logged.") % {"round": number},
        )
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def swap(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)

    def act() -> bool:
        reason = request.POST.get("reason", "")
        try:
            first = event.registrations.get(pk=whole_number(request.POST.get("first")) or 0)
            second = event.registrations.get(pk=whole_number(request.POST.get("second")) or 0)
            rounds.swap_players(round_, first, second, request.user, reason)
        except Registration.DoesNotExist:
            messages.error(request, _("Choose the two players to swap."))
            return False
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(
            request,
            _("Swapped %(first)s and %(second)s.")
            % {"first": first.display_name, "second": second.display_name},
        )
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def check_in(request: HttpRequest, event: Event) -> HttpResponse:
    def act() -> bool:
        if request.POST.get("all"):
            changed = services.check_in_everyone(event, request.user)
        else:
            ids = [n for n in map(whole_number, request.POST.getlist("players")) if n is not None]
            changed = services.check_in(event, ids, request.user)
        if not changed:
            messages.info(request, _("Nobody to check in: every registered player is checked in."))
            return False
        checked = ngettext("%(count)s player checked in.", "%(count)s players checked in.", changed)
        messages.success(request, checked % {"count": changed})
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def drop(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=registration_id, event=event)

    def act() -> bool:
        reason = request.POST.get("reason", "")
        try:
            services.drop_player(event, registration, request.user, reason)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(
            request,
            _("%(player)s is dropped from the next round.") % {"player": registration.display_name},
        )
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def late_entry(request: HttpRequest, event: Event) -> HttpResponse:
    """Add an entry; a form sent again with its one-time token adds nobody twice."""

    def act() -> bool:
        username = request.POST.get("username", "")
        name = request.POST.get("name", "").strip()
        try:
            added = services.add_late_entry(event, request.user, username=username, name=name)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(request, services.entry_added_text(added))
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def pin_table(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=registration_id, event=event)

    def act() -> bool:
        fields = Reader(request.POST)
        table = fields.integer("table", required=False, message=services.table_pin_rule())
        try:
            fields.check()
            services.pin_table(event, registration, table, request.user)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(
            request, _("%(player)s: table pin saved.") % {"player": registration.display_name}
        )
        return True

    return back_to_dashboard_once(request, event, act)


@require_POST
@event_role_required(ORGANISER)
def award_byes(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=registration_id, event=event)

    def act() -> bool:
        fields = Reader(request.POST)
        byes = fields.integer("byes", required=False, message=services.awarded_byes_rule())
        try:
            fields.check()
            services.award_byes(event, registration, byes or 0, request.user)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(
            request, _("%(player)s: awarded byes saved.") % {"player": registration.display_name}
        )
        return True

    return back_to_dashboard_once(request, event, act)


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
