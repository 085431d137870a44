"""Decklist text as players type or paste it: parse, resolve against a card pool, render, compare.

Pure (no Django): strings, iterables and small dataclasses in and out, so the registration
form, the deck-check screen, ``validate_decks`` and the benchmarks read a list the same way.

Accepted lines (one card a line; see ``parse``):

* ``4 Name``, ``4x Name``, ``4 x Name``, ``4X Name`` (or a multiplication sign) -- a
  leading count always wins, so ``1 Agent 47`` is one "Agent 47";
* ``Name x4``, ``Name x 4``, ``Name 4x`` -- a trailing count needs an explicit ``x``: card names
  may end in a number, so ``Name 4`` is one card called "Name 4";
* ``4<TAB>Name`` / ``Name<TAB>4`` (spreadsheet paste), ``4,Name`` / ``Name,4`` / ``4,"Name, with
  comma"`` (CSV); a header row such as ``count,name`` or ``Quantity<TAB>Card`` is skipped;
* ``Name`` alone: one copy;
* blank lines and comments (``#`` or ``//`` at the start of a line) are skipped;
* headings, case-insensitive, optional colon and card count (``Sideboard (10)``, ``Deck: 60``):
  ``Sideboard``/``Side board``/``SB`` switch to the sideboard, ``Main``/``Main deck``/``Maindeck``/
  ``Mainboard``/``Deck`` back to the main deck;
* ``SB: 2 Name`` puts that one line in the sideboard (MTGO ``.dec`` style).

A blank line never starts the sideboard: players group their main deck with blank lines, and
guessing would silently move cards. A list pasted MTGO-style (sideboard after a blank line, no
heading) reads as one main deck, which Iacta's deck size (201.1: 40 to 60 cards) then flags
for a 60 + 10 list; the fix the player is told is to add a ``Sideboard`` heading.

Names are matched by ``card_key``: Unicode NFKC, case folded, curly/straight apostrophes alike,
hyphens and dashes read as spaces, zero-width characters dropped, whitespace collapsed. So
``ember tithe``, ``Ember-Tithe`` and ``EMBER  TITHE`` are one card, a curly-apostrophe
``Saint\u2019s Oath`` is ``Saint's Oath``.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from rapidfuzz import fuzz, process

MAIN = "main"
SIDEBOARD = "sideboard"
ZONES: tuple[str, str] = (MAIN, SIDEBOARD)

MIN_COUNT = 1
MAX_COUNT = 99
MAX_NAME_LENGTH = 200  # Card.name's max_length
MAX_LINE_LENGTH = 1000  # longer lines are a problem, not parsed (bounds regex work)
SUGGESTIONS = 3
SUGGESTION_CUTOFF = 65.0  # one typo in a three-letter name still scores 66.7

COUNT_RULE = f"counts are whole numbers from {MIN_COUNT} to {MAX_COUNT}"


# --------------------------------------------------------------------------- data


class Entry(NamedTuple):
    """Copies of one card: ``line`` is the 1-based line it first appeared on (0: not from text).

    A NamedTuple rather than a frozen dataclass: an event re-validation builds ~100,000 of
    them, and tuple construction is several times cheaper.
    """

    name: str
    count: int
    line: int = 0


@dataclass(frozen=True, slots=True)
class Problem:
    """A line that could not be read: shown next to the text box so the player can fix it."""

    line: int
    text: str
    message: str


@dataclass(slots=True)
class ParsedList:
    """What ``parse`` read: entries per zone (repeated names added up) and unreadable lines."""

    main: list[Entry] = field(default_factory=list)
    sideboard: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class Unknown:
    """An entry whose name is not in the pool, with up to three pool names it may have meant."""

    name: str
    count: int
    line: int
    zone: str
    suggestions: tuple[str, ...] = ()


@dataclass(slots=True)
class Resolution:
    """Entries renamed to the pool's canonical names; what did not resolve is in ``unknown``."""

    main: list[Entry] = field(default_factory=list)
    sideboard: list[Entry] = field(default_factory=list)
    unknown: list[Unknown] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every line read and every name known: ready for the rules engine."""
        return not self.unknown and not self.problems


class DeckLike(Protocol):
    """Anything with ``main`` and ``sideboard`` entry lists (ParsedList, Resolution)."""

    main: Sequence[Any]
    sideboard: Sequence[Any]


# --------------------------------------------------------------------------- name keys

_FOLD = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201b\u02bc\u02bb\u2032\u0060", "'"),
        **dict.fromkeys("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", " "),
        **dict.fromkeys("\u00ad\u200b\u200c\u200d\u2060\ufeff", None),
    }
)


@lru_cache(maxsize=1 << 16)
def card_key(name: str) -> str:
    """The matching key of a card name (see the module docstring); cached: names repeat a lot."""
    if not name.isascii():
        name = unicodedata.normalize("NFKC", name)
    return " ".join(name.casefold().translate(_FOLD).split())


def clean_name(name: str) -> str:
    """A name as shown and stored: no surrounding spaces, inner whitespace runs one space."""
    return " ".join(name.split())


# --------------------------------------------------------------------------- parse

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NUMBER = r"[+-]?\d+(?:\.\d+)?"  # wider than a count, so "0.5" or "-1" is reported, not a name
_X = "[xX\u00d7]"
_LEADING = re.compile(rf"({_NUMBER})(?:\s*{_X})?\s+(.+)")
_TRAILING = re.compile(rf"(.*\S)\s+(?:{_X}\s*({_NUMBER})|({_NUMBER})\s*{_X})")
_COUNT_FIELD = re.compile(rf"(?:{_X}\s*)?({_NUMBER})(?:\s*{_X})?")
_NAME_THEN_NUMBER = re.compile(r"(.+?) \d+")
_SB_PREFIX = re.compile(r"sb\s*:\s*(.*)", re.IGNORECASE)
_HEADING = re.compile(
    r"(?P<word>sideboard|side board|sb|main|main ?deck|main ?board|deck)\s*:?\s*"
    r"(?:[(\[]\s*\d+\s*(?:cards?)?\s*[)\]]|\d+\s*(?:cards?)?)?\s*:?",
    re.IGNORECASE,
)
_SIDEBOARD_WORDS = frozenset({"sideboard", "side board", "sb"})
_HEADER_COUNT = frozenset({"count", "qty", "quantity", "amount", "number", "copies", "#", "n"})
_HEADER_NAME = frozenset({"name", "card", "card name", "cardname", "card_name", "title"})


def _count(text: str) -> int | str:
    """The count, or why it is not one (a message for the player)."""
    if not text.isdecimal():  # the digits re.\d matches, which int() reads
        return f"'{text}' is not a whole number: {COUNT_RULE}."
    try:
        value = int(text)
    except ValueError:  # pragma: no cover - \d and int() agree on digits
        return f"'{text}' is not a whole number: {COUNT_RULE}."
    if not MIN_COUNT <= value <= MAX_COUNT:
        return f"Count {value} is out of range: {COUNT_RULE}."
    return value


def _split_fields(line: str, separator: str) -> list[str] | None:
    """The trimmed, non-empty columns of a tab- or comma-separated line (None: unreadable CSV)."""
    if separator == "\t":
        fields = line.split("\t")
    else:
        try:
            fields = next(csv.reader([line], skipinitialspace=True))
        except (csv.Error, StopIteration):
            return None
    return [cleaned for f in fields if (cleaned := clean_name(f))]  # empty columns dropped


def _is_header(fields: list[str]) -> bool:
    """A spreadsheet's header row (``count,name``, ``Quantity<TAB>Card``): skipped, not a card."""
    words = [f.casefold() for f in fields]
    return (
        len(words) >= 2
        and all(w in _HEADER_COUNT or w in _HEADER_NAME for w in words)
        and any(w in _HEADER_COUNT for w in words)
        and any(w in _HEADER_NAME for w in words)
    )


