"""The metagame's pictures as inline SVG, drawn on the server by matplotlib (issue 36).

Two pictures: :func:`bar_chart` (a share, a conversion or a win rate per archetype,
with its interval) and :func:`heatmap` (the matchup matrix). They take plain values
and texts the caller has already translated, never the report's classes, so a page
in any language can draw any figure of the report.

What a page can rely on:

* **Inline and accessible.** The SVG has no XML declaration, ``role="img"``, a
  ``<title>`` (the chart's title) named by ``aria-labelledby``, ``class="chart"``,
  ``width="100%"`` and no height (the viewBox keeps its shape, so it fits a phone;
  ``max-width`` keeps it from growing past its drawn size on a wide screen).
* **Hover without script.** Each bar is ``<g id="{id_prefix}-bar-{i}">`` and each
  cell ``<g id="{id_prefix}-cell-{i}-{j}">`` with the caller's tooltip as its
  ``<title>`` and ``data-value`` (the value to four places, "" when there is none);
  the text printed on the bar or cell sits inside the same ``<g>``. Every id of the
  picture starts with ``id_prefix``, so several charts can share a page.
* **Text stays text** (``svg.fonttype: none``): searchable, small, drawn by the
  browser (DejaVu Sans, Noto Sans CJK JP, else its own sans-serif); Japanese is
  measured with Noto Sans CJK JP. A ``$`` in a name is a dollar, never TeX.
* **Same input, same bytes**: no date, a fixed hash salt; the site caches the SVG.
* **Nothing to draw, nothing returned**: no bars or no labels give "", and the
  caller shows its own empty state.

Only matplotlib's object-oriented API is used (``Figure`` and the SVG canvas, never
pyplot, whose global state is unsafe in a threaded web process); settings are
applied with ``rc_context`` for the duration of a call, one call at a time.
"""

from __future__ import annotations

import io
import re
import textwrap
import threading
import unicodedata
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import nan

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize, to_hex
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)

# The browser draws the text (text stays text), so a glyph that matplotlib's fonts lack
# only makes matplotlib's measure of it approximate: not worth a line in the logs for
# every name in a script no installed font covers. A process-wide filter, for this one
# message.
warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning)

FONT_SIZE = 10
CELL_FONT_SIZE = 7.5
LABEL_LIMIT = 22
"""Labels longer than this (a wide character counting two) end in "…" on the axis."""

BAR_COLOUR = "#3465a4"
SMALL_COLOUR = "#bdbdbd"
WHISKER_COLOUR = "#222222"
MIRROR_COLOUR = "#8c8c8c"
SMALL_CELL_COLOUR = "#dcdcdc"
NO_DATA_COLOUR = "#ffffff"
NO_DATA_TEXT = "\N{EN DASH}"
"""Printed where there is no value: language-neutral."""
HEAT_MAP = "RdBu"
"""Red below 50%, blue above, near white at 50%: diverging and readable without red/green."""

_RC = {
    "svg.fonttype": "none",
    "svg.hashsalt": "arbiter-metagame",
    "text.parse_math": False,  # a name such as "$5 Burn $ale" is a name, not TeX
    "font.family": ["DejaVu Sans", "Noto Sans CJK JP", "sans-serif"],
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": FONT_SIZE,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#666666",
    "xtick.color": "#444444",
    "ytick.color": "#444444",
    "text.color": "#222222",
}

_FONTS = "'DejaVu Sans', 'Noto Sans CJK JP', sans-serif"
"""The fonts matplotlib names in the SVG for the family above."""

_RC_LOCK = threading.Lock()
"""``rc_context`` sets matplotlib's settings process-wide for its duration: two threads
drawing at once would restore each other's settings midway, so charts draw one at a
time (each takes a tenth of a second, and the site caches them)."""

PT = 72.0
"""Points per inch: the SVG backend draws in points, one point one CSS pixel."""


@dataclass(frozen=True)
class Bar:
    """One archetype's bar; ``value`` None draws no bar but keeps the label."""

    label: str
    value: float | None
    low: float
    high: float
    tooltip: str
    small: bool = False


