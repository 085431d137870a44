"""Standings as the site serves them (the rows come from pairing.standings, their one
owner): cached once per state of the event's results.

A large event's standings cost seconds to compute, and the public pages ask for them on
every request. Every service that can move them (a result, a drop, a late entry, a bye,
a penalty's outcome, and their undoing) calls :func:`results_changed` in its own
transaction, which moves ``Event.results_version``; the standings are cached under that
version, so each state is computed once and a change shows on the next request.

The cache holds the rows only, never who may see them: callers check the event's
visibility first (``visible_event_or_404``, ``tournaments.event.roles.event_for``), and
the rows are the same for everyone who may. Keys carry the event's creation time as well
as its id, so an id used again (a database restored from an older dump) never meets
older rows. The rows are data (names, numbers, codes); a rendered table holds words too,
so its key carries the language it was rendered in (:func:`table_key`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import F, Q
from django.utils.translation import get_language

from tournaments.models import Event
from tournaments.record.history import EventHistory, public_row


def results_changed(event: Event | int) -> None:
    """The standings of ``event`` may have moved: the next request computes them again.

    Call it inside the transaction that makes the change, so the new version and the new
    rows are seen together.
    """
    event_id = event if isinstance(event, int) else event.pk
    # A flight's results are its main event's Day 1: both sets of standings move.
    Event.objects.filter(Q(pk=event_id) | Q(flights=event_id)).update(
        results_version=F("results_version") + 1
    )


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


def public_rows(event: Event) -> list[dict[str, Any]]:
    """The event's standings exactly as the contract shows them (no internal keys)."""
    return [public_row(row) for row in standings_rows(event)]