def _columns(fields: list[str]) -> tuple[str, str] | None:
    """(count text, name) from a two-column row with a count on either side, else None."""
    if len(fields) == 2:
        for count_at, name_at in ((0, 1), (1, 0)):
            match = _COUNT_FIELD.fullmatch(fields[count_at])
            if match:
                return match.group(1), fields[name_at]
    return None


def _count_in(field_text: str) -> str | None:
    """The number in a count column (``4``, ``4x``, ``x4``), or None."""
    match = _COUNT_FIELD.fullmatch(field_text.strip())
    return match.group(1) if match else None


def _read_entry(text: str) -> tuple[str | None, str] | str:
    """(count text or None for "one copy", name) from an entry line, or a problem message."""
    if "\t" in text:
        fields = _split_fields(text, "\t")
        if fields is not None:
            found = _columns(fields)
            if found is not None:
                return found
            if _is_header(fields):
                return ""
            if len(fields) > 2 and (_count_in(fields[0]) or _count_in(fields[-1])):
                return f"Expected two columns (count and card name), found {len(fields)}."
    match = _LEADING.fullmatch(text)  # the usual line: try it before collapsing whitespace
    if match:
        return match.group(1), match.group(2)
    text = clean_name(text)  # one space between words keeps _TRAILING's backtracking linear
    if "," in text:
        fields = _split_fields(text, ",")
        if fields:
            found = _columns(fields)
            if found is not None:
                return found
            if _is_header(fields):
                return ""
            if len(fields) > 2 and '"' not in text:  # 4,Name, with comma -- unquoted
                head, rest = text.split(",", 1)
                count_text = _count_in(head)
                if count_text:
                    return count_text, rest
                rest, tail = text.rsplit(",", 1)
                count_text = _count_in(tail)
                if count_text:
                    return count_text, rest
    match = _TRAILING.fullmatch(text)
    if match:
        return match.group(2) or match.group(3), match.group(1)
    if _COUNT_FIELD.fullmatch(text):
        return "A count but no card name."
    if len(text) >= 2 and text[0] == text[-1] == '"':  # "Name" on its own, CSV-quoted
        text = text[1:-1]
    return None, text


