"""A series' standings from its events' final placings (``tournaments.record.placings``).

Only finished events count: a running one is listed as "in progress" and adds nothing
yet, so a number on the series page never moves until an event's results are final. A
draft event is its organisers' alone and counts for nobody. A player is their account
across events; an entry without one (a walk-in, an import) is a player of its own until
the account's holder accepts it, or site staff link it (``tournaments.event.entry_offers``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from pairing.series import Finish, SeriesRow, series_standings
from series.models import Series
from tournaments.models import Event, Registration
from tournaments.record.placings import event_placings


def player_key(user_id: int | None, registration_id: int) -> str:
    """A player's identity in every series: ``u<account>``, or ``w<entry>`` for a walk-in."""
    return f"u{user_id}" if user_id else f"w{registration_id}"


@dataclass(frozen=True)
class SeriesTable:
    series: Series
    counted: list[Event]  # finished events, oldest first: the standings' columns
    in_progress: list[Event]
    rows: list[SeriesRow]

    def row_of(self, player: str) -> SeriesRow | None:
        return next((row for row in self.rows if row.player == player), None)


def series_events(series: Series) -> list[Event]:
    """The series' events that anyone may see (no drafts), oldest first."""
    return list(
        series.events.exclude(status=Event.Status.DRAFT).order_by("date", "created_at", "pk")
    )


def _wins(record: str) -> int:
    try:
        return int(record.split("-")[0])
    except (ValueError, IndexError, AttributeError):
        return 0


def _played(record: str) -> bool:
    try:
        return sum(int(part) for part in record.split("-")) > 0
    except (ValueError, AttributeError):
        return False


def event_finishes(event: Event) -> list[Finish]:
    """Every player's final place in ``event``, keyed by their identity across events."""
    rows = event_placings(event).rows
    entries = {
        row["pk"]: row
        # A main event's placings hold its flights' Day 1 players too.
        for row in Registration.objects.filter(Q(event=event) | Q(event__parent=event)).values(
            "pk", "user_id", *Registration.NAME_FIELDS
        )
    }
    finishes = []
    for row in rows:
        entry = entries.get(row["registration"])
        if entry is None or not _played(row.get("record", "")):
            continue
        finishes.append(
            Finish(
                event=event.pk,
                player=player_key(entry["user_id"], entry["pk"]),
                name=Registration.name_shown(
                    entry["name"],
                    entry["user__first_name"],
                    entry["user__last_name"],
                    entry["user__username"],
                    entry["number"],
                ),
                place=row["place"],
                match_points=row.get("match_points", 0),
                match_wins=_wins(row.get("record", "")),
                omw=float(row.get("omw") or 0.0),
                disqualified=bool(row.get("disqualified")),
            )
        )
    return finishes


def series_table(series: Series) -> SeriesTable:
    events = series_events(series)
    counted = [e for e in events if e.status == Event.Status.FINISHED]
    in_progress = [e for e in events if e.status != Event.Status.FINISHED]
    finishes = [finish for event in counted for finish in event_finishes(event)]
    rows = series_standings(finishes, series.rule, [e.pk for e in counted])
    return SeriesTable(series, counted, in_progress, rows)
