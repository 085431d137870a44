"""The report drawn: the share chart, a conversion chart per stage and the matchup
heat-map (``metagame.charts``, SVG drawn on the server), with every label and hover
text in the reader's language. Cached with the report they are drawn from."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from metagame import charts
from metagame.report import OTHER
from metagame_site import services


def stage_name(stage: str) -> str:
    """A stage's name in the reader's language."""
    names = {"day2": _("Day 2"), "top_cut": _("Top cut")}
    return names.get(stage, stage)


def phase_name(phase: str) -> str:
    """A phase's name in the reader's language."""
    names = {
        services.ALL: _("Whole event"),
        "swiss": _("Swiss"),
        "day1": _("Day 1"),
        "day2": _("Day 2"),
        "top_cut": _("Top cut"),
    }
    return names.get(phase, phase)


def percent(value: float | None) -> str:
    """ "34.5%", or an en dash for no value."""
    if value is None:
        return "\u2013"
    return f"{value * 100:.1f}%"


def interval(proportion: dict[str, Any]) -> str:
    """The 95% Wilson interval of a proportion, as "4.7-44.8%" (with an en dash)."""
    if proportion["value"] is None:
        return "\u2013"
    return f"{proportion['low'] * 100:.1f}\u2013{proportion['high'] * 100:.1f}%"


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with its rank by match win rate (``rank`` None when not ranked): small
    samples and Other are not ranked, so the page and the printout rank alike."""
    rankable = [
        row
        for row in rows
        if "matches" in row and not row["matches"]["small"] and row["key"] != OTHER
    ]
    order = sorted(rankable, key=lambda row: -row["matches"]["rate"]["value"])
    rank = {row["key"]: n for n, row in enumerate(order, start=1)}
    return [{**row, "rank": rank.get(row["key"])} for row in rows]


def drawn(data: dict[str, Any], key: str) -> dict[str, Any]:
    """The report's pictures (SVG strings; "" when there is nothing to draw), cached
    under the report's own key."""
    cached = cache.get(f"{key}:svg")
    if cached is not None:
        return cached
    pictures = {
        "shares": share_chart(data),
        "conversion": [
            {"stage": stage, "name": stage_name(stage), "svg": conversion_chart(data, stage)}
            for stage in data.get("stages", [])
        ],
        "matrix": matrix_chart(data),
    }
    cache.set(f"{key}:svg", pictures, services.CACHE_SECONDS)
    return pictures


def share_chart(data: dict[str, Any], id_prefix: str = "share") -> str:
    """The share of each archetype; ``id_prefix`` starts every id (unique per page)."""
    bars = [
        charts.Bar(
            label=row["name"],
            value=row["share"]["value"],
            low=row["share"]["low"],
            high=row["share"]["high"],
            tooltip=_("%(name)s: %(k)d of %(n)d players, %(share)s (95%% interval %(interval)s)")
            % {
                "name": row["name"],
                "k": row["share"]["k"],
                "n": row["share"]["n"],
                "share": percent(row["share"]["value"]),
                "interval": interval(row["share"]),
            },
        )
        for row in data["rows"]
    ]
    return charts.bar_chart(
        bars, title=_("Share of the players"), axis=_("Share of players"), id_prefix=id_prefix
    )


def conversion_chart(data: dict[str, Any], stage: str, id_prefix: str | None = None) -> str:
    """Each archetype's conversion to ``stage``; ids start "conversion-<stage>" unless
    ``id_prefix`` says otherwise."""
    bars = []
    for row in data["rows"]:
        conversion = row["stages"][stage]["conversion"]
        bars.append(
            charts.Bar(
                label=row["name"],
                value=conversion["value"],
                low=conversion["low"],
                high=conversion["high"],
                tooltip=_(
                    "%(name)s: %(k)d of %(n)d players reached %(stage)s, %(rate)s "
                    "(95%% interval %(interval)s)"
                )
                % {
                    "name": row["name"],
                    "k": conversion["k"],
                    "n": conversion["n"],
                    "stage": stage_name(stage),
                    "rate": percent(conversion["value"]),
                    "interval": interval(conversion),
                },
                small=conversion["n"] < data["min_cell"],
            )
        )
    return charts.bar_chart(
        bars,
        title=_("Conversion to %(stage)s") % {"stage": stage_name(stage)},
        axis=_("Players who reached %(stage)s") % {"stage": stage_name(stage)},
        id_prefix=id_prefix or f"conversion-{stage}",
    )


def cell_tooltip(row_name: str, opponent_name: str, record: dict[str, Any], min_cell: int) -> str:
    """What hovering a heat-map cell says (and the table beside it shows)."""
    if not record["n"]:
        return _("%(row)s against %(opponent)s: never met") % {
            "row": row_name,
            "opponent": opponent_name,
        }
    text = _(
        "%(row)s against %(opponent)s: %(wins)d-%(losses)d-%(draws)d in %(n)d matches, "
        "%(rate)s won (95%% interval %(interval)s)"
    ) % {
        "row": row_name,
        "opponent": opponent_name,
        "wins": record["wins"],
        "losses": record["losses"],
        "draws": record["draws"],
        "n": record["n"],
        "rate": percent(record["rate"]["value"]),
        "interval": interval(record["rate"]),
    }
    if record["small"]:
        text += " " + _("Fewer than %(n)d matches: too few to read.") % {"n": min_cell}
    return text


def matrix_chart(data: dict[str, Any], id_prefix: str = "matrix") -> str:
    """The matchup heat-map ("" for fewer than two archetypes)."""
    rows = data["rows"]
    if len(rows) < 2:
        return ""
    index = {row["key"]: i for i, row in enumerate(rows)}
    names = [row["name"] for row in rows]
    cells = {}
    for cell in data["matrix"]:
        i, j = index[cell["key"]], index[cell["opponent"]]
        record = cell["record"]
        cells[(i, j)] = charts.HeatCell(
            value=record["rate"]["value"],
            text=f"{record['rate']['value'] * 100:.0f}%" if record["n"] else "\u2013",
            tooltip=cell_tooltip(names[i], names[j], record, data["min_cell"]),
            small=record["small"],
        )
    return charts.heatmap(
        names,
        cells,
        title=_("Match win rate, row against column"),
        rows_axis=_("Archetype"),
        columns_axis=_("Opponent"),
        id_prefix=id_prefix,
    )
