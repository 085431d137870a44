"""Reading a rendered page against a shipped catalogue: which of the catalogue's English
strings are still on it, untranslated. A page in Japanese or German that shows one of
them has a string the template or the view did not pass through the catalogue."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parents[1] / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")
TAG = re.compile(r"<[^>]+>")
WORD = re.compile(r"[A-Za-z]{3,}")


def catalogue_path(language: str, domain: str = "django") -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def _fragments(msgid: str) -> list[str]:
    """The runs of text a page shows of ``msgid``, between its placeholders and tags."""
    parts = PLACEHOLDER.split(TAG.sub("\0", msgid))
    pieces = [p for part in parts for p in part.split("\0")]
    return [" ".join(p.split()) for p in pieces if WORD.search(p)]


def _has_words(text: str, fragment: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(fragment)}(?![\w])", text) is not None


@cache
def english_fragments(language: str) -> tuple[str, ...]:
    """Every piece of English the catalogues (pages' and scripts') translate into
    something else, longest first. A piece the language itself uses somewhere ("Top Cut",
    "Best of Three" in German) is not evidence of a missed string, so it is left out."""
    entries = [
        entry
        for domain in ("django", "djangojs")
        if catalogue_path(language, domain).exists()
        for entry in polib.pofile(str(catalogue_path(language, domain)))
        if not entry.obsolete and entry.msgid
    ]
    translated = " \n ".join(
        entry.msgstr or " ".join(entry.msgstr_plural.values()) for entry in entries
    )
    fragments = {
        fragment
        for entry in entries
        for msgid in filter(None, (entry.msgid, entry.msgid_plural))
        for fragment in _fragments(msgid)
    }
    kept = {fragment for fragment in fragments if not _has_words(translated, fragment)}
    return tuple(sorted(kept, key=len, reverse=True))


def english_left_on_page(text: str, language: str) -> list[str]:
    """The catalogue's English fragments found on the page as whole words."""
    page = " ".join(text.split())
    return [fragment for fragment in english_fragments(language) if _has_words(page, fragment)]
