"""The rules texts as navigable documents, and where each citation points in them.

The texts in ``rules_engine/texts/`` are copies of the published rules. Each
game's reference is a list of blocks (headings, numbered rules, paragraphs)
with stable anchors, so a ruling's ``citations`` can link to ``/rules/<game>/#<anchor>``:

* Iacta comprehensive rules: the rule number itself (``905.1``; a section ``905``).
* Iacta quick-start: ``qs-`` and the heading's slug (``Quick-start: Scoring Combinations``).
* Superjack: the section number (``6.4``), sub-headings below it as
  ``6.4-trigger-condition``, appendices as ``appendix-a-stacking-and-marked-damage``.
* Dataclysm (no numbers): ``p`` and the paragraph's position; a ``Dataclysm: <topic>``
  citation points at the paragraph holding the first sentence of that topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TEXTS = Path(__file__).parent / "texts"


@dataclass(frozen=True)
class Block:
    kind: str  # "title", "heading", "rule" or "text"
    text: str
    anchor: str | None = None
    level: int = 0


@dataclass(frozen=True)
class Part:
    title: str
    source: str
    blocks: tuple[Block, ...]


GAME_TITLES = {"iacta": "Iacta", "superjack": "Superjack", "dataclysm": "Dataclysm"}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _paragraphs(name: str) -> list[str]:
    raw = (TEXTS / name).read_text(encoding="utf-8")
    return [line.strip() for line in raw.splitlines() if line.strip()]


_RULE = re.compile(r"^(\d{3})(\.(\d+[a-z]?))?\.?\s+(.*)$")


def _iacta_comprehensive() -> Part:
    blocks = []
    for line in _paragraphs("iacta-comprehensive-rules.txt"):
        match = _RULE.match(line)
        if not match:
            if blocks:  # the repeated document title at the end of the file is dropped
                continue
            blocks.append(Block("title", line))
            continue
        section, _, sub, body = match.groups()
        if sub is None:
            level = 1 if section.endswith("00") else 2
            blocks.append(Block("heading", f"{section}. {body}", section, level))
        else:
            blocks.append(Block("rule", line, f"{section}.{sub}"))
    return Part("Comprehensive Rules", "iacta-comprehensive-rules.txt", tuple(blocks))


def _looks_like_heading(line: str) -> bool:
    return (
        len(line) <= 40
        and "\t" not in line
        and not line.endswith((".", ":", "”", ","))
        and not line[0].isdigit()
    )


def _iacta_quickstart() -> Part:
    blocks = []
    for line in _paragraphs("iacta-quickstart.txt"):
        if _looks_like_heading(line):
            blocks.append(Block("heading", line, f"qs-{slug(line)}", 2))
        else:
            blocks.append(Block("text", line))
    return Part("Quick-start", "iacta-quickstart.txt", tuple(blocks))


_SJ_NUMBERED = re.compile(r"^(\d+(?:\.\d+)?)\.?\s+(.*)$")
_SJ_APPENDIX = re.compile(r"^APPENDIX ([A-Z]):\s*(.*)$", re.IGNORECASE)


def _superjack() -> Part:
    blocks: list[Block] = []
    parent = ""
    seen: set[str] = set()
    for line in _paragraphs("superjack-rules.txt"):
        if not line.endswith("#"):
            blocks.append(Block("text", line))
            continue
        heading = line.rstrip("#").strip()
        numbered = _SJ_NUMBERED.match(heading)
        appendix = _SJ_APPENDIX.match(heading)
        if appendix:
            parent = f"appendix-{appendix.group(1).lower()}"
            anchor, level = parent, 1
        elif numbered and not _is_step(heading, parent):
            parent = numbered.group(1)
            anchor, level = parent, 1 if "." not in parent else 2
        else:
            anchor, level = f"{parent}-{slug(heading)}" if parent else slug(heading), 3
        while anchor in seen:  # repeated sub-heading names under one section
            anchor += "-2"
        seen.add(anchor)
        blocks.append(Block("heading", heading, anchor, level))
    return Part("Superjack Rules", "superjack-rules.txt", tuple(blocks))


def _is_step(heading: str, parent: str) -> bool:
    """'1. Declare Attackers' under 4.2 is a step of that section, not section 1.

    Chapter headings are in capitals ('4. TURN STRUCTURE'); steps are not.
    """
    number, _, title = heading.partition(" ")
    return "." in parent and number.rstrip(".").isdigit() and not title.isupper()


def _dataclysm() -> Part:
    blocks = []
    for index, line in enumerate(_paragraphs("dataclysm-rules.txt"), start=1):
        if index == 1 and line == "Rules":
            blocks.append(Block("title", "Dataclysm Rules"))
        else:
            blocks.append(Block("rule", line, f"p{index}"))
    return Part("Dataclysm Rules", "dataclysm-rules.txt", tuple(blocks))


_BUILDERS = {
    "iacta": (_iacta_comprehensive, _iacta_quickstart),
    "superjack": (_superjack,),
    "dataclysm": (_dataclysm,),
}


@cache
def parts(game: str) -> tuple[Part, ...]:
    """The game's reference documents, parsed once per process."""
    if game not in _BUILDERS:
        raise KeyError(game)
    return tuple(build() for build in _BUILDERS[game])


