"""The public pairings by name: a line for each seated player, read as plain values.

What players look for on the wall, and at a large event the longest page the site
serves: 20,000 players are 18,780 lines. Built from model instances and written by the
template engine it took 1.7 s (issue 18); here one query reads the names and tables,
and the lines are written as HTML in one pass, each value escaped (the one word they
hold, "bye", translated once per page).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.models import Registration, Round, name_columns
from tournaments.record.player_names import event_shared_names, labelled


@dataclass(frozen=True)
class PairingLine:
    """One player's line: their name as pages print it, the table, the opponent."""

    label: str
    name: str  # the display name, which the search looks in
    table: int | None
    opponent: str  # "" for a bye
    is_bye: bool


def pairing_lines(round_: Round, query: str = "") -> list[PairingLine]:
    """Both players of every match of ``round_``, by name, those whose name contains
    ``query`` (any case) when one is given."""
    fields = name_columns("player_a") + name_columns("player_b")
    rows = round_.matches.values("table", "is_bye", "player_b_id", *fields)
    shared = event_shared_names(round_.event)
    lines = []
    for row in rows:
        a, b = _side(row, "player_a", shared), None
        if row["player_b_id"] and not row["is_bye"]:
            b = _side(row, "player_b", shared)
        table = None if row["is_bye"] else row["table"]
        lines.append(PairingLine(a[0], a[1], table, b[0] if b else "", row["is_bye"]))
        if b:
            lines.append(PairingLine(b[0], b[1], table, a[0], False))
    lines.sort(key=lambda line: line.label.casefold())
    if query:
        needle = query.casefold()
        lines = [line for line in lines if needle in line.name.casefold()]
    return lines


def _side(row: dict[str, Any], side: str, shared: set[str]) -> tuple[str, str]:
    """(label, display name) of one side's player."""
    shown = Registration.name_in(row, side)
    return labelled(shown, row[f"{side}__number"], shared), shown


def lines_html(lines: list[PairingLine]) -> SafeString:
    """The table rows for ``lines``, as ``_pairings_rows.html`` shows them."""
    bye = f"<em>{escape(_('bye'))}</em>"
    return mark_safe("".join(_line_html(line, bye) for line in lines))


def _line_html(line: PairingLine, bye: str) -> str:
    """One line; ``bye``: the opponent's cell of a bye, as HTML."""
    if line.is_bye:
        table, opponent = "—", bye
    else:
        table, opponent = str(line.table), escape(line.opponent)
    return f'<tr><td>{escape(line.label)}</td><td class="num">{table}</td><td>{opponent}</td></tr>'
