"""The hall display: what a screen in the hall shows, and how its names are laid out.

A screen follows the event by itself (``hall_mode``): a paired round shows where to
sit, a running round the same with its clock, a closed round the standings, the top
cut its bracket. Several screens can split the names between them (``from``/``to``
letters) or show one thing each (``screen``). The pairings are one row per player,
sorted by name, cut into pages of columns that fit a 1920 x 1080 screen in type read
from five metres; the page turns by itself (static/js/hall.js) when there is more
than one. Plain data in and out: the view reads the rows and renders the pages.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from web.errors import ServiceError

SCREENS = ("auto", "pairings", "clock", "standings", "bracket", "winner")
SORTS = ("name", "surname")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# The layout static/css/hall.css is drawn for: rows of a column and columns of a page.
ROWS_PER_COLUMN = 13
COLUMNS = 2
DASH = "\N{EN DASH}"  # between the ends of a range: A-K, 1-26
PAGE_SECONDS = 12  # how long a page shows before the next
MIN_SECONDS, MAX_SECONDS = 3, 120
# Letters that do not decompose into a Latin letter and a mark, filed under the letter
# a reader looks for them at.
_FILED = {"Ł": "L", "Ø": "O", "Æ": "A", "Œ": "O", "Đ": "D", "Þ": "T", "ẞ": "S"}
FILED_UNDER = str.maketrans(_FILED | {k.lower(): v.lower() for k, v in _FILED.items()})


@dataclass(frozen=True)
class HallParams:
    """What one screen was asked to show (the query string, checked)."""

    screen: str = "auto"
    first: str = "A"
    last: str = "Z"
    sort: str = "name"
    seconds: int = PAGE_SECONDS

    @property
    def has_range(self) -> bool:
        return (self.first, self.last) != ("A", "Z")

    def as_query(self) -> dict[str, str]:
        """The parameters as a query string has them (``from``, ``to``…)."""
        return {
            "screen": self.screen,
            "from": self.first,
            "to": self.last,
            "sort": self.sort,
            "seconds": str(self.seconds),
        }

    def query(self) -> dict[str, str]:
        """The parameters that differ from the defaults, to repeat in the fragment's URL."""
        defaults = HallParams().as_query()
        return {k: v for k, v in self.as_query().items() if v != defaults[k]}


def _letter(query: Mapping[str, str], name: str, default: str) -> str:
    raw = query.get(name, "").strip()
    if not raw:
        return default
    letter = raw.upper()
    if len(letter) != 1 or letter not in LETTERS:
        raise ServiceError(
            _("The parameter '%(name)s' is one letter from A to Z (got %(got)s).")
            % {"name": name, "got": repr(raw[:20])},
            name,
        )
    return letter


def _choice(query: Mapping[str, str], name: str, choices: Sequence[str]) -> str:
    raw = query.get(name, "").strip()
    if not raw:
        return choices[0]
    if raw.lower() not in choices:
        raise ServiceError(
            _("The parameter '%(name)s' is one of %(choices)s (got %(got)s).")
            % {"name": name, "choices": ", ".join(choices), "got": repr(raw[:20])},
            name,
        )
    return raw.lower()


def _seconds(query: Mapping[str, str]) -> int:
    raw = query.get("seconds", "").strip()
    if not raw:
        return PAGE_SECONDS
    if not raw.isascii() or not raw.isdigit() or not MIN_SECONDS <= int(raw) <= MAX_SECONDS:
        raise ServiceError(
            _(
                "The parameter 'seconds' is a whole number from %(minimum)s to %(maximum)s "
                "(got %(got)s)."
            )
            % {"minimum": MIN_SECONDS, "maximum": MAX_SECONDS, "got": repr(raw[:20])},
            "seconds",
        )
    return int(raw)


def read_params(query: Mapping[str, str]) -> HallParams:
    """The screen's parameters from its query string; a ServiceError naming the first
    parameter that is wrong (the screen is set up once: one fix at a time is enough)."""
    first = _letter(query, "from", "A")
    last = _letter(query, "to", "Z")
    if first > last:
        raise ServiceError(
            _("The letter range runs from 'from' to 'to': %(first)s comes after %(last)s.")
            % {"first": first, "last": last},
            "from",
        )
    return HallParams(
        screen=_choice(query, "screen", SCREENS),
        first=first,
        last=last,
        sort=_choice(query, "sort", SORTS),
        seconds=_seconds(query),
    )


