"""Standings as the site serves them (the rows come from pairing.standings, their one
owner): cached once per state of the event's results.

A large event's standings cost seconds to compute, and the public pages ask for them on
every request. Every service that can move them (a result, a drop, a late entry, a bye,
a penalty's outcome, and their undoing) calls :func:`results_changed` in its own
transaction, which moves ``Event.results_version``; the standings are cached under that
version, so each state is computed once and a change shows on the next request.

The cache holds the rows only, never who may see them: callers check the event's
visibility first (``visible_event_or_404``, ``web.api.event_for``), and the rows are the
same for everyone who may. Keys carry the event's creation time as well as its id, so
an id used again (a database restored from an older dump) never meets older rows. The
rows are data (names, numbers, codes); a rendered table holds words too, so its key
carries the language it was rendered in (:func:`table_key`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import F
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _lazy

from tournaments import dashboard_lists
from tournaments.history import EventHistory, public_row
from tournaments.models import Event


def results_changed(event: Event | int) -> None:
    """The standings of ``event`` may have moved: the next request computes them again.

    Call it inside the transaction that makes the change, so the new version and the new
    rows are seen together.
    """
    event_id = event if isinstance(event, int) else event.pk
    Event.objects.filter(pk=event_id).update(results_version=F("results_version") + 1)


def cache_key(event: Event) -> str:
    """The event's standings under its current results version."""
    created = event.created_at.timestamp() if event.created_at else 0
    return f"standings:{event.pk}:{created:.6f}:{event.results_version}"


def table_key(event: Event, what: str) -> str:
    """The key of a table rendered from the event's current rows (``what``: which one):
    under the results version and the active language, so a visitor never gets a
    table rendered in another's."""
    return f"{cache_key(event)}:{what}:{get_language() or ''}"


def standings_rows(event: Event, after: int | None = None) -> list[dict[str, Any]]:
    """The event's current standings rows (with ``registration``), cached per results
    version; ``event`` must have been read after the last change it should show.

    ``after``: the standings after that round, from the results of rounds up to it
    only (cached the same way: a corrected result of a past round moves the version).
    """
    key = cache_key(event) if after is None else f"{cache_key(event)}:after:{after}"
    rows = cache.get(key)
    if rows is None:
        rows = EventHistory.read(event, plain=True).standings_rows(after)
        cache.set(key, rows, settings.STANDINGS_CACHE_SECONDS)
    return rows


# Rows a page of the standings shows: a phone's long scroll. The leaders are on page 1
# and a player finds their own row with the search; the whole field on one page cost
# seconds to render and megabytes to send at 20,000 players (issue 18).
PAGE_ROWS = 100


def page_count(total: int) -> int:
    """How many pages of the standings ``total`` rows fill."""
    return dashboard_lists.page_count(total, PAGE_ROWS)


def page_of(rows: list[dict[str, Any]], page: int) -> list[dict[str, Any]]:
    """The rows page ``page`` (from 1) shows."""
    return rows[(page - 1) * PAGE_ROWS : page * PAGE_ROWS]


def standings_table(
    event: Event, after: int | None = None, page: int = 1
) -> tuple[SafeString, int]:
    """One page of the standings page's table as HTML, and how many rows the whole
    table has: rendered once per results version and page.

    Rendering a large field's rows costs more than computing them, so the page caches
    its table too, once per language (its key carries it). It is the same for every
    viewer who reads that language: it shows the rows and nothing of who asks (the page
    around it does that). A page past the last renders nothing.
    """
    key = table_key(event, f"table:{page}" + ("" if after is None else f":after:{after}"))
    cached = cache.get(key)
    if cached is None:
        rows = standings_rows(event, after)
        in_range = page <= page_count(len(rows))
        cached = (render_standings_table(page_of(rows, page)) if in_range else "", len(rows))
        cache.set(key, cached, settings.STANDINGS_CACHE_SECONDS)
    html, total = cached
    return mark_safe(html), total  # our own template's output, escaped as it rendered


def render_standings_table(
    rows: list[dict[str, Any]], total: int | None = None, matched: int | None = None
) -> str:
    """The table for ``rows``: a page of the standings, or of the ``matched`` rows a
    search kept out of ``total``."""
    return render_to_string(
        "tournaments/_standings_table.html",
        {
            "rows": rows,
            "columns": standings_columns(rows),
            "total": total,
            "matched": len(rows) if matched is None else matched,
        },
    )


# The percentages a standings row may carry, in the order the table shows them, each
# with what a player reads in its header's tooltip and in the key under the table (each
# a whole sentence to translate; three name the 33% floor).
PERCENTAGES = {
    "omw": (
        "OMW%",
        _lazy(
            "Opponents' match-win percentage: the average of your opponents' match-win "
            "percentages, each opponent counted as at least 33.33% (the 33% floor), so an "
            "opponent who lost every match does not pull you down further."
        ),
    ),
    "gw": (
        "GW%",
        _lazy(
            "Game-win percentage: your share of the game points you could win, counted as "
            "at least 33.33% (the 33% floor)."
        ),
    ),
    "ogw": (
        "OGW%",
        _lazy(
            "Opponents' game-win percentage: the average of your opponents' GW%, each "
            "counted as at least 33.33% (the 33% floor)."
        ),
    ),
    "oomw": (
        "OOMW%",
        _lazy("Opponents' opponents' match-win percentage: the average of your opponents' OMW%."),
    ),
}


def standings_columns(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The percentage columns the rows carry: key, header and its explanation."""
    present = set(rows[0]) if rows else set()
    return [
        {"key": key, "label": label, "title": title}
        for key, (label, title) in PERCENTAGES.items()
        if key in present
    ]


def public_rows(event: Event) -> list[dict[str, Any]]:
    """The event's standings exactly as the contract shows them (no internal keys)."""
    return [public_row(row) for row in standings_rows(event)]