@dataclass(frozen=True)
class HeatCell:
    """The row archetype's win rate against the column's; ``value`` None: never met."""

    value: float | None
    text: str
    tooltip: str
    small: bool = False


# --- Bars --------------------------------------------------------------------------

BAR_WIDTH_IN = 5.4
ROW_IN = 0.3


def bar_chart(bars: Sequence[Bar], *, title: str, axis: str, id_prefix: str) -> str:
    """Horizontal bars, first at the top, 0 to 100 % with interval whiskers; "" if no bars."""
    if not bars:
        return ""
    with _RC_LOCK, matplotlib.rc_context(_RC):
        labels = [_shorten(bar.label) for bar in bars]
        title_lines = _wrap(title, BAR_WIDTH_IN * PT - 12)
        left = _text_width(labels, FONT_SIZE) + 14
        top = 10 + 15 * len(title_lines)
        fig = _figure(BAR_WIDTH_IN, top / PT + len(bars) * ROW_IN + 0.6)
        ax = _axes(fig, left=left, right=44, top=top, bottom=38)
        _draw_title(fig, title_lines)
        _draw_bars(ax, bars, id_prefix)
        ax.set_xlim(0, 1)
        ax.set_ylim(len(bars) - 0.5, -0.5)
        ax.set_yticks(range(len(bars)), labels)
        ax.tick_params(axis="y", length=0)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
        ax.grid(axis="x", color="#e4e4e4", linewidth=0.8)
        ax.set_axisbelow(True)
        ax.set_xlabel(axis)
        svg = _render(fig)
    values = {f"{id_prefix}-bar-{i}": (bar.value, bar.tooltip) for i, bar in enumerate(bars)}
    return _finish(svg, title, id_prefix, values)


def _draw_bars(ax, bars: Sequence[Bar], id_prefix: str) -> None:
    colours = [SMALL_COLOUR if bar.small else BAR_COLOUR for bar in bars]
    widths = [bar.value or 0.0 for bar in bars]
    drawn = ax.barh(range(len(bars)), widths, height=0.68, color=colours)
    for i, (patch, bar) in enumerate(zip(drawn, bars, strict=True)):
        gid = f"{id_prefix}-bar-{i}"
        patch.set_gid(gid)
        if bar.value is None:
            ax.text(
                0.01, i, NO_DATA_TEXT, va="center", ha="left", color="#777777", gid=f"{gid}-text"
            )
            continue
        colour = "#888888" if bar.small else WHISKER_COLOUR
        low, high, cap = bar.low, bar.high, 0.16
        ax.plot(
            [low, high, nan, low, low, nan, high, high],
            [i, i, nan, i - cap, i + cap, nan, i - cap, i + cap],
            color=colour,
            linewidth=1.1,
            solid_capstyle="butt",
            gid=f"{gid}-interval",
        )
        ax.text(
            max(bar.value, bar.high) + 0.015,
            i,
            f"{round(bar.value * 100)}%",
            va="center",
            ha="left",
            clip_on=False,
            gid=f"{gid}-text",
            color="#666666" if bar.small else "#222222",
        )


# --- Heat map ----------------------------------------------------------------------

CELL_PT = 26.0


def heatmap(
    labels: Sequence[str],
    cells: Mapping[tuple[int, int], HeatCell],
    *,
    title: str,
    rows_axis: str,
    columns_axis: str,
    id_prefix: str,
) -> str:
    """The matchup matrix: row ``i`` playing against column ``j``; "" if no labels.

    A cell missing from ``cells`` is drawn as never met. The diagonal (mirrors) is grey
    and carries no text; its tooltip is the caller's ``cells[i, i]`` if given.
    """
    if not labels:
        return ""
    with _RC_LOCK, matplotlib.rc_context(_RC):
        n = len(labels)
        short = [_shorten(label) for label in labels]
        label_pt = _text_width(short, FONT_SIZE - 1)
        grid = n * CELL_PT
        left = label_pt + 28
        top_labels = label_pt * 0.71 + 26
        # Room right of the grid for the colour bar and its "100%", and for the last
        # rotated label: a browser draws the text in its own fonts, often wider.
        width = max(left + grid + max(90, top_labels + 20), 300)
        title_lines = _wrap(title, width - 12)
        top = 10 + 15 * len(title_lines) + top_labels
        fig = _figure(width / PT, (top + grid + 12) / PT)
        ax = _axes(fig, left=left, right=width - left - grid, top=top, bottom=12)
        _draw_title(fig, title_lines)
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_ylim(n - 0.5, -0.5)
        ax.patch.set_visible(False)
        _label_matrix(ax, short, rows_axis, columns_axis)
        _colour_bar(fig, left + grid + 18, top, min(grid, 160))
        svg = _render(fig)
    drawn = _cells(n, cells, id_prefix, (left, top))
    return _finish(svg, title, id_prefix, {}, drawn)


