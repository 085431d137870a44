"""The organiser dashboard's long lists, a page at a time: the round's tables and the players.

At 2,000 players the dashboard rendered every table and every registration on every
request (2.6 MB, over half a second). The dashboard shows what needs the organiser now;
these lists come a page at a time (htmx fetches the next page or a search in place), and
only the rows of that page are read from the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.db.models import Q, QuerySet

from tournaments.models import Event, Match, Registration, Round, with_result_versions
from web.errors import ServiceError
from web.inputs import whole_number

TABLES_PER_PAGE = 50
PLAYERS_PER_PAGE = 50
MAX_QUERY = 200
PAGE_RULE = "A page number is a whole number from 1 up."


@dataclass
class ListPage:
    """One page of a list: its rows, where it is in the list, and the search that made it."""

    items: list[Any]
    number: int
    pages: int
    total: int
    per_page: int
    query: str = ""
    filters: dict[str, str] = field(default_factory=dict)
    prefix: str = ""  # of its parameters: ``tq``, ``tpage`` for the tables

    def params(self, number: int | None = None) -> str:
        """Its search and filters (and page ``number``, past 1) as a query string."""
        pairs = {f"{self.prefix}q": self.query, **self.filters}
        if number and number > 1:
            pairs[f"{self.prefix}page"] = str(number)
        return urlencode({k: v for k, v in pairs.items() if v})

    @property
    def here(self) -> str:
        """This page's parameters, ``&``-joined to a URL that has some already."""
        params = self.params(self.number)
        return f"&{params}" if params else ""

    @property
    def previous_params(self) -> str:
        return self.params(self.previous)

    @property
    def next_params(self) -> str:
        return self.params(self.next)

    @property
    def last_params(self) -> str:
        return self.params(self.pages)

    @property
    def first_row(self) -> int:
        return (self.number - 1) * self.per_page + 1 if self.items else 0

    @property
    def last_row(self) -> int:
        return (self.number - 1) * self.per_page + len(self.items)

    @property
    def past_the_end(self) -> bool:
        return self.number > self.pages

    @property
    def previous(self) -> int | None:
        return min(self.number - 1, self.pages) if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None


def page_count(total: int, per_page: int) -> int:
    """How many pages ``total`` rows fill (an empty list is one page)."""
    return max(1, -(-total // per_page))


def page_number(raw: str | None) -> int:
    """The page asked for (1 when none is); a bad one is refused with a clear message."""
    if raw is None or raw == "":
        return 1
    number = whole_number(raw)
    if number is None or number < 1:
        raise ServiceError(PAGE_RULE, field="page")
    return number


def search_text(raw: str | None) -> str:
    """What was typed in a list's search box, trimmed to a sensible length."""
    return (raw or "").strip()[:MAX_QUERY]


def _paged(
    rows: QuerySet, number: int, per_page: int, prefix: str, query: str, **filters: str
) -> ListPage:
    total = rows.count()
    pages = page_count(total, per_page)
    start = (number - 1) * per_page
    items = list(rows[start : start + per_page]) if number <= pages else []
    kept = {k: v for k, v in filters.items() if v}
    return ListPage(items, number, pages, total, per_page, query, kept, prefix)


def _name_matches(prefix: str, query: str) -> Q:
    """A registration (through ``prefix``) whose name or account holds ``query``."""
    return (
        Q(**{f"{prefix}name__icontains": query})
        | Q(**{f"{prefix}user__username__icontains": query})
        | Q(**{f"{prefix}user__first_name__icontains": query})
        | Q(**{f"{prefix}user__last_name__icontains": query})
    )


def _number_in(query: str) -> int | None:
    """ "12" or "#12": a table or player number; anything else is a name."""
    return whole_number(query.removeprefix("#").strip())


def round_tables(round_: Round, query: str = "", number: int = 1, only_open: bool = False):
    """The round's tables in table order (byes last), by page; ``query`` is a table
    number or part of a player's name; ``only_open``: the tables without a result."""
    matches = with_result_versions(
        round_.matches.select_related("player_a__user", "player_b__user").order_by(
            "is_bye", "table"
        )
    )
    if only_open:
        matches = matches.filter(without_result())
    if query:
        table = _number_in(query)
        by_name = _name_matches("player_a__", query) | _name_matches("player_b__", query)
        matches = matches.filter(by_name | Q(table=table) if table is not None else by_name)
    return _paged(matches, number, TABLES_PER_PAGE, "t", query, show="open" if only_open else "")


def registrations(event: Event, query: str = "", number: int = 1) -> ListPage:
    """The event's registrations (registered first, then by arrival), by page; ``query``
    is part of a name or a player number."""
    rows = event.registrations.select_related("user").order_by("status", "registered_at", "pk")
    if query:
        player = _number_in(query)
        by_name = _name_matches("", query)
        rows = rows.filter(by_name | Q(number=player) if player is not None else by_name)
    return _paged(rows, number, PLAYERS_PER_PAGE, "p", query)


def without_result() -> Q:
    """A match still waiting for a confirmed or entered result (``Match.has_result``'s opposite)."""
    return Q(is_bye=False) & ~Q(status__in=[Match.Status.CONFIRMED, Match.Status.FINAL])


OPEN_TABLES_LISTED = 30
RECENT_DROPS = 10


def round_summary(round_: Round | None) -> dict[str, Any]:
    """What needs the organiser in the round now: the tables without a result (their
    count, and their numbers while few) and the disputed tables."""
    if round_ is None:
        return {"missing": 0, "open_tables": [], "disputed": []}
    open_matches = round_.matches.filter(without_result()).order_by("table")
    missing = open_matches.count()
    listed = list(open_matches.values_list("table", flat=True)[:OPEN_TABLES_LISTED])
    disputed = list(round_.matches.filter(status=Match.Status.DISPUTED).order_by("table"))
    return {"missing": missing, "open_tables": listed, "disputed": disputed}


def player_counts(event: Event) -> dict[str, Any]:
    """The players' heading: how many are registered and checked in, and the latest drops."""
    registered = event.registrations.filter(status=Registration.Status.REGISTERED)
    drops = event.registrations.filter(status=Registration.Status.DROPPED).select_related("user")
    return {
        "registered_count": registered.count(),
        "checked_in": event.registrations.filter(checked_in=True).count(),
        "any_registrations": event.registrations.exists(),
        "recent_drops": list(drops.order_by("-dropped_after_round", "-pk")[:RECENT_DROPS]),
    }
