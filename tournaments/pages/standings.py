"""Public pages of an event's results: standings (after any round, searchable), the final
placings, the event summary and the placings as CSV.

Views read and check visibility; the rows come from ``standings_cache`` (the Swiss
standings) and ``placings`` (the top cut's bands, then the Swiss order).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.event.roles import visible_event_or_404
from tournaments.models import Event, Registration, Round
from tournaments.pages.dashboard_lists import ListPage, page_number
from tournaments.pages.standings_table import (
    PAGE_ROWS,
    page_count,
    page_of,
    render_standings_table,
    standings_table,
)
from tournaments.record.placings import EventPlacings, event_placings
from tournaments.record.standings import standings_rows, table_key
from web.errors import ServiceError
from web.inputs import whole_number
from web.spreadsheet import attachment, csv_download, spreadsheet_cell

MAX_QUERY = 100


@dataclass(frozen=True)
class StandingsAsked:
    """What the standings page was asked for: a past round, a name search, a view."""

    after: int | None
    query: str
    swiss: bool  # the Swiss standings even where the placings lead
    page: int = 1

    def filters(self) -> dict[str, str]:
        """The view and round asked, as query parameters (the page's links keep them)."""
        params = {"view": "swiss"} if self.swiss else {}
        if self.after is not None:
            params["after"] = str(self.after)
        return params

    def params(self) -> dict[str, str]:
        """The query string that asks for the same again (for live refreshes)."""
        params = self.filters()
        if self.query:
            params["q"] = self.query
        if self.page > 1:
            params["page"] = str(self.page)
        return params


def _swiss_rounds(event: Event) -> list[int]:
    swiss = event.rounds.filter(kind=Round.Kind.SWISS).order_by("number")
    return list(swiss.values_list("number", flat=True))


def read_asked(request: HttpRequest, played: list[int]) -> StandingsAsked:
    """The page's GET parameters, or a ServiceError naming the one that is wrong."""
    raw_after = request.GET.get("after", "").strip()
    after = None
    if raw_after:
        after = whole_number(raw_after)
        if after is None:
            raise ServiceError(_("after: give a round number, such as after=2."), "after")
        if after not in played and played:
            raise ServiceError(
                _("after: round %(round)s has not been played; choose a round from 1 to %(last)s.")
                % {"round": after, "last": played[-1]},
                "after",
            )
        if after not in played:
            raise ServiceError(
                _(
                    "after: round %(round)s has not been played; "
                    "choose no round: none is paired yet."
                )
                % {"round": after},
                "after",
            )
    query = " ".join(request.GET.get("q", "").split())
    if len(query) > MAX_QUERY:
        raise ServiceError(
            _("q: search for at most %(limit)s characters of a name.") % {"limit": MAX_QUERY}, "q"
        )
    view = request.GET.get("view", "")
    if view not in ("", "swiss", "placings"):
        raise ServiceError(_("view: choose placings or swiss."), "view")
    page = page_number(request.GET.get("page", "").strip())
    return StandingsAsked(after, query, view == "swiss" or after is not None, page)


def _matching(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    needle = query.casefold()
    return [row for row in rows if needle in row["name"].casefold()]


def _swiss_table(event: Event, asked: StandingsAsked) -> SafeString:
    """A page of the Swiss standings (or of a search's rows) with its page links; a
    ServiceError for a page past the last."""
    if not asked.query:
        table, shown = standings_table(event, asked.after, asked.page)
    else:
        rows = standings_rows(event, asked.after)
        found = _matching(rows, asked.query)
        shown = len(found)
        page = page_of(found, asked.page)
        table = mark_safe(render_standings_table(page, total=len(rows), matched=shown))
    pages = page_count(shown)
    if asked.page > pages:
        if asked.query:
            refusal = ngettext(
                "page: this search fills %(count)s page; choose 1 to %(count)s.",
                "page: this search fills %(count)s pages; choose 1 to %(count)s.",
                pages,
            )
        else:
            refusal = ngettext(
                "page: the standings fill %(count)s page; choose 1 to %(count)s.",
                "page: the standings fill %(count)s pages; choose 1 to %(count)s.",
                pages,
            )
        raise ServiceError(refusal % {"count": pages}, "page")
    pager = ListPage([], asked.page, pages, shown, PAGE_ROWS, asked.query, asked.filters())
    # Plain links, not htmx: the page's live refresh then follows the page shown.
    context = {"list": pager, "url": reverse("tournaments:standings", args=[event.pk])}
    return table + mark_safe(render_to_string("tournaments/_list_pager.html", context))


def placings_table(event: Event, placings: EventPlacings, query: str = "") -> SafeString:
    """The placings table as HTML: cached per results version and language when it shows
    everyone."""
    if query:
        rows = _matching(placings.rows, query)
        context = {"rows": rows, "total": len(placings.rows), "cut": placings.cut_started}
        return mark_safe(render_to_string("tournaments/_placings_table.html", context))
    key = table_key(event, "placings-table")
    html = cache.get(key)
    if html is None:
        context = {"rows": placings.rows, "total": None, "cut": placings.cut_started}
        html = render_to_string("tournaments/_placings_table.html", context)
        cache.set(key, html, settings.STANDINGS_CACHE_SECONDS)
    return mark_safe(html)  # our own template's output, escaped as it rendered


def standings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings: the final placings once the cut began or the event is over, the
    Swiss standings (``?view=swiss``) after any played round (``?after=N``), by name
    (``?q=``). With htmx (the search box, live.js) the table alone."""
    event = visible_event_or_404(request.user, event_id)
    played = _swiss_rounds(event)
    try:
        asked = read_asked(request, played)
        placings = event_placings(event)
        leads = placings.shown and not asked.swiss
        if leads:
            table = placings_table(event, placings, asked.query)
        else:
            table = _swiss_table(event, asked)
    except ServiceError as exc:
        context = {"event": event, "error": exc.message, "played": played}
        return render(request, "tournaments/standings.html", context, status=400)
    if request.htmx:
        return HttpResponse(table)
    params = asked.params()
    context = {
        "event": event,
        "table": table,
        "asked": asked,
        "played": played,
        "placings": placings,
        "winner": placings.winner,
        "leads": leads,
        "live_query": urlencode(params),
        "swiss_query": urlencode({**params, "view": "swiss"}),
    }
    return render(request, "tournaments/standings.html", context)


def summary(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event at a glance: players, rounds, the top cut, the winner, the placings and
    the decklists the organiser published (none while they keep them private)."""
    event = visible_event_or_404(request.user, event_id)
    placings = event_placings(event)
    registrations = event.registrations.exclude(status=Registration.Status.WAITLISTED)
    rounds = list(event.rounds.order_by("number"))
    context = {
        "event": event,
        "placings": placings,
        "winner": placings.winner,
        "table": placings_table(event, placings),
        "players": registrations.count(),
        "dropped": registrations.filter(status=Registration.Status.DROPPED).count(),
        "swiss_played": sum(1 for r in rounds if r.kind == Round.Kind.SWISS),
        "cut_played": sum(1 for r in rounds if r.kind == Round.Kind.TOP_CUT),
        "decklists": _published_decklists(event, placings),
    }
    return render(request, "tournaments/summary.html", context)


def _published_decklists(event: Event, placings: EventPlacings) -> list[dict[str, Any]]:
    """Placings rows (in placing order) whose submitted list the organiser published:
    all of them, or the top cut's only; none while decklists are private."""
    if event.decklists_public not in ("all", "top_cut"):
        return []
    submitted = set(
        event.registrations.filter(Q(decklist__status="submitted")).values_list("pk", flat=True)
    )
    return [
        row
        for row in placings.rows
        if row["registration"] in submitted
        and (event.decklists_public == "all" or row.get("cut") is not None)
    ]


CSV_COLUMNS = [
    "place",
    "place_to",
    "place_label",
    "player_id",
    "name",
    "record",
    "match_points",
    "top_cut",
    "status",
]


def placings_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    """The placings as CSV, one row a player, ids kept (exports name players by id too)."""
    event = visible_event_or_404(request.user, event_id)
    placings = event_placings(event)
    response = csv_download(attachment(event.name, f"event-{event.pk}", "-placings.csv"))
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for row in placings.rows:
        writer.writerow(
            [
                spreadsheet_cell(v)
                for v in (
                    row["place"],
                    row["place_to"],
                    row["place_label"],
                    row["player"],
                    row["name"],
                    row["record"],
                    row["match_points"],
                    row["cut"] or "",
                    row["status"],
                )
            ]
        )
    return response