def parse(text: str) -> ParsedList:
    """Read decklist text line by line; never raises: what it cannot read becomes a ``Problem``."""
    parsed = ParsedList()
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        text = "" if text is None else str(text)
    if text.startswith("\ufeff"):
        text = text[1:]
    zones: dict[str, list[Entry]] = {MAIN: parsed.main, SIDEBOARD: parsed.sideboard}
    seen: dict[str, dict[str, int]] = {MAIN: {}, SIDEBOARD: {}}  # key -> index in the zone list
    zone = MAIN
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        line = raw.strip()
        if not line or line[0] == "#" or line.startswith("//"):
            continue
        if len(line) > MAX_LINE_LENGTH:
            parsed.problems.append(
                Problem(number, line[:80] + "…", f"Line longer than {MAX_LINE_LENGTH} characters.")
            )
            continue
        target = zone
        if "0" <= line[0] <= "9" and "\t" not in line:  # fast path: "4 Name", "4x Name"
            leading = _LEADING.fullmatch(line)
            read = leading.group(1, 2) if leading else _read_entry(line)
        else:
            if line[0] in "sSmMdD":  # the only letters a heading or SB: prefix starts with
                prefix = _SB_PREFIX.fullmatch(line)
                if prefix:
                    line = prefix.group(1)
                    if not line:
                        zone = SIDEBOARD
                        continue
                    target = SIDEBOARD
                else:
                    heading = _HEADING.fullmatch(clean_name(line))
                    if heading:
                        word = clean_name(heading.group("word")).casefold()
                        zone = SIDEBOARD if word in _SIDEBOARD_WORDS else MAIN
                        continue
            read = _read_entry(line)
        if isinstance(read, str):
            if read:
                parsed.problems.append(Problem(number, raw.strip(), read))
            continue  # "" is a header row
        count_text, name = read
        name = clean_name(name)
        count: int | str = 1 if count_text is None else _count(count_text)
        if isinstance(count, str):
            if _LEADING.fullmatch(line) and count_text.isdecimal() and len(count_text) > 2:
                count += (
                    f' If the number is part of the card name, put the count first: "1 {line}".'
                )
            parsed.problems.append(Problem(number, raw.strip(), count))
            continue
        if not name:
            parsed.problems.append(Problem(number, raw.strip(), "A count but no card name."))
            continue
        if len(name) > MAX_NAME_LENGTH:
            parsed.problems.append(
                Problem(number, raw.strip(), f"Card name longer than {MAX_NAME_LENGTH} characters.")
            )
            continue
        key = card_key(name)
        entries, index = zones[target], seen[target]
        at = index.get(key)
        if at is None:
            index[key] = len(entries)
            entries.append(Entry(name, count, number))
        else:  # the same card on two lines (two arts, a typo'd duplicate): counts add up
            first = entries[at]
            entries[at] = Entry(first.name, first.count + count, first.line)
    return parsed