def hall_mode(
    event_status: str, round_status: str | None, in_top_cut: bool, cut_won: bool = False
) -> str:
    """What an ``auto`` screen shows: ``welcome`` before round 1, ``bracket`` once the
    top cut is paired, ``winner`` once its final has a winner (the hall's last word),
    ``standings`` between rounds and at the end of an event without a cut, and
    ``pairings`` while a round is paired or running (the clock shows above them then)."""
    if in_top_cut:
        return "winner" if cut_won else "bracket"
    if event_status == "finished":
        return "standings"
    if round_status is None:
        return "welcome"
    if round_status == "closed":
        return "standings"
    return "pairings"


def screen_mode(params: HallParams, auto: str) -> str:
    """The mode shown: the one asked for, or for ``auto`` the one the event is in."""
    return auto if params.screen == "auto" else params.screen


# --- names ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=65_536)  # a screen folds every name twice per request
def _plain(text: str) -> str:
    """Lower case without accents: the order a reader expects (Émile beside Emma)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(FILED_UNDER))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def split_name(display: str, last_name: str = "") -> tuple[str, str]:
    """(surname, given names) of a display name: the account's last name when the display
    name ends with it as a word, else the last word. One word is all surname."""
    display = " ".join(display.split())
    last_name = " ".join(last_name.split())
    folded, surname = display.casefold(), last_name.casefold()
    if surname and (folded == surname or folded.endswith(" " + surname)):
        given = display[: len(display) - len(last_name)].strip()
        return display[len(display) - len(last_name) :], given
    words = display.rsplit(" ", 1)
    if len(words) == 1:
        return display, ""
    return words[1], words[0]


def initial(text: str) -> str:
    """The letter A-Z a name is filed under, or "" for one that starts with none."""
    first = _plain(text.strip())[:1].upper()
    return first if first and first in LETTERS else ""


def in_letter_range(letter: str, first: str, last: str) -> bool:
    """Whether a name filed under ``letter`` is on the screen for ``first``-``last``.

    A name that starts with no letter A-Z goes on the screen that ends at Z, so every
    name is on some screen when the ranges cover the alphabet.
    """
    if not letter:
        return last == "Z"
    return first <= letter <= last


@dataclass(frozen=True)
class Person:
    """A player as the hall shows them: the display name, and the account's last name
    when there is one (to sort by surname)."""

    name: str
    last_name: str = ""


@dataclass(frozen=True)
class Seat:
    """One match as plain data: the table, its players and how far it is."""

    table: int | None
    player_a: Person
    player_b: Person | None
    is_bye: bool = False
    extension_minutes: int = 0
    has_result: bool = False


@dataclass(frozen=True)
class PairingRow:
    """One line of the pairings: a player, their table and their opponent."""

    shown: str  # the name as listed: "Lovelace, Ada" when sorted by surname
    letter: str
    table: int | None
    opponent: str  # "" for a bye
    is_bye: bool
    extension_minutes: int
    has_result: bool
    key: tuple = field(compare=False, repr=False, default=())


def _row(me: Person, opponent: Person | None, seat: Seat, sort: str) -> PairingRow:
    if sort == "surname":
        surname, given = split_name(me.name, me.last_name)
        shown = f"{surname}, {given}" if given else surname
        key = (_plain(surname), _plain(given))
    else:
        shown = " ".join(me.name.split())
        key = (_plain(shown),)
    return PairingRow(
        shown=shown,
        letter=initial(shown),
        table=None if seat.is_bye else seat.table,
        opponent="" if seat.is_bye or opponent is None else opponent.name,
        is_bye=seat.is_bye,
        extension_minutes=seat.extension_minutes,
        has_result=seat.has_result,
        key=(*key, shown, seat.table or 0),
    )


def pairing_rows(seats: Iterable[Seat], sort: str = "name") -> list[PairingRow]:
    """A row for each player of each match, in alphabetical order: names filed under no
    letter A-Z come last, in their own order."""
    rows = []
    for seat in seats:
        rows.append(_row(seat.player_a, seat.player_b, seat, sort))
        if seat.player_b is not None and not seat.is_bye:
            rows.append(_row(seat.player_b, seat.player_a, seat, sort))
    return sorted(rows, key=lambda r: (r.letter == "", r.key))


def letter_range_filter(rows: Iterable[PairingRow], first: str, last: str) -> list[PairingRow]:
    """The rows whose name is filed under a letter from ``first`` to ``last``."""
    return [row for row in rows if in_letter_range(row.letter, first, last)]


# --- pages ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """One screenful: columns of rows, what it runs over ("A-F", "1-26"), and the type
    size step its longest name needs (``type_step``; 0 is the largest)."""

    number: int
    of: int
    columns: list[list[Any]]
    letters: str = ""
    size: int = 0


def letters_of(rows: Sequence[PairingRow]) -> str:
    """The letters a page of pairings runs over: "A-F", "M" (an en dash on the screen);
    an ellipsis stands for names filed under no letter."""
    first = rows[0].letter or "\N{HORIZONTAL ELLIPSIS}"
    last = rows[-1].letter or "\N{HORIZONTAL ELLIPSIS}"
    return first if first == last else f"{first}{DASH}{last}"


def ranks_of(rows: Sequence[Mapping[str, Any]]) -> str:
    """The ranks a page of standings runs over: "1-26" (an en dash on the screen)."""
    first, last = rows[0]["rank"], rows[-1]["rank"]
    return str(first) if first == last else f"{first}{DASH}{last}"


def paged(
    rows: Sequence[Any],
    per_column: int = ROWS_PER_COLUMN,
    columns: int = COLUMNS,
    label: Callable[[Sequence[Any]], str] = letters_of,
) -> list[Page]:
    """The rows cut into pages of at most ``columns`` columns of ``per_column`` rows,
    filled column by column (reading order on a wall: down, then across), each page
    labelled with what it runs over. A page's rows are shared evenly between its
    columns, so a short round fills the screen's width rather than its left half. No
    rows: no page."""
    if per_column < 1 or columns < 1:
        raise ValueError("A page holds at least one row in one column.")
    size = per_column * columns
    chunks = [rows[i : i + size] for i in range(0, len(rows), size)]
    pages = []
    for number, chunk in enumerate(chunks, start=1):
        down = -(-len(chunk) // columns)  # rows a column: the page's rows shared evenly
        cols = [list(chunk[i : i + down]) for i in range(0, len(chunk), down)]
        pages.append(Page(number, len(chunks), cols, label(chunk)))
    return pages


# --- type that fits ------------------------------------------------------------------------

# The name sizes static/css/hall.css has (.hall-size-N), in vh: the first is read from
# five metres; smaller ones are for the pages whose longest name needs them.
TYPE_SIZES = (4.2, 3.8, 3.4, 3.0, 2.7, 2.4, 2.2, 2.0, 1.8)
# The layout hall.css draws, in vh of a 16:9 screen (1vw = 16/9 vh).
_VW = 16 / 9
_CONTENT = 96 * _VW  # the screen less its side padding (2vw each side)
_COLUMN_GAP = 3 * _VW
_ROWS_HEIGHT = 66.0  # the body less the column heads, page label and extra-time line
_LINE = 1.1  # line height of a row's text (the table number's too, at 1.1em and 1)
_ROW_PAD = 0.2  # a row's border
# Each kind of row: the cells beside the name (fixed, gaps included), and the share of
# what is left that the name has; the opponent's cell (pairings) is the rest, at 0.72em.
_ROW_LAYOUTS = {"pairings": (11 + 2 * 1.5, 1.3 / 2.3), "standings": (9 + 12 + 16 + 3 * 2, 1.0)}
_OPPONENT_SHARE, _OPPONENT_EM = 1 / 2.3, 0.72


def _char_em(char: str) -> float:
    """About how wide a character of a bold sans-serif face is, in em: an estimate on
    the safe side (the screen's script checks the real width and steps down if need be)."""
    if unicodedata.east_asian_width(char) in "WF":
        return 1.0
    if unicodedata.combining(char):
        return 0.0
    base = _plain(char)[:1] or char
    if base in " ilj.,;:'|!":
        return 0.3
    if base in "frtI-()":
        return 0.4
    if base in "mwMW@":
        return 0.92
    if char.isupper():
        return 0.74
    return 0.6


def text_em(text: str) -> float:
    """How wide ``text`` is on one line, in em (an estimate)."""
    return sum(_char_em(c) for c in text)


def _pieces(text: str) -> list[tuple[float, float]]:
    """Where a line may break: each piece's width with and without the space after it
    (a break falls after a space or a hyphen, and between wide characters)."""
    pieces, current = [], ""
    for char in " ".join(text.split()):
        wide = unicodedata.east_asian_width(char) in "WF"
        if wide and current:
            pieces.append(current)
            current = ""
        current += char
        if char in " -\N{EN DASH}" or wide:
            pieces.append(current)
            current = ""
    if current:
        pieces.append(current)
    return [(text_em(p), text_em(p.rstrip())) for p in pieces]


def lines_needed(text: str, width_em: float) -> int:
    """How many lines ``text`` takes in a cell ``width_em`` wide, broken where a browser
    breaks it (greedy, at spaces and hyphens); a piece wider than the cell counts as
    one more line than can be shown, so it is never accepted."""
    lines, used = 1, 0.0
    for whole, trimmed in _pieces(text):
        if trimmed > width_em:
            return 99
        if used and used + trimmed > width_em:
            lines, used = lines + 1, 0.0
        used += whole
    return lines


def type_step(
    names: Iterable[str],
    opponents: Iterable[str] = (),
    *,
    columns: int = COLUMNS,
    rows: int = ROWS_PER_COLUMN,
    kind: str = "pairings",
) -> int:
    """The largest of ``TYPE_SIZES`` (its index) at which every name of a page shows
    whole in at most two lines, and its ``rows`` rows a column still fit the screen's
    height: the type fits the page's longest name, never the name the page."""
    fixed, share = _ROW_LAYOUTS[kind]
    column = (_CONTENT - (max(columns, 1) - 1) * _COLUMN_GAP) / max(columns, 1)
    name_cell = (column - fixed) * share
    opponent_cell = (column - fixed) * _OPPONENT_SHARE if kind == "pairings" else 0.0
    names, opponents = list(names), list(opponents)
    for step, size in enumerate(TYPE_SIZES):
        lines = max((lines_needed(n, name_cell / size) for n in names), default=1)
        if opponent_cell:
            opponent_em = opponent_cell / (size * _OPPONENT_EM)
            lines = max(lines, *(lines_needed(o, opponent_em) for o in opponents), 1)
        row = lines * _LINE * size + _ROW_PAD
        if lines <= 2 and max(rows, 1) * row <= _ROWS_HEIGHT:
            return step
    return len(TYPE_SIZES) - 1


# The event's name in the top band: the sizes (.hall-title-N), and the band's width left
# to it beside the clock and the QR code, in vh.
TITLE_SIZES = (4.6, 3.6, 2.8, 2.2)
_TITLE_WIDTH = _CONTENT - 22 * _VW - 35 - 2 * 2.5 * _VW  # less the QR code, clock, gaps


def title_step(title: str) -> int:
    """The largest title size at which the event's name shows whole in two lines."""
    for step, size in enumerate(TITLE_SIZES):
        if lines_needed(title, _TITLE_WIDTH / size) <= (1 if step == 0 else 2):
            return step
    return len(TITLE_SIZES) - 1


# --- the bracket ---------------------------------------------------------------------------


def bracket_columns(cut_size: int, played: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """The top cut's columns left to right: the rounds paired so far (their matches as
    given), then the rounds still to come as empty slots, so the screen shows the whole
    way to the final. Each column is ``{"title", "matches", "count", "slots"}`` (``slots``:
    one None per match still to be paired)."""
    counts = []
    size = cut_size if cut_size >= 2 else 2 * len(played[0]) if played else 0
    while size >= 2:
        counts.append(size // 2)
        size //= 2
    if len(counts) < len(played):  # a cut paired differently from its size: show it as is
        counts = [len(matches) for matches in played]
    columns = []
    for index, count in enumerate(counts):
        matches = list(played[index]) if index < len(played) else []
        columns.append(
            {
                "title": round_title(len(matches) or count),
                "matches": matches,
                "count": max(count, len(matches)),
                "slots": [None] * max(0, count - len(matches)),
            }
        )
    return columns


def round_title(matches: int) -> str:
    """What the hall calls a top-cut round with this many matches."""
    if matches == 1:
        return _("Final")
    if matches == 2:
        return _("Semifinals")
    if matches == 4:
        return _("Quarterfinals")
    return _("Top %(players)s") % {"players": 2 * matches}


def clock_text(seconds_left: float) -> str:
    """The clock as static/js/round-clock.js writes it: "42:07", "+1:30" in overtime, so
    a refreshed screen shows the right time before the script's next tick."""
    left = round(seconds_left)
    sign = "+" if left < 0 else ""
    left = abs(left)
    return f"{sign}{left // 60}:{left % 60:02d}"


# The winner's name on the screen after the final (.hall-winner-N): across the screen.
WINNER_SIZES = (12.0, 9.0, 7.0, 5.5)


def winner_step(name: str) -> int:
    """The largest winner size at which the winner's name shows whole in two lines."""
    for step, size in enumerate(WINNER_SIZES):
        if lines_needed(name, _CONTENT / size) <= 2:
            return step
    return len(WINNER_SIZES) - 1
