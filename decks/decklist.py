"""Decklist text as players type or paste it: parse, resolve against a card pool, render, compare.

Pure (no Django): strings, iterables and small dataclasses in and out, so the registration
form, the deck-check screen, ``validate_decks`` and the benchmarks read a list the same way.

Accepted lines (one card a line; see ``parse``):

* ``4 Name``, ``4x Name``, ``4 x Name``, ``4X Name``, ``x4 Name`` (or a multiplication sign),
  ``4 - Name``, ``4: Name`` -- a leading count always wins, so ``1 Agent 47`` is one "Agent 47";
* ``Name x4``, ``Name x 4``, ``Name 4x``, ``Name (x4)`` -- a trailing count with an ``x``;
* ``Name 4`` or ``Name (4)`` -- read as four "Name" only by ``resolve``, and only when the pool
  has "Name" but no card called "Name 4": card names may end in a number ("Agent 47");
* ``4<TAB>Name`` / ``Name<TAB>4`` (spreadsheet paste), ``4,Name`` / ``Name,4`` / ``4,"Name, with
  comma"`` (CSV); a header row such as ``count,name`` or ``Quantity<TAB>Card`` is skipped;
* ``Name`` alone: one copy; ``4 "Name"``: the name exactly as written between the quotes;
* bullets and dashes before a line (``•``, ``-``, ``*``, ``+``, ``>``, en and em dashes, ...);
* set codes and collector numbers, which are not part of the name: ``4 Name (EMB) 10``,
  ``4 Name [EMB]``, ``4 Name (EMB) 10 *F*``, ``4 [EMB] Name`` (a code has a letter, so
  ``Name (4)`` is a count; a card whose name really ends in a code is written in quotes);
* blank lines and comments (``#`` or ``//`` at the start of a line) are skipped;
* headings, case-insensitive, optional colon and card count (``Sideboard (10)``, ``Deck: 60``),
  also marked up as in forum posts (``### Sideboard``, ``**Sideboard**``, ``// Sideboard``):
  ``Sideboard``/``Side board``/``SB`` switch to the sideboard, ``Main``/``Main deck``/
  ``Maindeck``/``Mainboard``/``Deck`` back to the main deck;
* ``SB: 2 Name`` puts that one line in the sideboard (MTGO ``.dec`` style).

A line that cannot be read becomes a ``Problem`` whose message says why and what was expected
(``str(problem)``: ``Line 7 "Ember Tith x": no count after the "x" -- expected a line like
"4 Ember Tith" or "Ember Tith x4".``).

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

# Messages in the active language: Django's gettext where settings are configured, the
# English as written elsewhere. web.inputs holds that one wrapper and, like this module,
# imports no Django (makemessages reads the ``_(...)`` calls here all the same).
from web.inputs import _

MAIN = "main"
SIDEBOARD = "sideboard"
ZONES: tuple[str, str] = (MAIN, SIDEBOARD)

MIN_COUNT = 1
MAX_COUNT = 99
MAX_NAME_LENGTH = 200  # Card.name's max_length
MAX_LINE_LENGTH = 1000  # longer lines are a problem, not parsed (bounds regex work)
SUGGESTIONS = 3
SUGGESTION_CUTOFF = 65.0  # one typo in a three-letter name still scores 66.7

COUNT_RULE = f"counts are whole numbers from {MIN_COUNT} to {MAX_COUNT}"  # as the messages say


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

    def __str__(self) -> str:
        """The whole sentence, for places that show a problem without its line and text."""
        return _('Line %(line)s "%(text)s": %(problem)s') % {
            "line": self.line,
            "text": self.text,
            "problem": self.message,
        }


@dataclass(slots=True)
class ParsedList:
    """What ``parse`` read: entries per zone (repeated names added up) and unreadable lines.

    ``counts_after`` holds the other reading of names such as "Ember Tithe 4" that ended in a
    bare number on lines without a count: ``(zone, card_key(name)) -> (shorter name, count)``.
    Only the pool can say which reading is meant, so ``resolve`` decides.
    """

    main: list[Entry] = field(default_factory=list)
    sideboard: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    counts_after: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)

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
_DASH = "[-\u2013\u2014]"
# "4 Name", "4x Name", "4: Name", "4 - Name"
_LEADING = re.compile(rf"({_NUMBER})(?:\s*{_X})?(?:\s*:|\s+{_DASH}+)?\s+(.+)")
_X_LEADING = re.compile(r"[x\u00d7]\s*(\d+)\s+(.+)")  # "x4 Name"; lowercase: "X2 Rocket" is a name
_TRAILING = re.compile(rf"(.*\S)\s+[(\[]?(?:{_X}\s*({_NUMBER})|({_NUMBER})\s*{_X})[)\]]?")
_COUNT_FIELD = re.compile(rf"(?:{_X}\s*)?({_NUMBER})(?:\s*{_X})?")
_NAME_THEN_NUMBER = re.compile(r"(.+?) \d+")
_NAME_THEN_COUNT = re.compile(r"(.+?) (?:(\d{1,2})|\((\d{1,2})\)|\[(\d{1,2})\])")
_DANGLING_X = re.compile(r"(.*\S) [x\u00d7]")  # "Ember Tithe x": the count was left off
_SB_PREFIX = re.compile(r"sb\s*:\s*(.*)", re.IGNORECASE)
_HEADING = re.compile(
    r"(?P<word>sideboard|side board|sb|main|main ?deck|main ?board|deck)\s*:?\s*"
    r"(?:[(\[]\s*\d+\s*(?:cards?)?\s*[)\]]|\d+\s*(?:cards?)?)?\s*:?",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"(?:#+|/{2,}|[*_]+)?\s*(.*?)\s*[*_]*", re.DOTALL)  # "### Sideboard"
# Bullets and dashes before a line: "• 4 Name", "- 4 Name", en and em dashes, squares, arrows.
_BULLETS = "\u2022\u00b7\u25cf\u25cb\u25aa\u25ab\u25a0\u25a1\u25e6\u2023\u2043\u25ba\u25b8"
_BULLET = re.compile(rf"(?:[{_BULLETS}\u2013\u2014]\s*|[-*+>]\s+)+")
# Set codes and collector numbers: "(EMB) 10", "[EMB]", "(EMB) 10a *F*", "[EMB] Name". A code
# has a letter and is not a count ("(4)", "(x4)").
_CODE = rf"[(\[]\s*(?!{_X}?\d+{_X}?\s*[)\]])(?=\d{{0,7}}[A-Za-z])[A-Za-z0-9]{{2,8}}\s*[)\]]"
_COLLECTOR = r"#?[A-Za-z]{0,3}\d{1,4}[A-Za-z]?(?:/\d{1,4})?"
_FOIL = r"\*[A-Za-z]{1,2}\*"
_NOT_NAME = (
    re.compile(rf"(.*?\S)\s*{_CODE}(?:\s+{_COLLECTOR})?(?:\s+{_FOIL})?"),
    re.compile(rf"(.*?\S)\s+{_FOIL}"),
    re.compile(rf"{_CODE}\s*(.+)"),
    re.compile(rf"(?:{_DASH}|:)\s+(.+)"),
)
_MAYBE_NOT_NAME = re.compile(r"[(\[*:\-\u2013\u2014]")  # a cheap test before the patterns
_SIDEBOARD_WORDS = frozenset({"sideboard", "side board", "sb"})
_HEADER_COUNT = frozenset({"count", "qty", "quantity", "amount", "number", "copies", "#", "n"})
_HEADER_NAME = frozenset({"name", "card", "card name", "cardname", "card_name", "title"})


def _example(name: str = "") -> str:
    """The card a problem's example line names: the player's own, else a placeholder."""
    # Translators: an example card name in "expected a line like "4 Card Name"".
    return name or _("Card Name")


def _not_whole(text: str) -> str:
    # Translators: %(text)s is what the player typed as a count. A message is followed by
    # "expected a line like ..." (see _count_problem).
    return _(
        "'%(text)s' is not a whole number: counts are whole numbers from %(min)d to %(max)d"
    ) % {"text": text, "min": MIN_COUNT, "max": MAX_COUNT}


def _count(text: str) -> int | str:
    """The count, or why it is not one (the start of a message for the player)."""
    if not text.isdecimal():  # the digits re.\d matches, which int() reads
        return _not_whole(text)
    try:
        value = int(text)
    except ValueError:  # pragma: no cover - \d and int() agree on digits
        return _not_whole(text)
    if not MIN_COUNT <= value <= MAX_COUNT:
        return _(
            "count %(count)d is out of range: counts are whole numbers from %(min)d to %(max)d"
        ) % {"count": value, "min": MIN_COUNT, "max": MAX_COUNT}
    return value


def _no_name() -> str:
    return _('a count but no card name — expected a line like "4 %(name)s".') % {"name": _example()}


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


def _too_many_columns(fields: list[str]) -> str:
    """Why a spreadsheet row with extra columns is not read, naming its own card if it can."""
    name = next((f for f in fields if not _count_in(f)), "")
    # Translators: %(count)d is always 3 or more (a row of two columns is read).
    return _(
        '%(count)d columns — expected two, the count and the card name, like "4<tab>%(name)s".'
    ) % {"count": len(fields), "name": _example(name)}


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
                return _too_many_columns(fields)
    match = _LEADING.fullmatch(text) or _X_LEADING.fullmatch(text)  # the usual lines first
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
        return _no_name()
    return None, text


def _name(text: str) -> tuple[str, bool]:
    """(the card name in ``text``, whether it was quoted): set codes, collector numbers and a
    separator left after the count are not part of a name; a quoted name is kept as written."""
    name = clean_name(text)
    if len(name) >= 2 and name[0] == name[-1] == '"':
        return clean_name(name[1:-1]), True
    # Until nothing more comes off, so a name read once reads the same when read again.
    while _MAYBE_NOT_NAME.search(name):
        match = next((m for p in _NOT_NAME if (m := p.fullmatch(name))), None)
        if match is None:
            break
        name = match.group(1)
    return name, False


def _heading(line: str) -> str | None:
    """The zone a heading line switches to (also ``### Sideboard``, ``**Main**``), or None."""
    inner = _MARKUP.fullmatch(line)
    heading = _HEADING.fullmatch(clean_name(inner.group(1) if inner else line))
    if heading is None:
        return None
    return SIDEBOARD if clean_name(heading.group("word")).casefold() in _SIDEBOARD_WORDS else MAIN


def _count_after(name: str) -> tuple[str, int] | None:
    """("Ember Tithe", 4) for a name such as "Ember Tithe 4" or "Ember Tithe (4)", else None."""
    match = _NAME_THEN_COUNT.fullmatch(name)
    if match is None:
        return None
    count = int(match.group(2) or match.group(3) or match.group(4))
    return (match.group(1), count) if MIN_COUNT <= count <= MAX_COUNT else None


def _count_problem(why: str, count_text: str, name: str, line: str) -> str:
    """A count that is not one: why, the line expected, and a hint when it may be a name."""
    # Translators: %(problem)s is why the count is not one ("'0.5' is not a whole number: ...").
    message = _('%(problem)s — expected a line like "4 %(name)s".') % {
        "problem": why,
        "name": _example(name),
    }
    if _LEADING.fullmatch(line) and count_text.isdecimal() and len(count_text) > 2:
        hint = _('If the number is part of the card name, put the count first: "1 %(line)s".')
        message += " " + hint % {"line": line}
    return message


def _decode(text: object) -> str:
    """Text from whatever a form, file or test hands over, without a byte-order mark."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        text = "" if text is None else str(text)
    return text[1:] if text.startswith("\ufeff") else text


def parse(text: str) -> ParsedList:
    """Read decklist text line by line; never raises: what it cannot read becomes a ``Problem``."""
    parsed = ParsedList()
    zones: dict[str, list[Entry]] = {MAIN: parsed.main, SIDEBOARD: parsed.sideboard}
    seen: dict[str, dict[str, int]] = {MAIN: {}, SIDEBOARD: {}}  # key -> index in the zone list
    after: dict[tuple[str, str], tuple[str, int, int]] = {}  # slot -> (name, count, lines)
    zone = MAIN
    for number, raw in enumerate(_LINE_BREAK.split(_decode(text)), start=1):
        line = raw.strip()
        if line and not "0" <= line[0] <= "9":
            bullet = _BULLET.match(line)
            if bullet:
                line = line[bullet.end() :]
        if not line:
            continue
        if line[0] == "#" or line.startswith("//"):  # a comment, unless it is a heading
            zone = _heading(line) or zone
            continue
        if len(line) > MAX_LINE_LENGTH:
            parsed.problems.append(
                Problem(
                    number,
                    line[:80] + "…",
                    _(
                        "longer than %(max)d characters — expected one card a line, "
                        'like "4 %(name)s".'
                    )
                    % {"max": MAX_LINE_LENGTH, "name": _example()},
                )
            )
            continue
        target = zone
        if "0" <= line[0] <= "9" and "\t" not in line:  # fast path: "4 Name", "4x Name"
            leading = _LEADING.fullmatch(line)
            read = leading.group(1, 2) if leading else _read_entry(line)
        else:
            if line[0] in "sSmMdD*_":  # the only first letters of a heading or an SB: prefix
                prefix = _SB_PREFIX.fullmatch(line)
                if prefix:
                    line = prefix.group(1)
                    if not line:
                        zone = SIDEBOARD
                        continue
                    target = SIDEBOARD
                else:
                    heading = _heading(line)
                    if heading:
                        zone = heading
                        continue
            read = _read_entry(line)
        if isinstance(read, str):
            if read:
                parsed.problems.append(Problem(number, raw.strip(), read))
            continue  # "" is a header row
        count_text, text_name = read
        name, quoted = _name(text_name)
        count = 1 if count_text is None else _count(count_text)
        problem = ""
        if isinstance(count, str):
            problem = _count_problem(count, count_text, name, line)
        elif count_text is None and not quoted and (dangling := _DANGLING_X.fullmatch(name)):
            short = dangling.group(1)
            problem = _(
                'no count after the "x" — expected a line like "4 %(name)s" or "%(name)s x4".'
            ) % {"name": short}
        elif not name:
            problem = _no_name()
        elif len(name) > MAX_NAME_LENGTH:
            problem = _("card name longer than %(max)d characters.") % {"max": MAX_NAME_LENGTH}
        if problem:
            parsed.problems.append(Problem(number, raw.strip(), problem))
            continue
        key = card_key(name)
        reading = _count_after(name) if count_text is None and not quoted else None
        if reading is not None:
            short, more = reading
            _short, total, lines = after.get((target, key), (short, 0, 0))
            after[(target, key)] = (short, total + more, lines + 1)
        entries, index = zones[target], seen[target]
        at = index.get(key)
        if at is None:
            index[key] = len(entries)
            entries.append(Entry(name, count, number))
        else:  # the same card on two lines (two arts, a typo'd duplicate): counts add up
            first = entries[at]
            entries[at] = Entry(first.name, first.count + count, first.line)
    parsed.counts_after = _counts_after(after, seen, zones)
    return parsed


def _counts_after(
    after: dict[tuple[str, str], tuple[str, int, int]],
    seen: dict[str, dict[str, int]],
    zones: dict[str, list[Entry]],
) -> dict[tuple[str, str], tuple[str, int]]:
    """The count-after readings of names every copy of which came from such a line: one
    ``1 Ember Tithe 4`` (an explicit count) means the name is meant whole."""
    return {
        (zone, key): (short, total)
        for (zone, key), (short, total, lines) in after.items()
        if zones[zone][seen[zone][key]].count == lines
    }


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
            for _match, score, i in process.extract(
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

    def _lookup(self, entry: Entry, reading: tuple[str, int] | None) -> tuple[Entry, str | None]:
        """The entry and its canonical name; "Ember Tithe 4" is four "Ember Tithe" only when
        the pool has no card of the whole name and has one of the shorter name."""
        canonical = self._by_key.get(card_key(entry.name))
        if canonical is None and reading is not None:
            short = self._by_key.get(card_key(reading[0]))
            if short is not None:
                return Entry(short, reading[1], entry.line), short
        return entry, canonical

    def _best_guess(
        self, entry: Entry, reading: tuple[str, int] | None
    ) -> tuple[Entry, tuple[str, ...]]:
        """An unknown entry and its suggestions. "Embr Tithe 4" is most likely four of a
        misspelt "Ember Tithe": when the shorter name's best suggestion is the closer match,
        the shorter name is the one reported, so fixing its spelling keeps the count."""
        hints = self.suggest(entry.name)
        if reading is None:
            return entry, hints
        short_hints = self.suggest(reading[0])
        if short_hints and (
            not hints
            or fuzz.ratio(card_key(reading[0]), card_key(short_hints[0]))
            > fuzz.ratio(card_key(entry.name), card_key(hints[0]))
        ):
            return Entry(reading[0], reading[1], entry.line), short_hints
        return entry, hints

    def resolve(self, parsed: DeckLike | Mapping[str, Any], *, suggest: bool = True) -> Resolution:
        """Rename entries to canonical pool names, merge, and list unknown names in input order.

        ``parsed`` is a ``ParsedList`` or stored JSON ``{"main": [...], "sideboard": [...]}``
        (re-validation needs no text). ``suggest=False`` skips the fuzzy search: bulk
        re-validation only needs to know that a name is unknown.
        """
        result = Resolution(problems=list(getattr(parsed, "problems", ())))
        readings = getattr(parsed, "counts_after", None) or {}
        for zone, out in ((MAIN, result.main), (SIDEBOARD, result.sideboard)):
            at: dict[str, int] = {}
            for listed in _entries(_zone(parsed, zone)):
                reading = readings.get((zone, card_key(listed.name))) if readings else None
                entry, canonical = self._lookup(listed, reading)
                if canonical is None:
                    entry, hints = self._best_guess(entry, reading) if suggest else (entry, ())
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
    with no name or a count below 1 are left out. A name that would not read back after its
    count (one ending in a set code, starting with ``x `` or a dash, or in quotes) is
    written in quotes, which ``parse`` keeps as written.
    """

    def lines(items: Iterable[Any]) -> list[str]:
        out = []
        for entry in _entries(items):
            name = clean_name(entry.name)
            if not name or entry.count < MIN_COUNT:
                continue
            written = name if _reads_back(name) else f'"{name}"'
            left = entry.count
            while left > 0:
                chunk = min(left, MAX_COUNT)
                out.append(f"{chunk} {written}")
                left -= chunk
        return out

    main_lines, side_lines = lines(main), lines(sideboard)
    parts = list(main_lines)
    if side_lines:
        if parts:
            parts.append("")
        parts += ["Sideboard", *side_lines]
    return "\n".join(parts) + "\n" if parts else ""


def _reads_back(name: str) -> bool:
    """Whether ``1 name`` parses as this very name (see ``render``)."""
    match = _LEADING.fullmatch(f"1 {name}")
    return match is not None and _name(match.group(2)) == (name, False)


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
