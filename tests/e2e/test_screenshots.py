"""The README's pictures of the other languages: a Japanese series page and a German page
of match slips. Run with ``ARBITER_SCREENSHOTS=docs/screenshots`` to rewrite the
committed files; otherwise they are made in a temporary folder and only checked."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from arbiter import worlds
from printing.documents import get as document_kind
from series import services
from tests.conftest import finished_event, make_user
from tournaments.event.local_time import event_times

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("Yuki", "Tanaka"),
    ("Hana", "Suzuki"),
    ("Ren", "Sato"),
    ("Aoi", "Ito"),
    ("Lena", "Becker"),
    ("Jonas", "Weber"),
    ("Mia", "Schulz"),
    ("Paul", "Wagner"),
    ("Sora", "Kato"),
    ("Emma", "Fischer"),
]


def out_dir(tmp_path: Path) -> Path:
    chosen = os.environ.get("ARBITER_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_japanese_series_page(browser, live_server, organiser, tmp_path):
    people = [
        make_user(f"{first.lower()}{i}", first_name=first, last_name=last)
        for i, (first, last) in enumerate(NAMES)
    ]
    one = finished_event(
        organiser, people[:8], "東京ウィンターリーグ 第1週", seed=7, time_zone="Asia/Tokyo"
    )
    two = finished_event(
        organiser, people[2:], "東京ウィンターリーグ 第2週", seed=8, time_zone="Asia/Tokyo"
    )
    series = services.create_series(
        organiser,
        [one, two],
        name="東京ウィンターリーグ",
        placing_points="1: 10, 2: 8, 3-4: 6, 5-8: 4",
        participation=1,
    )
    context = browser.new_context(locale="ja-JP", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/series/{series.pk}/")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert "順位" in page.locator("main").inner_text()
    target = out_dir(tmp_path) / "series-ja.png"
    page.screenshot(path=str(target), full_page=True)
    assert target.stat().st_size > 10_000
    context.close()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")
def test_a_german_page_of_match_slips(organiser, tmp_path):
    world = worlds.build_event(
        [
            f"Spieler {n}"
            for n in ("Anna", "Ben", "Clara", "David", "Eva", "Felix", "Greta", "Hans")
        ],
        organiser=organiser,
        judge=None,
        name="Berliner Frühjahrsturnier",
        accounts=False,
        time_zone="Europe/Berlin",
        paired=True,
    )
    event = world.event
    slips = document_kind("match_slips")
    units = slips.plan(event, 1)
    with translation.override("de"), event_times(event):
        pdf = slips.render(event, 1, units)
    folder = out_dir(tmp_path)
    (tmp_path / "slips.pdf").write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "slips.pdf"), "-"], capture_output=True, text=True
    ).stdout
    assert "Tisch" in text and "Table" not in text
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "80",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(tmp_path / "slips.pdf"),
            str(folder / "match-slip-de"),
        ],
        check=True,
    )
    assert (folder / "match-slip-de.png").stat().st_size > 10_000