def _cells(
    n: int, cells: Mapping[tuple[int, int], HeatCell], id_prefix: str, origin: tuple[float, float]
) -> ET.Element:
    """The matrix's cells as SVG, each ``<g>`` a square and its text.

    Written directly rather than as 900 matplotlib patches and texts: at 30 archetypes
    those took about a second to draw, these take milliseconds. The squares sit on the
    axes matplotlib drew (``origin``, the top-left corner, in points), ``CELL_PT`` each.
    """
    cmap = matplotlib.colormaps[HEAT_MAP]
    shared = f"font-size: {CELL_FONT_SIZE:g}px; font-family: {_FONTS}; text-anchor: middle"
    group = ET.Element(f"{{{SVG_NS}}}g", {"id": f"{id_prefix}-cells", "style": shared})
    left, top = origin
    side = CELL_PT - 1  # a white point between squares
    for i in range(n):
        for j in range(n):
            cell = cells.get((i, j))
            fill, ink = _cell_colours(i == j, cell, cmap)
            x, y = left + j * CELL_PT, top + i * CELL_PT
            one = ET.SubElement(group, f"{{{SVG_NS}}}g", {"id": f"{id_prefix}-cell-{i}-{j}"})
            _set_value(one, cell.value if cell else None, cell.tooltip if cell else "")
            square = f"M {x + 0.5:g} {y + 0.5:g} h {side:g} v {side:g} h {-side:g} z"
            ET.SubElement(one, f"{{{SVG_NS}}}path", {"d": square, "style": f"fill: {fill}"})
            if i != j:
                middle = y + CELL_PT / 2 + CELL_FONT_SIZE * 0.35  # the baseline, to centre
                where = {"x": f"{x + CELL_PT / 2:g}", "y": f"{middle:g}", "style": f"fill: {ink}"}
                text = ET.SubElement(one, f"{{{SVG_NS}}}text", where)
                text.text = cell.text if cell else NO_DATA_TEXT
    return group


def _cell_colours(mirror: bool, cell: HeatCell | None, cmap) -> tuple[str, str]:
    """The fill and text colours: grey for mirrors and small samples, else the map."""
    if mirror:
        return MIRROR_COLOUR, "none"
    if cell is None or cell.value is None:
        return NO_DATA_COLOUR, "#777777"
    if cell.small:
        return SMALL_CELL_COLOUR, "#444444"
    fill = to_hex(cmap(cell.value))
    return fill, "white" if abs(cell.value - 0.5) > 0.3 else "#222222"


def _label_matrix(ax, short: Sequence[str], rows_axis: str, columns_axis: str) -> None:
    ticks = range(len(short))
    ax.set_yticks(ticks, short, fontsize=FONT_SIZE - 1)
    ax.set_xticks(
        ticks, short, fontsize=FONT_SIZE - 1, rotation=45, ha="left", rotation_mode="anchor"
    )
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.tick_params(length=0, pad=3)
    ax.set_ylabel(rows_axis)
    ax.set_xlabel(columns_axis, labelpad=6)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _colour_bar(fig: Figure, left: float, top: float, height: float) -> None:
    """A slim 0 to 100 % scale beside the matrix, 50 % in the middle."""
    width, full_h = fig.bbox.width, fig.bbox.height
    cax = fig.add_axes((left / width, 1 - (top + height) / full_h, 10 / width, height / full_h))
    mappable = ScalarMappable(Normalize(0, 1), matplotlib.colormaps[HEAT_MAP])
    bar = fig.colorbar(mappable, cax=cax, ticks=[0, 0.5, 1])
    bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    bar.ax.tick_params(labelsize=FONT_SIZE - 2, length=2)
    bar.outline.set_linewidth(0.5)


