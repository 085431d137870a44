"""Match slips: four a sheet, one per table, with a QR code to report the result.

Slips are drawn in two layers: the frame that every slip of a round shares is rendered
once per worker and stamped under each sheet (``render.stamp``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import segno
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy as _lazy

from printing.documents.base import (
    PAPER_MM,
    DocumentKind,
    Head,
    Rows,
    event_head,
    person,
    round_label,
    round_matches,
)
from printing.documents.registry import register
from printing.render import render_pdf, stamp
from tournaments.event.local_time import stamped
from tournaments.models import Event, MatchFormat
from tournaments.record.match_games import BEST_OF

SLIPS_PER_PAGE = 4
MARGIN_MM = 8.0
QR_MASK = 2


def match_url(event_id: int, match_id: int) -> str:
    """The absolute address of a match's result page (what the slip's QR code holds)."""
    return settings.SITE_URL + reverse("tournaments:match", args=[event_id, match_id])


def qr_png(data: str) -> str:
    """A QR code as a PNG data URI, one pixel per module (printed with crisp edges).

    A fixed mask pattern: choosing the best of eight costs 5 ms a code (5 s for 1,000
    slips) and any mask is a valid code; a PNG lays out and draws faster than an SVG.
    """
    code = segno.make(data, error="m", micro=False, mask=QR_MASK)
    return code.png_data_uri(scale=1, border=2)


def slip_height_mm(paper: str) -> float:
    """A quarter of the printable height: four slips fill a sheet exactly."""
    _width, height = PAPER_MM.get(paper, PAPER_MM["A4"])
    return math.floor((height - 2 * MARGIN_MM) / SLIPS_PER_PAGE * 100) / 100


def games_of(event: Event) -> int:
    """Games a slip has boxes for (an unknown format prints as best of three)."""
    return BEST_OF.get(event.match_format, 3)


@register
class MatchSlips(DocumentKind):
    """One slip per table (byes get none), in table order."""

    name = "match_slips"
    title = _lazy("Match slips")
    per_round = True
    position = 10
    units_per_page = SLIPS_PER_PAGE
    pages_per_chunk = 10

    def plan(self, event: Event, round_number: int | None) -> list[int]:
        matches = round_matches(event, round_number).filter(is_bye=False)
        return list(matches.order_by("table", "pk").values_list("pk", flat=True))

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        matches = round_matches(event, round_number).filter(is_bye=False)
        if units is not None:
            matches = matches.filter(pk__in=units)
        matches = matches.select_related("round", "player_a__user", "player_b__user")
        rows: Rows = []
        round_kind = paired_at = None
        for match in matches.order_by("table", "pk"):
            round_kind, paired_at = match.round.kind, match.round.paired_at
            rows.append(
                {
                    "unit": match.pk,
                    "table": match.table,
                    "a": person(match.player_a),
                    "b": person(match.player_b),
                    "extension": match.extension_minutes,
                }
            )
        head = event_head(
            event,
            round=round_label(round_number or 0, round_kind),
            format=event.match_format if event.match_format in BEST_OF else MatchFormat.BO3,
            format_label=event.get_match_format_display(),
            games=games_of(event),
            minutes=event.round_minutes,
            paired=stamped(paired_at, event),
            site=settings.SITE_URL,
        )
        return head, rows

    def context(self, event: Event, rows: Rows, units: set[int] | None) -> dict[str, Any]:
        for row in rows:
            row["qr"] = qr_png(match_url(event.pk, row["unit"]))
        return {
            "sheets": [rows[i : i + SLIPS_PER_PAGE] for i in range(0, len(rows), SLIPS_PER_PAGE)],
            "slip_height": f"{slip_height_mm(event.print_paper)}mm",
            "games": list(range(1, games_of(event) + 1)),
        }

    def render(self, event: Event, round_number: int | None, units: list[int]) -> bytes:
        """The names layer, stamped over the frame its sheet shares with the others."""
        html, context = self.document(event, round_number, units)
        pdf = render_pdf(html)
        if not context["sheets"]:
            return pdf
        return stamp(pdf, self.frames(context))

    def frames(self, context: dict[str, Any]) -> list[bytes]:
        """Each sheet's frame: that of k slips (a last sheet may hold fewer than four)."""
        frame_of = {
            count: _frame_pdf(
                render_to_string("print/match_slip_frame.html", {**context, "slots": range(count)})
            )
            for count in {len(sheet) for sheet in context["sheets"]}
        }
        return [frame_of[len(sheet)] for sheet in context["sheets"]]


@lru_cache(maxsize=16)
def _frame_pdf(html: str) -> bytes:
    """A sheet's slip frame, rendered once per worker and round (keyed by its exact HTML)."""
    return render_pdf(html)
