"""The metagame's SVG charts, read back as XML: what a page and a browser test rely on.

Each test parses the SVG the page would inline and checks what a reader sees: one bar
or cell per figure in the given order, its tooltip and value, greyed small samples,
mirrors without text, the same bytes for the same input, Japanese kept as text.
"""

import re
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from metagame.charts import (
    MIRROR_COLOUR,
    NO_DATA_COLOUR,
    SMALL_CELL_COLOUR,
    SMALL_COLOUR,
    Bar,
    HeatCell,
    bar_chart,
    heatmap,
)

NS = {"svg": "http://www.w3.org/2000/svg"}
ROOT = Path(__file__).resolve().parents[3]
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"

BARS = [
    Bar("Ember Rush", 0.34, 0.21, 0.49, "Ember Rush: 12 of 35 players (34%)"),
    Bar("Tidal Control", 0.2, 0.1, 0.36, "Tidal Control: 7 of 35 players (20%)", small=True),
    Bar("Stonewall", None, 0.0, 0.0, "Stonewall: no players reached this stage"),
]

LABELS = ["Ember Rush", "Tidal Control", "エンバー"]
CELLS = {
    (0, 1): HeatCell(0.62, "62%", "Ember Rush vs Tidal Control: 13-8-0 (62%)"),
    (1, 0): HeatCell(0.38, "38%", "Tidal Control vs Ember Rush: 8-13-0 (38%)"),
    (0, 2): HeatCell(0.75, "75%", "Ember Rush vs エンバー: 3-1-0, small", small=True),
    (2, 0): HeatCell(0.25, "25%", "エンバー vs Ember Rush: 1-3-0, small", small=True),
    (0, 0): HeatCell(None, "", "Ember Rush mirrors: 4 matches, not counted"),
}


def _bars(**changes):
    options = {"title": "Share of the field", "axis": "Share of players", "id_prefix": "share"}
    return bar_chart(changes.pop("bars", BARS), **{**options, **changes})


def _matrix(labels=LABELS, cells=CELLS, id_prefix="matchups"):
    return heatmap(
        labels,
        cells,
        title="Matchups",
        rows_axis="Playing",
        columns_axis="Against",
        id_prefix=id_prefix,
    )


def _group(root, gid):
    found = root.find(f".//svg:g[@id='{gid}']", NS)
    assert found is not None, gid
    return found


def _tooltip(group):
    title = group.find("svg:title", NS)
    return None if title is None else title.text


def _fill(group):
    """The fill a bar or cell is drawn with (a presentation attribute: the site's CSP
    drops inline styles)."""
    return group.find("svg:path", NS).get("fill")


def _texts(element):
    return ["".join(text.itertext()) for text in element.iter(f"{{{NS['svg']}}}text")]


def _top(group):
    """The smallest y of the group's shape: which bar is drawn higher."""
    numbers = [float(n) for n in re.findall(r"-?\d+\.?\d*", group.find("svg:path", NS).get("d"))]
    return min(numbers[1::2])


# --- Bars --------------------------------------------------------------------------


def test_one_bar_per_archetype_with_its_tooltip_and_value_in_the_given_order():
    root = ET.fromstring(_bars())
    groups = [_group(root, f"share-bar-{i}") for i in range(len(BARS))]
    assert [_tooltip(g) for g in groups] == [bar.tooltip for bar in BARS]
    assert [g.get("data-value") for g in groups] == ["0.3400", "0.2000", ""]
    assert root.find(".//svg:g[@id='share-bar-3']", NS) is None
    assert _top(groups[0]) < _top(groups[1]) < _top(groups[2])


def test_a_bar_shows_its_value_rounded_and_a_bar_without_value_keeps_its_label():
    root = ET.fromstring(_bars())
    assert _texts(_group(root, "share-bar-0")) == ["34%"]
    assert _texts(_group(root, "share-bar-2")) == ["\N{EN DASH}"]
    assert "Stonewall" in _texts(root)


