"""The standings table as HTML: a page of rows, rendered once per results version,
page and language, with the percentage columns and what each means.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _lazy

from tournaments.models import Event
from tournaments.pages import dashboard_lists
from tournaments.record.standings import standings_rows, table_key

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
