"""Anyone's view of a running event: the pairings, the top-cut bracket, the projector.

Views read, check roles and call services; the services hold the rules.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.event.roles import (
    visible_event_or_404,
)
from tournaments.models import Event, Round
from tournaments.pages.parts import page_part, round_matches
from tournaments.record.placings import event_placings
from tournaments.record.rounds import latest_round
from tournaments.rounds.pairings_list import lines_html, pairing_lines
from web.inputs import whole_number


def _round_or_latest(event: Event, number: str | None) -> Round | None:
    if whole_number(number) is not None:
        return event.rounds.filter(number=whole_number(number)).first()
    return latest_round(event)


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
    return render(request, page_part(request, PAIRINGS_PARTS, "tournaments/pairings.html"), context)


# The fragments a page's htmx and live.js fetch (``?part=``), by the page they belong to.
PAIRINGS_PARTS = {
    "": "tournaments/_pairings_rows.html",  # the search box's
    "rows": "tournaments/_pairings_rows.html",
    "head": "tournaments/_pairings_head.html",
}


def bracket_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request.user, event_id)
    cut_rounds = [
        {"round": r, "matches": round_matches(r)}
        for r in event.rounds.filter(kind=Round.Kind.TOP_CUT).order_by("number")
    ]
    context = {"event": event, "cut_rounds": cut_rounds, "winner": event_placings(event).winner}
    return render(request, "tournaments/bracket.html", context)


def projector(request: HttpRequest, event_id: int) -> HttpResponse:
    """Large type for the hall's screen: round clock, extensions, tables still playing."""
    event = visible_event_or_404(request.user, event_id)
    round_ = latest_round(event)
    matches = round_matches(round_)
    context = {
        "event": event,
        "round": round_,
        "playing": [m for m in matches if not m.has_result],
        "extensions": [m for m in matches if m.extension_minutes],
    }
    return render(request, "tournaments/projector.html", context)
