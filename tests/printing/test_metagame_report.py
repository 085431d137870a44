"""The printed metagame report: what the staff read on paper is the event's metagame,
the whole event then each phase, charts drawn and numbers as the tables print them;
a reprint is reused until a printed number or name changes."""

from __future__ import annotations

import logging
import math
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from arbiter import worlds
from decks.models import Decklist
from metagame.charts import BAR_COLOUR
from metagame_site import services
from printing import documents
from printing.documents.base import DASH
from printing.render import page_count
from tests.printing.test_layouts import pages_text
from tournaments.models import Match
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

Z = 1.959963984540054  # the 97.5th percentile of the standard normal


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's score interval, written out here rather than taken from the code."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def printed(event) -> bytes:
    return documents.render_units("metagame", event.pk, None, [0])


def text_of(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "metagame.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    )
    return out.stdout


def fingerprint(event) -> str:
    event.refresh_from_db()  # as a print request reads it
    return documents.fingerprint("metagame", event, None)


@pytest.fixture
def world():
    """12 players with a submitted list each, three Swiss rounds played, finished."""
    world = worlds.build_event(
        12, decklists=True, rounds_played=3, swiss_rounds=3, paired=False, judge=None
    )
    rounds.finish_event(world.event, world.organiser)
    return world


@pytest.fixture
def event(world):
    world.event.refresh_from_db()
    return world.event


def archetype_counts(event) -> Counter:
    lists = Decklist.objects.filter(
        registration__event=event, status=Decklist.Status.SUBMITTED
    ).values_list("archetype", flat=True)
    return Counter(lists)


def test_the_report_prints_each_phase_with_its_charts_and_numbers(event, tmp_path):
    pdf = printed(event)
    text = text_of(pdf, tmp_path)
    assert "Metagame report" in text
    assert "Whole event" in text and "Swiss" in text  # the event, then its one phase
    assert "How these numbers are counted" in text

    data = services.report(services.Asked(event, services.ALL, services.FULL))
    names = {row["key"]: row["name"] for row in data["rows"]}
    counts = archetype_counts(event)
    assert set(names) == set(counts)  # every archetype of the field, none folded
    for key, players in counts.items():
        share = f"{players / 12 * 100:.1f}%"
        low, high = wilson(players, 12)
        interval = f"{low * 100:.1f}{DASH}{high * 100:.1f}%"
        line = rf"{re.escape(names[key])}\s+{players}\s+{re.escape(share)}\s+{interval}"
        assert len(re.findall(line, text)) == 2, line  # the whole event's table, Swiss's

    # How each archetype did: its record and rate as the report counts them.
    for row in data["rows"]:
        m = row["matches"]
        rate = f"{m['rate']['value'] * 100:.1f}%"
        record = DASH.join(str(m[part]) for part in ("wins", "losses", "draws"))
        name = re.escape(row["name"])
        assert re.search(rf"{DASH}\s+{name}\s+{record}\s+{re.escape(rate)}", text)  # not ranked
    # Every pairing that met, once, from the side of the archetype listed first.
    order = list(names)
    met = [
        c
        for c in data["matrix"]
        if c["record"]["n"] and order.index(c["key"]) < order.index(c["opponent"])
    ]
    assert met
    for cell in met:
        r = cell["record"]
        pair = rf"{re.escape(names[cell['key']])}\s+{re.escape(names[cell['opponent']])}"
        wld = DASH.join(str(r[part]) for part in ("wins", "losses", "draws"))
        line = rf"{pair}\s+{wld}\s+[\d.]+%\s+\S+\s+{r['n']}\n"
        assert len(re.findall(line, text)) == 2, line  # whole event and Swiss
    assert "Grey: fewer than 10 matches" in text  # twelve players: every sample is small


def test_the_charts_are_drawn_on_the_page(event, tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        pdf = printed(event)
    # WeasyPrint would warn of each SVG property of a chart's styles: the logs stay quiet.
    assert [r.getMessage() for r in caplog.records if "unknown property" in r.getMessage()] == []
    path = tmp_path / "metagame.pdf"
    path.write_bytes(pdf)
    page = str(tmp_path / "page")
    subprocess.run(
        ["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", "-singlefile", str(path), page],
        check=True,
    )
    image = Image.open(tmp_path / "page.png").convert("RGB")
    bar = tuple(int(BAR_COLOUR[i : i + 2], 16) for i in (1, 3, 5))
    bar_pixels = dict((colour, n) for n, colour in image.getcolors(1 << 24)).get(bar, 0)
    assert bar_pixels > 500  # the share chart's bars, not a stray line
    assert page_count(pdf) >= 2  # each phase starts on a page of its own


def test_every_id_on_the_page_is_unique(event):
    """Each phase draws its charts with ids of its own: the same chart twice on one page
    would point its references (clip paths, titles) at the other's."""
    html, _context = documents.get("metagame").document(event, None, [0])
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) > 50
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    assert 'id="all-share"' in html and 'id="swiss-matrix"' in html


def test_a_reprint_is_reused_until_a_printed_number_or_name_changes(world, tmp_path):
    event, organiser = world.event, world.organiser
    before = fingerprint(event)
    assert fingerprint(event) == before
    event.registrations.update(checked_in=False)  # nothing the report counts
    assert fingerprint(event) == before

    keys = dict(
        Decklist.objects.filter(registration__event=event).values_list("registration", "archetype")
    )
    match, a_wins, b_wins = next(
        (m, m.games.count(m.player_a_id), m.games.count(m.player_b_id))
        for m in Match.objects.filter(round__event=event, is_bye=False).order_by("pk")
        if keys[m.player_a_id] != keys[m.player_b_id]
        and m.games.count(m.player_a_id) != m.games.count(m.player_b_id)
    )
    turned = results.Score.parse(f"{b_wins}-{a_wins}")
    results.enter_result(match, turned, organiser, "Entered the wrong way round")
    corrected = fingerprint(event)
    assert corrected != before  # a result the report counts changed

    key = keys[match.player_a_id]
    services.name_archetype(event, organiser, key=key, name="Tidal Snakes")
    renamed = fingerprint(event)
    assert renamed != corrected
    assert "Tidal Snakes" in text_of(printed(event), tmp_path)
    assert fingerprint(event) == renamed


def test_superjack_prints_one_line():
    world = worlds.build_event(4, game="superjack", paired=False, judge=None)
    pdf = printed(world.event)
    assert page_count(pdf) == 1
    assert "there are no archetypes to compare" in "".join(pages_text(pdf))


def test_an_event_without_lists_says_so():
    world = worlds.build_event(4, paired=False, judge=None)
    pdf = printed(world.event)
    assert page_count(pdf) == 1
    assert "No submitted decklists yet: nothing to count." in "".join(pages_text(pdf))


def documents_text(pdf: bytes) -> list[str]:
    import io

    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
