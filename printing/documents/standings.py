"""The standings: rank, player, points, record and the event's tiebreakers."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from printing.documents.base import DASH, Head, PagedList, Rows, event_head, script_lang
from printing.documents.registry import register
from tournaments.models import Event, Match, Registration, Round
from tournaments.record.match_games import MatchGames
from tournaments.record.standings import standings_rows

BREAKER_LABELS = {"omw": "OMW%", "gw": "GW%", "ogw": "OGW%", "oomw": "OOMW%"}


@register
class Standings(PagedList):
    """After a round (or the last Swiss round): every player, ranked."""

    name = "standings"
    title = _lazy("Standings")
    position = 40
    units_per_page = 40
    pages_per_chunk = 5

    def plan(self, event: Event, round_number: int | None) -> list[int]:
        return [row["registration"] for row in standings_rows(event, round_number)]

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        rows = standings_rows(event, round_number)
        through = (
            round_number
            or event.rounds.filter(kind=Round.Kind.SWISS).aggregate(last=Max("number"))["last"]
        )
        shown = [key for key in BREAKER_LABELS if rows and key in rows[0]]
        numbers = _numbers(event)
        printed: Rows = [_printed_row(row, shown, numbers) for row in rows]
        head = event_head(
            event,
            round=(
                _("After round %(round)s") % {"round": through} if through else _("No rounds yet")
            ),
            figures=_figures(
                _("No."), _("Points"), _("Record"), [BREAKER_LABELS[key] for key in shown]
            ),
            gate=bool(event.gate_applied_at),
        )
        return head, printed

    def printed(self, event: Event, round_number: int | None) -> dict[str, Any]:
        """What the standings are computed from, in two queries (cheaper than computing
        them): the same inputs always print the same standings."""
        return _standings_source(event, round_number)

    def page_range(self, rows: Rows) -> str:
        return _("Ranks %(first)s%(dash)s%(last)s") % {
            "first": rows[0]["rank"],
            "dash": DASH,
            "last": rows[-1]["rank"],
        }


def _printed_row(row: dict[str, Any], shown: list[str], numbers: dict[int, str]) -> dict[str, Any]:
    """One printed line; the player is shown by their short number (#23), not their id."""
    number = numbers.get(row["registration"])
    return {
        "unit": row["registration"],
        "rank": row["rank"],
        "name": row["name"],
        "lang": script_lang(row["name"]),
        "figures": _figures(
            number or "",
            row["match_points"],
            row["record"],
            [f"{100 * row[key]:.2f}%" for key in shown],  # 0.4444 prints as 44.44%
        ),
        "dropped": row.get("dropped", False),
        "disqualified": row.get("disqualified", False),
        "day1": row.get("day2") is False,
    }


def _numbers(event: Event) -> dict[int, str]:
    """Each entry's printed number: "#23"; a main event's Day 1 players, who are numbered
    in their flight, as "A #23"."""
    entries = Registration.objects.filter(Q(event=event) | Q(event__parent=event))
    return {
        pk: f"{flight} #{number}" if owner != event.pk else f"#{number}"
        for pk, number, owner, flight in entries.values_list(
            "pk", "number", "event_id", "event__flight_name"
        )
        if number is not None
    }


def _figures(number: Any, points: Any, record: Any, breakers: list[str]) -> str:
    """A standings row's player number and figures as one fixed-width line (monospace):
    one text block instead of six lays out several times faster, and columns align (a
    translated heading in wide script, "勝ち点", counts two columns a character)."""
    return f"{_left(str(number)[:11], 11)} {_right(str(points), 6)} {_right(str(record), 8)}" + (
        "".join(f" {_right(str(value), 7)}" for value in breakers)
    )


def _columns(text: str) -> int:
    """The width of ``text`` in a monospace line: wide (CJK) characters take two columns."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _left(text: str, width: int) -> str:
    return text + " " * max(0, width - _columns(text))


def _right(text: str, width: int) -> str:
    return " " * max(0, width - _columns(text)) + text


def _standings_source(event: Event, round_number: int | None) -> dict[str, Any]:
    # A main event's standings are its flights' too: their entries and results print in it.
    registrations = (
        Registration.objects.filter(Q(event=event) | Q(event__parent=event))
        .exclude(status=Registration.Status.WAITLISTED)
        .select_related("user")
        .order_by("registered_at", "pk")
    )
    players = [
        [r.pk, r.display_name, r.public_id, r.number, r.status, r.disqualified, r.joined_round]
        for r in registrations
    ]
    matches = Match.objects.filter(
        Q(round__event=event) | Q(round__event__parent=event), round__kind=Round.Kind.SWISS
    )
    if round_number is not None:
        matches = matches.filter(round__number__lte=round_number)
    played = []
    for match in matches.select_related("round").order_by("round__number", "table", "pk"):
        result = MatchGames.of(match).stored() if match.has_result else None
        played.append([match.round.number, match.player_a_id, match.player_b_id, result])
    head = event_head(
        event,
        gate=str(event.gate_applied_at or ""),
        points=[event.points_win, event.points_draw, event.points_loss],
        tiebreakers=event.tiebreakers,
        through=round_number or max((m[0] for m in played), default=None),
    )
    return {"head": head, "players": players, "matches": played}