def test_a_small_sample_bar_is_grey_and_the_others_are_not():
    root = ET.fromstring(_bars())
    assert _fill(_group(root, "share-bar-1")) == SMALL_COLOUR
    assert _fill(_group(root, "share-bar-0")) != SMALL_COLOUR


def test_a_long_name_is_cut_on_the_axis_and_whole_in_the_tooltip():
    name = "Azorius Control with Every Counterspell Ever Printed"
    root = ET.fromstring(_bars(bars=[Bar(name, 0.5, 0.3, 0.7, name)]))
    shown = [text for text in _texts(root) if text.startswith("Azorius")]
    assert len(shown) == 1 and shown[0].endswith("…") and len(shown[0]) < len(name)
    assert _tooltip(_group(root, "share-bar-0")) == name


def test_a_name_with_dollar_signs_is_shown_as_typed():
    root = ET.fromstring(_bars(bars=[Bar("$5 Burn $ale", 0.5, 0.3, 0.7, "")]))
    assert "$5 Burn $ale" in _texts(root)


def test_the_chart_grows_taller_with_more_bars():
    def height(count):
        bars = [Bar(f"Deck {i}", 0.1, 0.05, 0.2, "") for i in range(count)]
        return float(ET.fromstring(_bars(bars=bars)).get("viewBox").split()[3])

    assert height(25) > height(5) * 3


# --- Heat map ----------------------------------------------------------------------


def test_one_cell_per_ordered_pair_with_its_tooltip_and_value():
    root = ET.fromstring(_matrix())
    cells = root.findall(".//svg:g[@data-value]", NS)
    assert len(cells) == 9
    ember_tidal = _group(root, "matchups-cell-0-1")
    assert _tooltip(ember_tidal) == CELLS[0, 1].tooltip
    assert ember_tidal.get("data-value") == "0.6200"
    assert _texts(ember_tidal) == ["62%"]


def test_the_colours_read_as_a_result_only_where_the_sample_is_large_enough():
    root = ET.fromstring(_matrix())
    winning = _fill(_group(root, "matchups-cell-0-1"))
    losing = _fill(_group(root, "matchups-cell-1-0"))
    red, blue = lambda c: int(c[1:3], 16), lambda c: int(c[5:7], 16)
    assert blue(winning) > red(winning) and red(losing) > blue(losing)
    small = _group(root, "matchups-cell-0-2")
    assert _fill(small) == SMALL_CELL_COLOUR
    assert _texts(small) == ["75%"] and small.get("data-value") == "0.7500"


def test_a_mirror_is_grey_without_text_and_a_pair_that_never_met_is_blank():
    root = ET.fromstring(_matrix())
    for i in range(3):
        mirror = _group(root, f"matchups-cell-{i}-{i}")
        assert _fill(mirror) == MIRROR_COLOUR
        assert _texts(mirror) == []
    assert _tooltip(_group(root, "matchups-cell-0-0")) == CELLS[0, 0].tooltip
    never = _group(root, "matchups-cell-1-2")
    assert _fill(never) == NO_DATA_COLOUR
    assert _texts(never) == ["\N{EN DASH}"] and never.get("data-value") == ""
    assert _tooltip(never) is None


def test_the_matrix_has_a_colour_scale_from_0_to_100_percent():
    texts = _texts(ET.fromstring(_matrix()))
    assert {"0%", "50%", "100%"} <= set(texts)


# --- Both --------------------------------------------------------------------------


@pytest.mark.parametrize("draw", [_bars, _matrix], ids=["bars", "heatmap"])
def test_the_same_input_gives_the_same_bytes(draw):
    assert draw() == draw()


