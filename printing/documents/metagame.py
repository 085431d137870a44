"""The metagame report for the event's staff: the whole event, then each phase played.

It prints what the metagame page shows at the staff's level (``services.FULL``): shares
and conversions, how each archetype did, the matchups, each chart followed by its
table, so it reads on paper without hovering. The rows are the report dicts
themselves (JSON-ready, cached by ``metagame_site.services``), so the fingerprint
changes exactly when a printed number or name does; the charts are drawn only when
the document is rendered, never for the fingerprint.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _lazy

from metagame_site import pictures, services
from metagame_site.field import ARCHETYPE_GAMES
from printing.documents.base import Head, Rows, SinglePiece, event_head, script_lang
from printing.documents.registry import register
from tournaments.models import Event


@register
class MetagameReport(SinglePiece):
    """One section per phase (the whole event first): charts, then compact tables."""

    name = "metagame"
    title = _lazy("Metagame report")
    position = 80

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        """One row per phase printed: ``{"unit": 0, "phase", "report"}``; none for a
        game without archetypes (``head["archetypes"]`` False) or without lists yet."""
        main = event.parent or event  # a flight prints its main event's, as the page shows
        head = event_head(main, date=main.date.isoformat(), archetypes=main.game in ARCHETYPE_GAMES)
        if not head["archetypes"]:
            return head, []
        reports = services.phase_reports(main, services.FULL)  # the print page is the staff's
        if not reports[0]["rows"]:
            return head, []
        return head, [{"unit": 0, "phase": r["phase"], "report": r} for r in reports]

    def context(self, event: Event, rows: Rows, units: set[int] | None) -> dict[str, Any]:
        sections = [_section(row["report"]) for row in rows]
        min_cell = rows[0]["report"]["min_cell"] if rows else 0
        return {"sections": sections, "min_cell": min_cell}


def _section(data: dict[str, Any]) -> dict[str, Any]:
    """One phase as the page lays it out: charts (ids unique per phase), rows ranked
    and with their numbers written, and each pairing that met once."""
    phase = data["phase"]
    stages = [(stage, pictures.stage_name(stage)) for stage in data.get("stages", [])]
    return {
        "phase": phase,
        "name": pictures.phase_name(phase),
        "data": data,
        "shares_chart": pictures.share_chart(data, id_prefix=f"{phase}-share"),
        "conversions": [
            {
                "name": name,
                "svg": pictures.conversion_chart(
                    data, stage, id_prefix=f"{phase}-conversion-{stage}"
                ),
            }
            for stage, name in stages
        ],
        "matrix_chart": pictures.matrix_chart(data, id_prefix=f"{phase}-matrix"),
        "stages": [name for _stage, name in stages],
        "rows": [_row(row, [s for s, _name in stages]) for row in pictures.ranked(data["rows"])],
        "pairings": _pairings(data),
    }


def _row(row: dict[str, Any], stages: list[str]) -> dict[str, Any]:
    """An archetype's line in the shares and results tables, numbers as printed."""
    matches, games = row["matches"], row["games"]
    return {
        "name": row["name"],
        "lang": script_lang(row["name"]),
        "players": row["players"],
        "share": pictures.percent(row["share"]["value"]),
        "share_interval": pictures.interval(row["share"]),
        "stages": [_stage(row["stages"][stage]) for stage in stages],
        "record": _wld(matches),
        "rate": pictures.percent(matches["rate"]["value"]),
        "interval": pictures.interval(matches["rate"]),
        "games": _wld(games),
        "game_rate": pictures.percent(games["rate"]["value"]),
        "mirrors": row["mirrors"],
        "rank": row["rank"],
        "small": matches["small"],
    }


def _stage(stage: dict[str, Any]) -> dict[str, Any]:
    conversion = stage["conversion"]
    return {
        "reached": stage["reached"],
        "conversion": pictures.percent(conversion["value"]),
        "interval": pictures.interval(conversion),
    }


def _pairings(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every pair of archetypes that met, once, read from the side listed first (the
    more played): the other side is the same record turned round."""
    names = {row["key"]: row["name"] for row in data["rows"]}
    order = {key: n for n, key in enumerate(names)}
    pairings = []
    for cell in data["matrix"]:
        record = cell["record"]
        if not record["n"] or order[cell["key"]] > order[cell["opponent"]]:
            continue
        pairings.append(
            {
                "name": names[cell["key"]],
                "lang": script_lang(names[cell["key"]]),
                "opponent": names[cell["opponent"]],
                "opponent_lang": script_lang(names[cell["opponent"]]),
                "record": _wld(record),
                "rate": pictures.percent(record["rate"]["value"]),
                "interval": pictures.interval(record["rate"]),
                "n": record["n"],
                "small": record["small"],
            }
        )
    return pairings


def _wld(record: dict[str, Any]) -> str:
    """Wins, losses and draws as "5-3-1" with en dashes, as the web page writes them."""
    return f"{record['wins']}\u2013{record['losses']}\u2013{record['draws']}"