@cache
def anchors(game: str) -> frozenset[str]:
    return frozenset(b.anchor for part in parts(game) for b in part.blocks if b.anchor)


def locate(citation: str) -> tuple[str, str] | None:
    """The (game, anchor) a citation string points at, or None if it names nothing known."""
    text = citation.strip()
    if re.fullmatch(r"\d{3}(\.\d+[a-z]?)?", text):
        return ("iacta", text) if text in anchors("iacta") else None
    if text.startswith("Quick-start:"):
        anchor = f"qs-{slug(text.split(':', 1)[1])}"
        return ("iacta", anchor) if anchor in anchors("iacta") else None
    if text.startswith("§"):
        return _locate_superjack_section(text[1:].strip())
    if text.lower().startswith("appendix"):
        return _locate_superjack_appendix(text)
    if text.startswith("Dataclysm:"):
        return _locate_dataclysm(text)
    return None


@cache
def _superjack_headings() -> dict[str, str]:
    """Short heading keys to anchors: '4.2-damage-resolution' for '4. Damage Resolution'
    under 4.2, 'appendix-c-version-2-3' for 'Version 2.3 (July 2026 — …)'."""
    index: dict[str, str] = {}
    for block in parts("superjack")[0].blocks:
        if block.kind != "heading" or block.level < 3:
            continue
        parent = (
            block.anchor.split("-")[0]
            if not block.anchor.startswith("appendix")
            else ("-".join(block.anchor.split("-")[:2]))
        )
        name = re.sub(r"^\d+\.\s+", "", block.text)
        name = re.sub(r"\s*\(.*\)$", "", name)
        index.setdefault(f"{parent}-{slug(name)}", block.anchor)
    return index


def _superjack_anchor(base: str, name: str) -> tuple[str, str] | None:
    key = f"{base}-{slug(name)}" if name else base
    known = anchors("superjack")
    for anchor in (key, _superjack_headings().get(key), base):
        if anchor in known:
            return ("superjack", anchor)
    return None


def _locate_superjack_section(text: str) -> tuple[str, str] | None:
    number, _, name = text.partition(" ")
    return _superjack_anchor(number, name)


def _locate_superjack_appendix(text: str) -> tuple[str, str] | None:
    match = re.match(r"appendix ([a-z])\s*[:.]?\s*(.*)$", text, re.IGNORECASE)
    if not match:
        return None
    return _superjack_anchor(f"appendix-{match.group(1).lower()}", match.group(2))


def _locate_dataclysm(citation: str) -> tuple[str, str] | None:
    from rules_engine.dataclysm.refs import SENTENCES

    sentences = SENTENCES.get(citation)
    if not sentences:
        return None
    first = sentences[0]
    for block in parts("dataclysm")[0].blocks:
        if block.anchor and first in block.text:
            return ("dataclysm", block.anchor)
    return None


def rule_text(citation: str) -> str | None:
    """What a citation points at, as the rules file says it now: a rule's own line, or a
    heading with everything under it. None for a citation the texts do not hold.

    Precedents keep this text when a ruling is kept, so a later edit of the rules file shows
    which rulings rest on a rule that changed.
    """
    found = locate(citation)
    return None if found is None else _text_at(*found)


@cache
def _text_at(game: str, anchor: str) -> str | None:
    for part in parts(game):
        for index, block in enumerate(part.blocks):
            if block.anchor != anchor:
                continue
            lines = [block.text]
            if block.kind == "heading":
                for below in part.blocks[index + 1 :]:
                    if below.kind in ("heading", "title") and below.level <= block.level:
                        break
                    lines.append(below.text)
            return "\n".join(lines)
    return None


def reload() -> None:
    """Read the rules files again (they were edited while this process ran)."""
    for cached in (parts, anchors, _superjack_headings, _text_at):
        cached.cache_clear()


def search(game: str, query: str, limit: int = 50) -> list[Block]:
    """Blocks whose text holds every word of ``query`` (case-insensitive)."""
    words = [w for w in query.lower().split() if w]
    if not words:
        return []
    found = []
    for part in parts(game):
        for block in part.blocks:
            if block.anchor and all(w in block.text.lower() for w in words):
                found.append(block)
                if len(found) >= limit:
                    return found
    return found