@pytest.mark.parametrize("draw", [_bars, _matrix], ids=["bars", "heatmap"])
def test_the_svg_is_inline_ready_and_named_for_screen_readers(draw):
    svg = draw()
    assert svg.startswith("<svg") and "<?xml" not in svg and "DOCTYPE" not in svg
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert "chart" in root.get("class").split()
    assert root.get("width") == "100%" and root.get("height") is None
    assert len(root.get("viewBox").split()) == 4
    first = root[0]
    assert first.tag == f"{{{NS['svg']}}}title"
    assert root.get("aria-labelledby") == first.get("id")
    assert first.text in ("Share of the field", "Matchups")


@pytest.mark.parametrize("draw", [_bars, _matrix], ids=["bars", "heatmap"])
def test_the_svg_stays_svg_after_weasyprint_is_imported(draw):
    """Importing WeasyPrint (a print worker does, a web process may) registers the prefix
    "" for no namespace, which drops SVG's: the chart must still be ``<svg>``, never
    ``<ns0:svg>``, which neither a browser nor WeasyPrint draws inline."""
    ET.register_namespace("", "")  # what ``import weasyprint`` does
    svg = draw()
    assert svg.startswith("<svg ") and "ns0:" not in svg and "ns1:" not in svg


@pytest.mark.parametrize("draw", [_bars, _matrix], ids=["bars", "heatmap"])
def test_every_id_is_the_charts_own_and_every_reference_resolves(draw):
    root = ET.fromstring(draw(id_prefix="p7"))
    ids = [element.get("id") for element in root.iter() if element.get("id")]
    assert len(ids) == len(set(ids))
    assert all(i == "p7" or i.startswith("p7-") for i in ids)
    references = [
        target
        for element in root.iter()
        for name, value in element.attrib.items()
        for target in re.findall(r"url\(#([^)]+)\)", value)
        + ([value[1:]] if name == XLINK_HREF and value.startswith("#") else [])
    ]
    assert references and set(references) <= set(ids)


def test_japanese_is_kept_as_text_and_measured_with_a_japanese_font():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # ahead of the module's filter for missing glyphs
        svg = _bars(bars=[Bar("エンバー", 0.5, 0.3, 0.7, "エンバー: 5人")])
        matrix = _matrix()
    assert [str(w.message) for w in caught if "missing from font" in str(w.message)] == []
    assert "エンバー" in _texts(ET.fromstring(svg))
    assert "エンバー" in _texts(ET.fromstring(matrix))
    assert "Noto Sans CJK JP" in svg


def test_a_name_no_installed_font_has_leaves_the_logs_of_a_web_process_quiet():
    """The browser draws it with its own fonts; only matplotlib's measure is approximate.

    Run in a fresh process, as a web worker would be: pytest resets warning filters
    that modules add while it collects them.
    """
    draw = (
        "from metagame.charts import Bar, bar_chart\n"
        "bar = Bar('\\N{EGYPTIAN HIEROGLYPH A001} \\N{SNOWMAN}', 0.5, 0.3, 0.7, '')\n"
        "svg = bar_chart([bar], title='t', axis='a', id_prefix='x')\n"
        "assert '\\N{EGYPTIAN HIEROGLYPH A001}' in svg\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", draw],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "missing from font" not in done.stderr


def test_nothing_to_show_gives_an_empty_string_for_the_page_to_replace():
    assert _bars(bars=[]) == ""
    assert _matrix(labels=[], cells={}) == ""


@pytest.mark.parametrize("draw", [_bars, _matrix], ids=["bars", "heatmap"])
def test_no_inline_style_that_the_sites_content_security_policy_would_drop(draw):
    """``style-src 'self'`` drops every ``style`` attribute and ``<style>`` element:
    shapes would be drawn black. The look is written as presentation attributes."""
    svg = draw()
    assert "style=" not in svg and "<style" not in svg
    root = ET.fromstring(svg)
    fills = {e.get("fill") for e in root.iter() if e.get("fill")}
    assert "#ffffff" in fills  # the background, white as drawn
