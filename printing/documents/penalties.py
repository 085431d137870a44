"""The penalty report: every penalty of the event, voided ones included, on landscape."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _lazy

from judging.models import Penalty
from judging.reports import consequence_text, infraction_label
from printing.documents.base import Head, Rows, SinglePiece, event_head, local_time, script_lang
from printing.documents.registry import register
from tournaments.models import Event


@register
class PenaltyReport(SinglePiece):
    """One row per penalty in the order issued: wide, so it prints on landscape."""

    name = "penalty_report"
    title = _lazy("Penalty report")
    position = 70
    landscape = True

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        penalties = event.penalties.select_related("round", "match", "player__user", "judge")
        rows = [_penalty_row(p) for p in penalties.order_by("issued_at", "pk")]
        return event_head(event, date=event.date.isoformat()), rows


def _penalty_row(p: Penalty) -> dict[str, Any]:
    name = p.player.display_name
    return {
        "unit": p.pk,
        "time": local_time(p.issued_at),
        "round": p.round.number if p.round_id else "",
        "table": (p.match.table or "") if p.match_id else "",
        "game": p.game,
        "player": name,
        "lang": script_lang(name),
        "infraction": infraction_label(p.infraction),
        "rule": p.rule,
        "consequences": "; ".join(consequence_text(c) for c in p.consequences),
        "judge": p.judge.get_username() if p.judge_id else "",
        "notes": p.notes,
        "voided": local_time(p.voided_at),
        "void_reason": p.void_reason,
    }
