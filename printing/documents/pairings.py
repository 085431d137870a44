"""A round's pairings for the wall: by player name (find yourself) and by table."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from printing.documents.base import (
    DASH,
    Head,
    PagedList,
    Rows,
    event_head,
    person,
    round_label,
    round_matches,
    short,
)
from printing.documents.registry import register
from tournaments.models import Event


@register
class PairingsByName(PagedList):
    """One row per player of the round, by name: table and opponent (or the bye)."""

    name = "pairings_by_name"
    title = _lazy("Pairings by name")
    per_round = True
    position = 20
    units_per_page = 28
    pages_per_chunk = 8

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        matches = round_matches(event, round_number).select_related(
            "round", "player_a__user", "player_b__user"
        )
        rows: Rows = []
        round_kind = None
        for match in matches:
            round_kind = match.round.kind
            a = person(match.player_a)
            b = person(match.player_b) if match.player_b_id else None
            rows.append({"unit": match.player_a_id, **a, "table": match.table, "opponent": b})
            if b is not None:
                rows.append({"unit": match.player_b_id, **b, "table": match.table, "opponent": a})
        rows.sort(key=lambda row: (row["name"].casefold(), row["unit"]))
        head = event_head(event, round=round_label(round_number or 0, round_kind))
        return head, rows

    def page_range(self, rows: Rows) -> str:
        return f"{short(rows[0]['name'])} {DASH} {short(rows[-1]['name'])}"


@register
class PairingsByTable(PagedList):
    """One row per match, by table; byes have no table and close the list."""

    name = "pairings_by_table"
    title = _lazy("Pairings by table")
    per_round = True
    position = 30
    units_per_page = 28
    pages_per_chunk = 8

    def plan(self, event: Event, round_number: int | None) -> list[int]:
        matches = round_matches(event, round_number).order_by("is_bye", "table", "pk")
        return list(matches.values_list("pk", flat=True))

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        matches = round_matches(event, round_number).select_related(
            "round", "player_a__user", "player_b__user"
        )
        rows: Rows = []
        round_kind = None
        for match in matches.order_by("is_bye", "table", "pk"):
            round_kind = match.round.kind
            rows.append(
                {
                    "unit": match.pk,
                    "table": None if match.is_bye else match.table,
                    "a": person(match.player_a),
                    "b": person(match.player_b) if match.player_b_id else None,
                }
            )
        head = event_head(event, round=round_label(round_number or 0, round_kind))
        return head, rows

    def page_range(self, rows: Rows) -> str:
        tables = [row["table"] for row in rows if row["table"] is not None]
        if not tables:
            return _("Byes")
        return _("Tables %(first)s%(dash)s%(last)s") % {
            "first": min(tables),
            "dash": DASH,
            "last": max(tables),
        }
