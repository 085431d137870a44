"""The hall display's pages: the whole screen, and the fragment live.js fetches into it.

Public like the projector (a draft is 404). The choice of what to show and the layout
are ``tournaments.pages.hall_screen``'s; these read the rows (a fixed number of queries,
whatever the field's size) and render.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.event.roles import visible_event_or_404
from tournaments.event.schedule import EventSchedule, live_schedule
from tournaments.models import Event, Match, Registration, Round, name_columns
from tournaments.pages import hall_screen as hall
from tournaments.record.placings import EventPlacings, event_placings
from tournaments.record.rounds import latest_round
from tournaments.record.standings import standings_rows
from web.errors import ServiceError

LIVE_TYPES = "pairings round result extension standings event"
MAX_FOOT_EXTENSIONS = 8  # extended tables listed under the pairings; the clock screen has all


@lru_cache(maxsize=64)
def qr_svg(url: str) -> SafeString:
    """The URL as a QR code in SVG, drawn on white so it scans on the dark screen."""
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(omitsize=True, border=2, light="#fff", dark="#000"))


def player_page_url(request: HttpRequest, event: Event) -> str:
    """Where a player's phone goes from the screen: their match page, on the address
    the hall's network reaches (``PUBLIC_URL`` in venue mode), else this request's."""
    path = reverse("tournaments:my_match", args=[event.pk])
    base = (getattr(settings, "PUBLIC_URL", "") or "").strip().rstrip("/")
    return f"{base}{path}" if base else request.build_absolute_uri(path)


_SEAT_FIELDS = ("table", "is_bye", "extension_minutes", "status", "player_b_id")


def _seats(round_: Round | None) -> list[hall.Seat]:
    """The round's matches as the screen's plain seats, tables in order and byes last.

    Read as plain values: the screen shows every match of the round, and 10,000 of them
    built as model instances with their players cost over a second (issue 18).
    """
    if round_ is None:
        return []
    names = name_columns("player_a") + name_columns("player_b")
    rows = round_.matches.order_by("is_bye", "table").values(*_SEAT_FIELDS, *names)
    return [
        hall.Seat(
            table=row["table"],
            player_a=_person(row, "player_a"),
            player_b=_person(row, "player_b") if row["player_b_id"] else None,
            is_bye=row["is_bye"],
            extension_minutes=row["extension_minutes"],
            has_result=Match.result_stands(row["is_bye"], row["status"]),
        )
        for row in rows
    ]


def _person(row: dict[str, Any], side: str) -> hall.Person:
    """One side's player: the name pages show, and the account's last name to sort by
    (none where the organiser entered a name)."""
    entered = row[f"{side}__name"]
    last_name = "" if entered else row[f"{side}__user__last_name"] or ""
    return hall.Person(Registration.name_in(row, side), last_name)


def _clock(round_: Round | None, extra_minutes: int) -> str:
    if round_ is None or round_.ends_at is None:
        return ""
    ends = round_.ends_at + datetime.timedelta(minutes=extra_minutes)
    return hall.clock_text((ends - timezone.now()).total_seconds())


def _extensions(matches: list[hall.Seat], running: Round | None) -> list[dict[str, Any]]:
    """The tables with extra time: number, minutes, and their own clock while running."""
    return [
        {
            "table": m.table,
            "minutes": m.extension_minutes,
            "clock": _clock(running, m.extension_minutes),
        }
        for m in matches
        if m.extension_minutes and not m.is_bye
    ]


def _bracket(event: Event) -> list[dict[str, Any]]:
    cut = Match.objects.filter(round__event=event, round__kind=Round.Kind.TOP_CUT)
    played: dict[int, list[Match]] = {}
    for match in cut.select_related("player_a__user", "player_b__user", "round").order_by(
        "round__number", "table"
    ):
        played.setdefault(match.round.number, []).append(match)
    return hall.bracket_columns(event.top_cut, [played[n] for n in sorted(played)])


def screen_context(request: HttpRequest, event: Event, params: hall.HallParams) -> dict:
    """Everything the screen shows for ``params`` in the event's present state."""
    round_ = latest_round(event)
    in_cut = round_ is not None and round_.kind == Round.Kind.TOP_CUT
    placings = event_placings(event) if in_cut or params.screen == "winner" else None
    cut_won = in_cut and placings is not None and placings.winner is not None
    mode = hall.screen_mode(
        params, hall.hall_mode(event.status, round_.status if round_ else None, in_cut, cut_won)
    )
    running = round_ is not None and round_.status == Round.Status.RUNNING
    matches = _seats(round_) if mode in ("pairings", "clock") or running else []
    context: dict[str, Any] = {
        "event": event,
        "round": round_,
        "mode": mode,
        "params": params,
        "running": running and round_.ends_at is not None,
        "extensions": _extensions(matches, round_ if running else None),
        "clock": _clock(round_ if running else None, 0),
        "playing": [m for m in matches if not m.has_result],
        "foot_extensions": MAX_FOOT_EXTENSIONS,
        "player_url": player_page_url(request, event),
        "title_size": hall.title_step(event.name),
    }
    context["qr"] = qr_svg(context["player_url"])
    context["schedule"] = _between_rounds(event, running)
    if mode == "pairings":
        rows = hall.pairing_rows(matches, params.sort)
        pages = hall.paged(hall.letter_range_filter(rows, params.first, params.last))
        pages = [replace(page, size=_pairings_size(page)) for page in pages]
        bye = f"<em>{escape(_('bye'))}</em>"  # the words once per screen, not once a row
        context["pages"] = _written(pages, lambda row: _pairing_line(row, context["running"], bye))
    elif mode == "standings":
        pages = hall.paged(standings_rows(event), label=hall.ranks_of)
        dropped = f" <small>{escape(_('(dropped)'))}</small>"
        day1 = f" <small>{escape(_('(Day 1)'))}</small>"
        pages = [replace(page, size=_standings_size(page, _("(dropped)"))) for page in pages]
        context["pages"] = _written(pages, lambda row: _standings_line(row, dropped, day1))
    elif mode == "bracket":
        context["bracket"] = _bracket(event) if event.top_cut or in_cut else []
    elif mode == "winner" and placings is not None and placings.winner is not None:
        context.update(_winner(placings))
    return context