# --- Shared ------------------------------------------------------------------------


def _figure(width_in: float, height_in: float) -> Figure:
    fig = Figure(figsize=(width_in, height_in), dpi=PT)
    FigureCanvasSVG(fig)
    return fig


def _draw_title(fig: Figure, lines: Sequence[str]) -> None:
    fig.text(
        6 / fig.bbox.width,
        1 - 8 / fig.bbox.height,
        "\n".join(lines),
        ha="left",
        va="top",
        fontsize=FONT_SIZE + 1.5,
        fontweight="bold",
    )


def _axes(fig: Figure, *, left: float, right: float, top: float, bottom: float):
    """One axes placed by margins in points, so text keeps its size as the chart grows."""
    width, height = fig.bbox.width, fig.bbox.height
    return fig.add_axes(
        (left / width, bottom / height, 1 - (left + right) / width, 1 - (top + bottom) / height)
    )


def _render(fig: Figure) -> str:
    out = io.StringIO()
    fig.canvas.print_svg(out, metadata={"Date": None})
    return out.getvalue()


def _char_em(char: str) -> float:
    return 1.0 if unicodedata.east_asian_width(char) in "WF" else 0.6


def _text_width(texts: Sequence[str], size: float) -> float:
    """An estimate, in points, of the widest text: wide (CJK) characters one em, others 0.6."""
    return max((sum(_char_em(c) for c in text) * size for text in texts), default=0.0)


def _shorten(label: str, limit: int = LABEL_LIMIT) -> str:
    """The label cut to ``limit`` columns with "…"; the tooltip keeps the whole name."""
    used, kept = 0.0, []
    for char in label:
        used += 2 if _char_em(char) == 1.0 else 1
        if used > limit:
            return "".join(kept).rstrip() + "…"
        kept.append(char)
    return label


def _wrap(title: str, width_pt: float) -> list[str]:
    columns = max(int(width_pt / ((FONT_SIZE + 1.5) * 0.7)), 10)
    return textwrap.wrap(title, columns) or [""]


# --- The SVG as the page needs it --------------------------------------------------

_PARTS = {"text", "interval"}
"""What is drawn with a bar or cell: ``{its id}-text``, ``{its id}-interval``."""

_REFERENCE = re.compile(r"url\(#([^)]+)\)")


def _finish(
    svg: str,
    title: str,
    id_prefix: str,
    values: Mapping[str, tuple[float | None, str]],
    cells: ET.Element | None = None,
) -> str:
    """Inline-ready, accessible SVG: see the module's docstring for what a page relies on."""
    root = ET.fromstring(svg)
    for metadata in root.findall(f"{{{SVG_NS}}}metadata"):
        root.remove(metadata)
    _prefix_ids(root, id_prefix)
    _describe_root(root, title, id_prefix)
    groups = {element.get("id"): element for element in root.iter(f"{{{SVG_NS}}}g")}
    if cells is not None:
        groups[f"{id_prefix}-axes_1"].append(cells)
    _move_texts_into_their_groups(root, groups)
    for gid, (value, tooltip) in values.items():
        _set_value(groups[gid], value, tooltip)
    _presentation_attributes(root)
    return _serialise(root)


PRESENTATION = frozenset(
    {
        "clip-path",
        "dominant-baseline",
        "fill",
        "fill-opacity",
        "fill-rule",
        "font-family",
        "font-size",
        "font-style",
        "font-weight",
        "opacity",
        "stroke",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "stroke-opacity",
        "stroke-width",
        "text-anchor",
    }
)
"""The SVG properties matplotlib writes in ``style`` that are also presentation
attributes (SVG 1.1, 6.4): the same look, written as attributes."""


