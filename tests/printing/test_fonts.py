"""Every name prints with real glyphs: slips, pairings, standings, decklists and the
penalty report for players named in Latin, Greek, Cyrillic, Japanese, Chinese, Korean,
Arabic, Hebrew, Thai, Devanagari and with emoji. Checked from the PDF itself: the text
layer holds every name, and every character is drawn by an embedded font that has a glyph
for it (never .notdef, never the "unknown glyph" Pango hands out when no installed font
has one, which prints as a box).

A database test, so it runs in both passes of scripts/test (SQLite and PostgreSQL)."""

from __future__ import annotations

import io
import subprocess
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.utils import timezone
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from decks.models import Decklist
from judging.models import Penalty
from printing import documents
from tests.conftest import play_out
from tests.printing.pdf_fonts import fonts_in
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

PACKAGES = Path(__file__).resolve().parents[2] / "deploy" / "print-packages.txt"
# A name in each script, and the face print.css should draw its letters with.
NAMES = {
    "Ada Lovelace": "DejaVu-Sans",
    "Αλέξανδρος": "DejaVu-Sans",
    "Дмитрий": "DejaVu-Sans",
    "山田太郎": "Noto-Sans-CJK-JP",
    "王秀英": "Noto-Sans-CJK",
    "김민준": "Noto-Sans-CJK-KR",
    "محمد": "Noto-Sans-Arabic",
    "דוד": "Noto-Sans-Hebrew",
    "สมชาย": "Noto-Sans-Thai",
    "अर्जुन": "Noto-Sans-Devanagari",
    "Zoë 🐉🎲": "Noto-Color-Emoji",  # the emoji; "Zoë" is DejaVu Sans
}
EVENT_NAME = "Cup 🏆 Кубок 杯"
KINDS = [
    "match_slips",
    "pairings_by_name",
    "pairings_by_table",
    "standings",
    "decklists",
    "penalty_report",
]


@dataclass(frozen=True)
class Drawn:
    """One glyph a PDF font draws, and the text its ToUnicode map says it stands for."""

    font: str  # BaseFont without the subset prefix, e.g. "Noto-Sans-Thai"
    glyph: int
    text: str
    missing: bool  # .notdef, or a glyph the embedded font does not have


def drawn_glyphs(pdf: bytes) -> list[Drawn]:
    """Every (font, glyph) in the PDF's fonts, on pages and in the forms they draw."""
    return [drawn for font in fonts_in(pdf) for drawn in _font_glyphs(font)]


def _font_glyphs(font) -> list[Drawn]:
    """A Type0 font's glyphs: WeasyPrint writes glyph ids as codes (Identity-H) and keeps
    the original ids in its subsets, so a code at or past the subset's glyph count is a
    glyph the font never had."""
    assert font["/Subtype"] == "/Type0" and font["/Encoding"] == "/Identity-H", font
    descendant = font["/DescendantFonts"][0].get_object()
    descriptor = descendant["/FontDescriptor"].get_object()
    program = next(descriptor[key] for key in ("/FontFile2", "/FontFile3") if key in descriptor)
    glyph_count = TTFont(io.BytesIO(program.get_object().get_data()))["maxp"].numGlyphs
    name = str(font["/BaseFont"]).split("+", 1)[-1]
    return [
        Drawn(name, code, text, code == 0 or code >= glyph_count)
        for code, text in _to_unicode(font["/ToUnicode"].get_object().get_data())
    ]


def _to_unicode(cmap: bytes) -> list[tuple[int, str]]:
    """The bfchar entries of a ToUnicode CMap (what WeasyPrint writes: one per glyph)."""
    entries: list[tuple[int, str]] = []
    text = cmap.decode("latin-1")
    for block in text.split("beginbfchar")[1:]:
        for line in block.split("endbfchar")[0].strip().splitlines():
            code, value = (part.strip("<> ") for part in line.split("> <"))
            entries.append((int(code, 16), bytes.fromhex(value).decode("utf-16-be")))
    assert "beginbfrange" not in text, "a ToUnicode range: extend _to_unicode"
    return entries


def inked(name: str) -> set[str]:
    """The characters of a name that need a glyph of their own."""
    return {c for c in name if not c.isspace()}


def letters(name: str) -> set[str]:
    """The characters that set a name's face: not marks, joiners or variation selectors
    (shaping may fold those into the glyph of the letter before), not Zoë's Latin."""
    return {c for c in inked(name) - set("Zoë") if unicodedata.category(c) not in ("Mn", "Cf")}


@pytest.fixture
def world_of_names(make_world, organiser, judge):
    """12 players, round 1 paired and played; eleven of them named in NAMES' scripts, each
    with a submitted decklist and a penalty (so every document prints every name)."""
    world = make_world(12, name=EVENT_NAME)
    play_out(world.round, organiser, "2-1")
    players = list(Registration.objects.filter(event=world.event).order_by("pk"))
    matches = {m.player_a_id: m for m in world.round.matches.all()}
    matches |= {m.player_b_id: m for m in world.round.matches.all() if m.player_b_id}
    for player, name in zip(players, NAMES, strict=False):
        player.name = name
        player.save()
        Decklist.objects.create(
            registration=player,
            main=[{"name": "Snake Eyes", "count": 40}],
            status=Decklist.Status.SUBMITTED,
            submitted_at=timezone.now(),
        )
        Penalty.objects.create(
            event=world.event,
            round=world.round,
            match=matches[player.pk],
            player=player,
            infraction="slow_play",
            judge=judge,
            game=1,
            consequences=[],
        )
    return world.event


def test_every_font_in_the_list_is_installed():
    """Without one of them the names below print in another face, or as boxes."""
    out = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=True)
    families = {family for line in out.stdout.splitlines() for family in line.split(",")}
    for family in ("DejaVu Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Thai"):
        assert family in families, f"{family} missing: install the packages in {PACKAGES}"
    for family in ("Noto Sans Devanagari", "Noto Sans CJK JP", "Noto Color Emoji"):
        assert family in families, f"{family} missing: install the packages in {PACKAGES}"


@pytest.mark.parametrize("kind", KINDS)
def test_names_in_every_script_print_with_real_glyphs(world_of_names, kind):
    event = world_of_names
    number = 1 if documents.needs_round(kind) else None
    pdf = documents.render_units(kind, event.pk, number, documents.plan(kind, event, number))

    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for name in NAMES:
        assert name in text, f"{name!r} not in the text of {kind}"

    glyphs = drawn_glyphs(pdf)
    faces: dict[str, set[str]] = defaultdict(set)
    for glyph in glyphs:
        for char in glyph.text:
            if not glyph.missing:
                faces[char].add(glyph.font)
    missing = {c for glyph in glyphs if glyph.missing for c in glyph.text}
    needed = set().union(*map(inked, NAMES)) | inked(EVENT_NAME)
    assert not missing & needed, f"{kind}: no glyph for {sorted(missing & needed)}"
    for name, face in NAMES.items():
        for char in letters(name):
            assert any(font.startswith(face) for font in faces[char]), (kind, char, faces[char])
