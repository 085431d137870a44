"""Decklists: the blank registration form, and every registered list (one a page)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from decks.models import Decklist
from printing.documents.base import (
    DASH,
    DocumentKind,
    Head,
    Rows,
    SinglePiece,
    event_head,
    local_time,
    person,
)
from printing.documents.registry import register
from tournaments.models import Event, Registration

BLANK_MAIN_LINES = 60
BLANK_SIDEBOARD_LINES = 15
DECK_COLUMN_LINES = 40


@register
class BlankDecklist(SinglePiece):
    """The paper form players fill in when they register their deck at the venue."""

    name = "decklist_blank"
    title = _lazy("Decklist registration form (blank)")
    position = 50

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        head = event_head(
            event, game=event.get_game_display(), date=event.date.isoformat(), venue=event.venue
        )
        return head, [{"unit": 0}]

    def context(self, event: Event, rows: Rows, units: set[int] | None) -> dict[str, Any]:
        """60 main-deck lines in two columns and 15 sideboard lines, like paper decklists."""
        lines = range(BLANK_MAIN_LINES // 2)
        return {
            "main_columns": [
                {"label": f"1{DASH}{len(lines)}", "lines": lines},
                {"label": f"{len(lines) + 1}{DASH}{BLANK_MAIN_LINES}", "lines": lines},
            ],
            "sideboard_lines": range(BLANK_SIDEBOARD_LINES),
        }


@register
class Decklists(DocumentKind):
    """Every submitted list of the event, by player name, one a page."""

    name = "decklists"
    title = _lazy("Registered decklists")
    position = 60
    pages_per_chunk = 25

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        lists = Decklist.objects.filter(
            registration__event=event, status=Decklist.Status.SUBMITTED
        ).exclude(registration__status=Registration.Status.WAITLISTED)
        if units is not None:
            lists = lists.filter(registration_id__in=units)
        rows = [_deck_row(deck) for deck in lists.select_related("registration__user")]
        rows.sort(key=lambda row: (row["name"].casefold(), row["unit"]))
        head = event_head(event, game=event.get_game_display(), date=event.date.isoformat())
        return head, rows

    def context(self, event: Event, rows: Rows, units: set[int] | None) -> dict[str, Any]:
        return {"rows": [{**row, "columns": _deck_columns(row)} for row in rows]}


def _deck_row(deck: Decklist) -> dict[str, Any]:
    main = [{"name": e["name"], "count": e["count"]} for e in deck.main]
    sideboard = [{"name": e["name"], "count": e["count"]} for e in deck.sideboard]
    return {
        "unit": deck.registration_id,
        **person(deck.registration),
        "main": main,
        "sideboard": sideboard,
        "main_count": sum(e["count"] for e in main),
        "sideboard_count": sum(e["count"] for e in sideboard),
        "submitted": local_time(deck.submitted_at),
    }


def _deck_columns(row: dict[str, Any]) -> Rows:
    """Main deck in columns of ``DECK_COLUMN_LINES`` entries, then the sideboard."""
    main = row["main"]
    columns: Rows = []
    for start in range(0, max(len(main), 1), DECK_COLUMN_LINES):
        columns.append(
            {
                "label": _("Main deck") if start == 0 else _("Main deck (continued)"),
                "entries": main[start : start + DECK_COLUMN_LINES],
                "total": None,
                "total_label": _("cards in the main deck"),
            }
        )
    columns[-1]["total"] = row["main_count"]
    if len(columns) < 2:
        columns.append({"label": "", "entries": [], "total": None})
    columns.append(
        {
            "label": _("Sideboard"),
            "entries": row["sideboard"],
            "total": row["sideboard_count"],
            "total_label": _("cards in the sideboard"),
        }
    )
    return columns