# --------------------------------------------------------------------------- resolve


class PoolIndex:
    """A card pool's names by key, built once and reused for every list of an event.

    Exact (keyed) lookups are a dict hit; suggestions for unknown names are computed with
    rapidfuzz only on a miss and cached, since the same misspelling recurs across players.
    """

    __slots__ = ("_by_key", "_keys", "_names", "_suggested", "collisions", "score_cutoff")

    def __init__(self, pool_names: Iterable[str], *, score_cutoff: float = SUGGESTION_CUTOFF):
        self._by_key: dict[str, str] = {}
        self.collisions: list[tuple[str, str]] = []  # (kept, dropped): same key, two names
        self.score_cutoff = score_cutoff
        for raw in pool_names:
            name = clean_name(raw)
            if not name:
                continue
            key = card_key(name)
            kept = self._by_key.setdefault(key, name)
            if kept != name:
                self.collisions.append((kept, name))
        self._keys = list(self._by_key)
        self._names = list(self._by_key.values())
        self._suggested: dict[str, tuple[str, ...]] = {}

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and card_key(name) in self._by_key

    def canonical(self, name: str) -> str | None:
        """The pool's spelling of ``name``, or None when it is not in the pool."""
        return self._by_key.get(card_key(name))

    def suggest(self, name: str, limit: int = SUGGESTIONS) -> tuple[str, ...]:
        """Up to ``limit`` (at most 3) pool names close to ``name``, best first ("did you mean").

        Scored by the better of Indel ``ratio`` (typos) and ``token_sort_ratio`` (words
        swapped), ties broken by ratio then name; a name with a stray trailing number
        ("Ember Tithe 4", a count typed after the name without ``x``) suggests the name first.
        """
        key = card_key(name)
        cached = self._suggested.get(key)
        if cached is None:
            cached = self._suggestions(key)
            if len(self._suggested) > 4096:
                self._suggested.clear()
            self._suggested[key] = cached
        return cached[:limit]

    def _suggestions(self, key: str) -> tuple[str, ...]:
        if not key or not self._keys:
            return ()
        scores: dict[int, tuple[float, float]] = {}
        for scorer in (fuzz.ratio, fuzz.token_sort_ratio):
            for _, score, i in process.extract(
                key,
                self._keys,
                scorer=scorer,
                processor=None,
                limit=SUGGESTIONS * 3,
                score_cutoff=self.score_cutoff,
            ):
                best = max(score, scores.get(i, (0.0, 0.0))[0])
                scores[i] = (best, fuzz.ratio(key, self._keys[i]))
        ranked = sorted(scores, key=lambda i: (-scores[i][0], -scores[i][1], self._keys[i]))
        names = [self._names[i] for i in ranked]
        head = _NAME_THEN_NUMBER.fullmatch(key)
        if head and head.group(1) in self._by_key:
            first = self._by_key[head.group(1)]
            names = [first, *(n for n in names if n != first)]
        return tuple(names[:SUGGESTIONS])

    def resolve(self, parsed: DeckLike | Mapping[str, Any], *, suggest: bool = True) -> Resolution:
        """Rename entries to canonical pool names, merge, and list unknown names in input order.

        ``parsed`` is a ``ParsedList`` or stored JSON ``{"main": [...], "sideboard": [...]}``
        (re-validation needs no text). ``suggest=False`` skips the fuzzy search: bulk
        re-validation only needs to know that a name is unknown.
        """
        result = Resolution(problems=list(getattr(parsed, "problems", ())))
        for zone, out in ((MAIN, result.main), (SIDEBOARD, result.sideboard)):
            at: dict[str, int] = {}
            for entry in _entries(_zone(parsed, zone)):
                canonical = self._by_key.get(card_key(entry.name))
                if canonical is None:
                    hints = self.suggest(entry.name) if suggest else ()
                    result.unknown.append(Unknown(entry.name, entry.count, entry.line, zone, hints))
                    continue
                i = at.get(canonical)
                if i is None:
                    at[canonical] = len(out)
                    out.append(Entry(canonical, entry.count, entry.line))
                else:
                    first = out[i]
                    out[i] = Entry(canonical, first.count + entry.count, first.line)
        result.unknown.sort(key=lambda u: u.line)  # input order across both zones
        return result


