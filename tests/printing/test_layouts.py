"""Printed documents: paper sizes, four slips a sheet, names and tables, QR codes, CJK
fonts, fingerprints, and chunks that join into the same document as one render."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
import zxingcpp
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from PIL import Image
from pypdf import PdfReader

from decks.models import Decklist
from judging.models import Penalty
from printing import documents
from printing.documents.base import script_lang
from printing.documents.slips import match_url
from printing.render import STATIC_PREFIX, StaticOnlyFetcher, join_pdfs, page_count
from tests.conftest import make_event, play_out
from tests.printing.pdf_fonts import fonts_in
from tournaments.models import Match
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

PAPER_POINTS = {"A4": (595, 842), "Letter": (612, 792)}
FORMATS = {"bo1": 1, "bo3": 3, "bo5": 5}


# --- helpers -------------------------------------------------------------------------------


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def page_sizes(pdf: bytes) -> set[tuple[int, int]]:
    return {
        (round(float(p.mediabox.width)), round(float(p.mediabox.height)))
        for p in PdfReader(io.BytesIO(pdf)).pages
    }


def embedded_fonts(pdf: bytes) -> dict[str, bool]:
    """BaseFont name → whether its font file is embedded, over pages and their forms."""
    found: dict[str, bool] = {}
    for font in fonts_in(pdf):
        descendant = (
            font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        )
        descriptor = descendant.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        found[str(font["/BaseFont"])] = any(
            key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")
        )
    return found


def render_all(kind: str, event, number: int | None) -> bytes:
    return documents.render_units(kind, event.pk, number, documents.plan(kind, event, number))


def seated(event, number: int) -> list[Match]:
    return list(
        Match.objects.filter(round__event=event, round__number=number)
        .select_related("player_a__user", "player_b__user")
        .order_by("is_bye", "table")
    )


@pytest.fixture
def round_one(make_world):
    """16 players, round 1 paired: 8 tables."""
    world = make_world(16, name="Print Open")
    return world.event, world.round


@pytest.fixture
def full_event(make_world, organiser, judge):
    """9 players (a bye), round 1 played, a submitted decklist and a penalty."""
    world = make_world(9, name="Paper Cup")
    event, round_ = world.event, world.round
    play_out(round_, organiser, "2-1")
    match = round_.matches.filter(is_bye=False).order_by("table").first()
    Decklist.objects.create(
        registration=match.player_a,
        main=[{"name": "Loaded Dice", "count": 4}, {"name": "Snake Eyes", "count": 40}],
        sideboard=[{"name": "Double Six", "count": 3}],
        status=Decklist.Status.SUBMITTED,
        submitted_at=timezone.now(),
    )
    Penalty.objects.create(
        event=event,
        round=round_,
        match=match,
        player=match.player_b,
        infraction="slow_play",
        judge=judge,
        game=2,
        notes="Took four minutes to roll.",
        consequences=[{"result": "game_loss", "game": 2, "rule": "905.1"}],
    )
    return event, round_


# --- layouts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("match_format", ["bo1", "bo3", "bo5"])
def test_slips_come_four_a_sheet_with_a_box_per_game(round_one, match_format, paper):
    event, _round = round_one
    event.match_format, event.print_paper = match_format, paper
    event.save()
    pdf = render_all("match_slips", event, 1)
    assert page_count(pdf) == 2  # 8 tables
    assert page_sizes(pdf) == {PAPER_POINTS[paper]}
    texts = pages_text(pdf)
    games = FORMATS[match_format]
    for text in texts:
        assert text.count("Drop Signature") == 4  # four slips a sheet, each signed by both
        assert f"Game {games} winner" in text and f"Game {games + 1} winner" not in text
    for i, match in enumerate(seated(event, 1)):
        a, b = match.player_a, match.player_b
        slip = (
            f"{match.table}\n{a.display_name}\n{a.player_number}\n"
            f"{b.display_name}\n{b.player_number}"
        )
        assert slip in texts[i // 4]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("match_format", ["bo1", "bo3", "bo5"])
def test_every_document_renders_on_the_events_paper(full_event, match_format, paper):
    event, _round = full_event
    event.match_format, event.print_paper = match_format, paper
    event.save()
    width, height = PAPER_POINTS[paper]
    expected = {
        "match_slips": "Scan to report the result",
        "pairings_by_name": "Pairings by name",
        "pairings_by_table": "Pairings by table",
        "standings": "After round 1",
        "decklist_blank": "Sideboard (1",
        "decklists": "Snake Eyes",
        "penalty_report": "Slow Play Warning",
        "metagame": "Metagame report",
    }
    for kind, words in expected.items():
        number = 1 if documents.needs_round(kind) else None
        pdf = render_all(kind, event, number)
        landscape = kind == "penalty_report"
        assert page_sizes(pdf) == {(height, width) if landscape else (width, height)}, kind
        assert page_count(pdf) == 1, kind  # nothing spills over, even on shorter Letter
        assert words in "".join(pages_text(pdf)), kind


def test_pairings_show_every_player_with_table_and_opponent(full_event):
    event, _round = full_event
    by_name = "\n".join(pages_text(render_all("pairings_by_name", event, 1)))
    by_table = "\n".join(pages_text(render_all("pairings_by_table", event, 1)))
    for match in seated(event, 1):
        a = match.player_a.display_name
        if match.is_bye:
            assert f"{a} — BYE" in by_name
            assert f"— {a} BYE" in by_table
            continue
        b = match.player_b.display_name
        assert f"{a} {match.table} {b}" in by_name
        assert f"{b} {match.table} {a}" in by_name
        assert f"{match.table} {a} {b}" in by_table
    names = [line.split(" ")[0] for line in by_name.splitlines() if line.startswith("P0")]
    assert names == sorted(names)  # by name, for finding oneself on the wall


def test_standings_rank_with_tiebreakers(full_event):
    event, _round = full_event
    lines = "\n".join(pages_text(render_all("standings", event, None))).splitlines()
    assert ["Rank", "Player", "No.", "Points", "Record", "OMW%", "GW%", "OGW%"] in [
        line.split() for line in lines
    ]
    rows = [line.split() for line in lines if line[:1].isdigit()]
    assert [row[0] for row in rows] == [str(rank) for rank in range(1, 10)]
    first = rows[0]  # a 2-1 winner: 3 points, 1-0-0, tiebreakers as percentages
    assert first[3:6] == ["3", "1-0-0", "33.33%"] and first[6] == "66.67%"
    assert "at least 33.33% (the 33% floor)" in " ".join(lines)


def test_qr_code_holds_the_match_result_address(round_one, tmp_path: Path):
    event, _round = round_one
    units = documents.plan("match_slips", event, 1)[:4]
    pdf_path = tmp_path / "slips.pdf"
    pdf_path.write_bytes(documents.render_units("match_slips", event.pk, 1, units))
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", "-singlefile", str(pdf_path), str(tmp_path / "page")],
        check=True,
    )
    decoded = {code.text for code in zxingcpp.read_barcodes(Image.open(tmp_path / "page.png"))}
    assert decoded == {match_url(event.pk, pk) for pk in units}
    assert match_url(event.pk, units[0]) == (
        f"{settings.SITE_URL}/events/{event.pk}/matches/{units[0]}/"
    )


def test_japanese_and_korean_names_print_with_embedded_cjk_fonts(round_one):
    event, _round = round_one
    first = seated(event, 1)[0]
    first.player_a.name, first.player_b.name = "山田太郎", "김민준"
    first.player_a.save()
    first.player_b.save()
    for kind in ("match_slips", "pairings_by_name"):
        pdf = render_all(kind, event, 1)
        text = "".join(pages_text(pdf))
        assert "山田太郎" in text and "김민준" in text, kind
        fonts = embedded_fonts(pdf)
        cjk = {name: embedded for name, embedded in fonts.items() if "Noto-Sans-CJK" in name}
        assert any("CJK-JP" in name for name in cjk), fonts
        assert any("CJK-KR" in name for name in cjk), fonts  # Hangul set in the Korean face
        assert all(fonts.values()), fonts  # every font embedded (subset), none referenced


# --- fingerprints, chunks, queries ----------------------------------------------------------


def test_fingerprint_changes_with_printed_data_only(round_one, organiser):
    event, round_ = round_one
    kinds = ["match_slips", "pairings_by_name", "pairings_by_table", "standings"]

    def prints() -> dict[str, str]:
        return {kind: documents.fingerprint(kind, event, 1) for kind in kinds}

    before = prints()
    assert prints() == before
    Match.objects.filter(round=round_).update(explanation="not printed")
    event.registrations.update(checked_in=False)
    assert prints() == before

    match = round_.matches.order_by("table").first()
    match.extension_minutes = 4
    match.save()
    extended = prints()
    assert extended["match_slips"] != before["match_slips"]
    assert extended["pairings_by_name"] == before["pairings_by_name"]

    results.enter_result(match, Score.parse("2-0"), organiser)
    scored = prints()
    assert scored["standings"] != extended["standings"]
    assert scored["match_slips"] == extended["match_slips"]  # slips print no results

    match.player_a.name = "Renamed Player"
    match.player_a.save()
    renamed = prints()
    assert all(renamed[kind] != scored[kind] for kind in kinds)

    event.print_paper = "Letter"
    assert documents.fingerprint("match_slips", event, 1) != renamed["match_slips"]


def test_chunks_joined_equal_one_render(organiser, monkeypatch):
    event = make_event(organiser, 20, name="Chunky Open")
    rounds.pair_next_round(event, organiser)
    units = documents.plan("match_slips", event, 1)
    whole = documents.render_units("match_slips", event.pk, 1, units)
    parts = [
        documents.render_units("match_slips", event.pk, 1, units[i : i + 4]) for i in (0, 4, 8)
    ]
    joined = join_pdfs(parts)
    assert page_count(joined) == page_count(whole) == 3  # 10 tables: 4 + 4 + 2
    assert pages_text(joined) == pages_text(whole)

    monkeypatch.setattr(documents.get("pairings_by_name"), "units_per_page", 6)
    seats = documents.plan("pairings_by_name", event, 1)
    whole = documents.render_units("pairings_by_name", event.pk, 1, seats)
    parts = [
        documents.render_units("pairings_by_name", event.pk, 1, seats[i : i + 6])
        for i in range(0, len(seats), 6)
    ]
    joined = join_pdfs(parts)
    assert page_count(joined) == page_count(whole) == 4  # 20 players, 6 a page
    assert pages_text(joined) == pages_text(whole)
    assert "Page 2 of 4" in pages_text(joined)[1]


def test_queries_stay_constant_whatever_the_number_of_units(full_event):
    event, _round = full_event
    event.refresh_from_db()  # as a print job reads it: the standings cached for it serve
    for kind in (document.name for document in documents.all_kinds()):
        number = 1 if documents.needs_round(kind) else None
        with CaptureQueriesContext(connection) as planned:
            units = documents.plan(kind, event, number)
        assert len(planned) <= (3 if kind == "standings" else 1), kind
        with CaptureQueriesContext(connection) as hashed:
            documents.fingerprint(kind, event, number)
        if kind == "metagame":
            # The first print counts the report (the field, read once a phase); later ones
            # read only its settings and the stamp of its cached reports.
            assert len(hashed) <= 16, kind
            with CaptureQueriesContext(connection) as hashed:
                documents.fingerprint(kind, event, number)
            assert len(hashed) <= 5, kind
        assert len(hashed) <= (5 if kind == "metagame" else 2), kind
        with CaptureQueriesContext(connection) as one:
            documents.render_units(kind, event.pk, number, units[:1])
        with CaptureQueriesContext(connection) as every:
            documents.render_units(kind, event.pk, number, units)
        assert len(one) == len(every), kind


def test_plans_follow_print_order_and_kinds_are_checked(round_one):
    event, _round = round_one
    matches = seated(event, 1)
    assert documents.plan("match_slips", event, 1) == [m.pk for m in matches]
    assert documents.plan("decklist_blank", event, None) == [0]
    # The print page's order, what each is printed for, and the chunk a job cuts it into.
    assert [(k.name, k.per_round, k.chunk) for k in documents.all_kinds()] == [
        ("match_slips", True, 40),
        ("pairings_by_name", True, 224),
        ("pairings_by_table", True, 224),
        ("standings", False, 200),
        ("decklist_blank", False, 1),
        ("decklists", False, 25),
        ("penalty_report", False, 1),
        ("metagame", False, 1),
    ]
    with pytest.raises(ValueError, match="Unknown print document"):
        documents.plan("posters", event, 1)
    with pytest.raises(ValueError, match="printed for a round"):
        documents.fingerprint("match_slips", event, None)


def test_a_sixty_card_list_of_singles_fits_one_letter_page(full_event):
    event, _round = full_event
    event.print_paper = "Letter"
    event.save()
    deck = Decklist.objects.get(registration__event=event)
    deck.main = [{"name": f"Single Card Number {n}", "count": 1} for n in range(1, 61)]
    deck.sideboard = [{"name": f"Spare {n}", "count": 1} for n in range(1, 16)]
    deck.save()
    pdf = render_all("decklists", event, None)
    assert page_count(pdf) == 1
    text = pages_text(pdf)[0]
    assert "Single Card Number 60" in text and "60 cards in the main deck" in text


def test_documents_fetch_only_static_files():
    fetcher = StaticOnlyFetcher()
    css = fetcher.fetch(STATIC_PREFIX + "print/print.css")
    assert b"Noto Sans CJK JP" in css.read()
    for url in (
        "https://example.org/tracker.png",
        "file:///etc/passwd",
        STATIC_PREFIX + "../arbiter/settings.py",
    ):
        with pytest.raises(ValueError, match="only use /static/"):
            fetcher.fetch(url)
    assert script_lang("김민준") == "ko"
    assert script_lang("やまだ") == "ja"
    assert script_lang("Zoë") == script_lang("山田太郎") == ""


def test_printed_standings_share_the_pages_cached_standings(full_event, monkeypatch):
    """Printing the standings does not compute them again: the page's cached rows serve."""
    from tournaments.models import Event
    from tournaments.record import standings
    from tournaments.record.history import EventHistory

    event, _round = full_event
    event = Event.objects.get(pk=event.pk)
    standings.standings_rows(event)  # what a standings page request leaves cached

    def computed_again(*args, **kwargs):
        raise AssertionError("the standings were computed again for the print")

    monkeypatch.setattr(EventHistory, "standings_rows", computed_again)
    lines = "\n".join(pages_text(render_all("standings", event, None)))
    assert "After round" in lines