def _presentation_attributes(root: ET.Element) -> None:
    """Every ``style`` attribute and ``<style>`` element made presentation attributes.

    The site's Content Security Policy (``style-src 'self'``) forbids inline styles, so
    a browser drops them and every shape falls back to black; attributes are no style
    and stay. The one ``<style>`` rule matplotlib writes (round joins, butt caps for
    everything) becomes the root's, which every shape inherits unless it says otherwise.
    """
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == f"{{{SVG_NS}}}style":
                parent.remove(child)
    root.set("stroke-linejoin", "round")
    root.set("stroke-linecap", "butt")
    for element in root.iter():
        style = element.attrib.pop("style", None)
        if not style:
            continue
        for declaration in style.split(";"):
            name, _, value = declaration.partition(":")
            name, value = name.strip(), value.strip()
            if name in PRESENTATION and value:
                element.set(name, value)
            elif name == "white-space" and value == "pre":
                element.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")


def _serialise(root: ET.Element) -> str:
    """The SVG as text, ``<svg xmlns=...>``. The prefixes are registered again each time:
    importing WeasyPrint registers "" for no namespace, which drops SVG's, and the
    picture would come out as ``<ns0:svg>``, which neither a browser nor WeasyPrint draws
    inline (a print worker imports WeasyPrint, a web process may too)."""
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    return ET.tostring(root, encoding="unicode")


def _set_value(group: ET.Element, value: float | None, tooltip: str) -> None:
    """What a browser test compares with the table, and the native hover tooltip."""
    group.set("data-value", "" if value is None else f"{value:.4f}")
    if tooltip:
        _title(group, tooltip)


def _prefix_ids(root: ET.Element, id_prefix: str) -> None:
    """matplotlib's own ids (figure_1, clip paths…) made unique to this chart."""
    renamed = {}
    for element in root.iter():
        old = element.get("id")
        if old and not old.startswith(f"{id_prefix}-"):
            renamed[old] = f"{id_prefix}-{old}"
            element.set("id", renamed[old])
    href = f"{{{XLINK_NS}}}href"
    for element in root.iter():
        for name, text in element.attrib.items():
            if name == href and text.startswith("#") and text[1:] in renamed:
                element.set(name, f"#{renamed[text[1:]]}")
            elif "url(#" in text:
                element.set(
                    name, _REFERENCE.sub(lambda m: f"url(#{renamed.get(m[1], m[1])})", text)
                )
        if element.tag == f"{{{SVG_NS}}}style" and element.text:
            element.text = element.text.replace("*{", "svg.chart *{")


def _describe_root(root: ET.Element, title: str, id_prefix: str) -> None:
    width = root.get("viewBox", "0 0 0 0").split()[2]
    for name in ("width", "height"):
        root.attrib.pop(name, None)
    root.set("width", "100%")
    root.set("data-width", f"{float(width):g}")
    root.set("role", "img")
    root.set("class", "chart")
    root.set("id", id_prefix)
    root.set("aria-labelledby", f"{id_prefix}-title")
    _title(root, title).set("id", f"{id_prefix}-title")


def _title(element: ET.Element, text: str) -> ET.Element:
    """A ``<title>`` as the element's first child: its name, and its native tooltip."""
    title = ET.Element(f"{{{SVG_NS}}}title")
    title.text = text
    title.tail = element.text
    element.text = None
    element.insert(0, title)
    return title


def _move_texts_into_their_groups(root: ET.Element, groups: Mapping[str, ET.Element]) -> None:
    """A bar's or cell's text and whisker join its ``<g>``: hovering them shows its tooltip."""
    for parent, child in list(_parents(root)):
        owner, _, part = (child.get("id") or "").rpartition("-")
        if part in _PARTS and owner in groups:
            parent.remove(child)
            groups[owner].append(child)


def _parents(root: ET.Element) -> Iterator[tuple[ET.Element, ET.Element]]:
    for parent in root.iter():
        for child in parent:
            yield parent, child