def resolve(
    parsed: DeckLike | Mapping[str, Any],
    pool_names: Iterable[str] | PoolIndex,
    *,
    suggest: bool = True,
) -> Resolution:
    """Resolve ``parsed`` against a pool; pass a ``PoolIndex`` to reuse it across many lists."""
    index = pool_names if isinstance(pool_names, PoolIndex) else PoolIndex(pool_names)
    return index.resolve(parsed, suggest=suggest)


# --------------------------------------------------------------------------- render, payloads


def _entries(items: Iterable[Any]) -> Iterable[Entry]:
    """Entries from Entry objects or ``{"name", "count"}`` mappings; malformed items skipped."""
    for item in items or ():
        if isinstance(item, Entry):
            yield item
            continue
        try:
            if isinstance(item, Mapping):
                name, count, line = item["name"], item["count"], item.get("line", 0)
            else:
                name, count, line = item.name, item.count, getattr(item, "line", 0)
            if isinstance(name, str) and not isinstance(count, bool):
                yield Entry(name, int(count), int(line or 0))
        except (KeyError, AttributeError, TypeError, ValueError):
            continue


def render(main: Iterable[Any], sideboard: Iterable[Any] = ()) -> str:
    """Canonical text: ``4 Name`` lines, then a ``Sideboard`` heading; ``parse`` reads it back.

    Counts over 99 are written on several lines (they add up again when parsed); entries
    with no name or a count below 1 are left out. A name starting with ``x `` is written
    ``1x x Name`` so the ``x`` is not read as the count separator.
    """

    def lines(items: Iterable[Any]) -> list[str]:
        out = []
        for entry in _entries(items):
            name = clean_name(entry.name)
            if not name or entry.count < MIN_COUNT:
                continue
            sep = "x " if len(name) > 1 and name[0] in "xX\u00d7" and name[1] == " " else " "
            left = entry.count
            while left > 0:
                chunk = min(left, MAX_COUNT)
                out.append(f"{chunk}{sep}{name}")
                left -= chunk
        return out

    main_lines, side_lines = lines(main), lines(sideboard)
    parts = list(main_lines)
    if side_lines:
        if parts:
            parts.append("")
        parts += ["Sideboard", *side_lines]
    return "\n".join(parts) + "\n" if parts else ""


def to_payload(entries: Iterable[Any]) -> list[dict[str, Any]]:
    """Entries in the rules engine's shape: ``[{"name": ..., "count": ...}]``."""
    return [{"name": e.name, "count": e.count} for e in _entries(entries)]


def deck_payload(deck: DeckLike | Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """``{"main": [...], "sideboard": [...]}`` for deck-legality / sideboard-swap payloads."""
    return {zone: to_payload(_zone(deck, zone)) for zone in ZONES}


def from_payload(items: Iterable[Any]) -> list[Entry]:
    """Entries from stored ``[{"name", "count"}]`` JSON (e.g. ``Decklist.main``)."""
    return list(_entries(items))


def _zone(deck: DeckLike | Mapping[str, Any], zone: str) -> Iterable[Any]:
    if isinstance(deck, Mapping):
        return deck.get(zone) or ()
    return getattr(deck, zone, ()) or ()


# --------------------------------------------------------------------------- deck checks


def difference(
    registered: DeckLike | Mapping[str, Any], presented: DeckLike | Mapping[str, Any]
) -> list[dict[str, Any]]:
    """What a deck check found: per zone and card, registered vs presented count where they differ.

    Cards match by ``card_key``; the registered spelling is shown when there is one. Sorted by
    zone (main first) then name. Each row: ``zone``, ``name``, ``registered``, ``presented``
    and ``delta`` (presented minus registered).
    """
    rows: list[dict[str, Any]] = []
    for zone in ZONES:
        tally: dict[str, list[Any]] = {}  # key -> [name, registered, presented]
        for side, deck in ((1, registered), (2, presented)):
            for entry in _entries(_zone(deck, zone)):
                key = card_key(entry.name)
                row = tally.setdefault(key, [clean_name(entry.name), 0, 0])
                row[side] += entry.count
        for key in sorted(tally, key=lambda k: (k, tally[k][0])):
            name, was, now = tally[key]
            if was != now:
                rows.append(
                    {
                        "zone": zone,
                        "name": name,
                        "registered": was,
                        "presented": now,
                        "delta": now - was,
                    }
                )
    return rows
