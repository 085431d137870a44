"""The metagame report as CSV, from the report's dict alone (``services.report``), so an
event's download and, later, a series' write the same file.

The file holds two tables one after the other, each starting with its own header row
(its first cell ``section``): the archetypes (``section`` ``archetype``), then the
matchup matrix (``section`` ``matchup``). Headers are English and fixed, for programs;
rates and shares are decimals with four places, empty when there is nothing to divide
(n = 0); ``small`` is ``true`` below the report's ``min_cell``. A report read with the
shares alone (``access`` ``shares``) has only the share columns and no matrix. Every
cell is written so spreadsheets show it as text, never run it (``=cmd`` stays a name).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from web.spreadsheet import spreadsheet_cell

SHARE_COLUMNS = ["section", "key", "name", "players", "share", "share_low", "share_high"]
STAGE_COLUMNS = ["reached", "conversion", "conversion_low", "conversion_high"]
RECORD_COLUMNS = {
    "matches": [
        "match_wins",
        "match_losses",
        "match_draws",
        "matches",
        "match_win_rate",
        "match_win_rate_low",
        "match_win_rate_high",
        "matches_small",
    ],
    "games": [
        "game_wins",
        "game_losses",
        "game_draws",
        "games",
        "game_win_rate",
        "game_win_rate_low",
        "game_win_rate_high",
        "games_small",
    ],
}
MATRIX_COLUMNS = [
    "section",
    "key",
    "opponent",
    "wins",
    "losses",
    "draws",
    "n",
    "win_rate",
    "low",
    "high",
    "small",
]


def rate(value: float | None) -> str:
    """A share or rate as the file writes it: four decimals, empty for none."""
    return "" if value is None else f"{value:.4f}"


def flag(value: bool) -> str:
    return "true" if value else "false"


def _proportion(proportion: dict[str, Any]) -> list[str]:
    return [rate(proportion["value"]), rate(proportion["low"]), rate(proportion["high"])]


def _record(record: dict[str, Any]) -> list[Any]:
    counts = [record["wins"], record["losses"], record["draws"], record["n"]]
    return [*counts, *_proportion(record["rate"]), flag(record["small"])]


def is_full(data: dict[str, Any]) -> bool:
    """Whether the report holds how archetypes did (not only their shares)."""
    return data.get("access") == "full"


def archetype_header(data: dict[str, Any]) -> list[str]:
    if not is_full(data):
        return list(SHARE_COLUMNS)
    stages = [f"{stage}_{column}" for stage in data["stages"] for column in STAGE_COLUMNS]
    return [
        *SHARE_COLUMNS,
        *stages,
        *RECORD_COLUMNS["matches"],
        *RECORD_COLUMNS["games"],
        "mirrors",
    ]


def archetype_line(row: dict[str, Any], data: dict[str, Any]) -> list[Any]:
    line = ["archetype", row["key"], row["name"], row["players"], *_proportion(row["share"])]
    if not is_full(data):
        return line
    for stage in data["stages"]:
        reached = row["stages"][stage]
        line += [reached["reached"], *_proportion(reached["conversion"])]
    return [*line, *_record(row["matches"]), *_record(row["games"]), row["mirrors"]]


def matchup_line(cell: dict[str, Any]) -> list[Any]:
    return ["matchup", cell["key"], cell["opponent"], *_record(cell["record"])]


def report_lines(data: dict[str, Any]) -> Iterable[list[Any]]:
    """The file's lines, headers included, as lists of cells."""
    yield archetype_header(data)
    for row in data["rows"]:
        yield archetype_line(row, data)
    if is_full(data):
        yield list(MATRIX_COLUMNS)
        for cell in data["matrix"]:
            yield matchup_line(cell)


def report_csv(data: dict[str, Any]) -> str:
    """The report (``services.report``'s dict, at any access but nothing) as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out)
    for line in report_lines(data):
        writer.writerow([spreadsheet_cell(value) for value in line])
    return out.getvalue()