def _between_rounds(event: Event, running: bool) -> EventSchedule | None:
    """The schedule when no round is running and one is still to start: the screen says
    when it starts, and how late the event runs (from the planned start, if any)."""
    if running or event.status == Event.Status.FINISHED:
        return None
    schedule = live_schedule(event)
    upcoming = schedule.next
    return schedule if upcoming is not None and upcoming.expected_start is not None else None


WINNER_SCREEN_PLACES = 8  # the winner, then the places below, down to the 8th


def _winner(placings: EventPlacings) -> dict[str, Any]:
    """The winner screen: the champion, large, and the other top places under them."""
    champion = placings.winner or {}
    others = [
        {
            "place": row["place_shown"],
            "name": row.get("label") or row["name"],
            "how": row.get("cut_text") or row.get("record", ""),
        }
        for row in placings.rows[:WINNER_SCREEN_PLACES]
        if row is not champion and row.get("place", 0) <= WINNER_SCREEN_PLACES
    ]
    name = champion.get("label") or champion.get("name", "")
    return {
        "winner": {"name": name, "record": champion.get("record", "")},
        "winner_size": hall.winner_step(name),
        "placings": others,
    }


def _pairings_size(page: hall.Page) -> int:
    """The type step that shows every name of a page of pairings whole."""
    rows = [row for column in page.columns for row in column]
    return hall.type_step(
        [row.shown for row in rows],
        [row.opponent for row in rows if row.opponent],
        columns=len(page.columns),
        rows=max(map(len, page.columns)),
    )


def _standings_size(page: hall.Page, dropped: str) -> int:
    """The type step that shows every name of a page of standings whole."""
    rows = [row for column in page.columns for row in column]
    return hall.type_step(
        [
            f"{row.get('label') or row['name']}{' ' + dropped if row.get('dropped') else ''}"
            for row in rows
        ],
        columns=len(page.columns),
        rows=max(map(len, page.columns)),
        kind="standings",
    )


def _written(pages: list[hall.Page], line: Callable[[Any], str]) -> list[hall.Page]:
    """The pages with each column's rows already written as HTML.

    The screen carries every row of the round for hall.js to page through; written here
    rather than by the template engine, 18,000 rows take a tenth of the time (issue 18).
    Each value is escaped as the template would escape it; the words a row holds
    ("bye", "(dropped)") are translated once per screen by the caller.
    """
    return [
        replace(page, columns=[mark_safe("".join(map(line, rows))) for rows in page.columns])
        for page in pages
    ]


def _pairing_line(row: hall.PairingRow, running: bool, bye: str) -> str:
    """One player's row; ``bye``: the opponent's cell of a bye, as HTML."""
    if row.is_bye:
        table, opponent = "—", bye
    else:
        table, opponent = str(row.table), escape(row.opponent)
        if row.extension_minutes and running:
            table += f'<small class="hall-extra">+{row.extension_minutes}</small>'
    return (
        f'<li class="hall-row{" is-bye" if row.is_bye else ""}">'
        f'<span class="hall-name">{escape(row.shown)}</span>'
        f'<span class="hall-table">{table}</span>'
        f'<span class="hall-opponent">{opponent}</span></li>'
    )


def _standings_line(row: dict[str, Any], dropped_mark: str, day1_mark: str = "") -> str:
    """One standings row; ``dropped_mark``: what follows a dropped player's name, as HTML;
    ``day1_mark``: what follows a main event's player who did not reach Day 2."""
    dropped = dropped_mark if row.get("dropped") else ""
    if row.get("day2") is False:
        dropped += day1_mark
    return (
        f'<li class="hall-row"><span class="hall-rank">{row["rank"]}</span>'
        f'<span class="hall-name">{escape(row.get("label") or row["name"])}{dropped}</span>'
        f'<span class="hall-points">{row["match_points"]}</span>'
        f'<span class="hall-record">{escape(row["record"])}</span></li>'
    )


def _params_or_400(request: HttpRequest, event: Event) -> hall.HallParams | HttpResponse:
    try:
        return hall.read_params(request.GET)
    except ServiceError as exc:
        context = {"event": event, "reason": exc.message, "field": exc.field}
        return render(request, "tournaments/hall_error.html", context, status=400)


def hall_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The screen in the hall: no site menu, large type, following the event by itself."""
    event = visible_event_or_404(request.user, event_id)
    params = _params_or_400(request, event)
    if isinstance(params, HttpResponse):
        return params
    fragment = reverse("tournaments:hall_fragment", args=[event.pk])
    query = params.query()
    context = screen_context(request, event, params)
    context["fragment_url"] = f"{fragment}?{urlencode(query)}" if query else fragment
    context["live_types"] = LIVE_TYPES
    return render(request, "tournaments/hall.html", context)


def hall_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The screen's content alone: what live.js fetches when the event changes."""
    event = visible_event_or_404(request.user, event_id)
    params = _params_or_400(request, event)
    if isinstance(params, HttpResponse):
        return params
    return render(request, "tournaments/hall_screen.html", screen_context(request, event, params))
