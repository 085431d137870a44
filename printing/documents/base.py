"""What every print document shares: the kind class, its two common layouts, helpers.

A document is printed as *units* (a match, a player, a page's worth of one piece) so a
big print job can be cut into chunks, rendered on several workers, and joined. Each
kind is one :class:`DocumentKind` subclass that says

* what it prints: :meth:`~DocumentKind.rows` (the printed data, shared by the
  fingerprint and the rendering) and :meth:`~DocumentKind.plan` (the units in print
  order; cheap, one query);
* what its fingerprint hashes (:meth:`~DocumentKind.printed`), so a reprint reuses the
  file until something printed changes;
* how it renders: its template (``print/<name>.html``) and :meth:`~DocumentKind.context`;
* its row layout: ``units_per_page`` and ``pages_per_chunk``. Every page holds a fixed
  number of units, so a chunk is a whole number of pages and page numbers ("Page 3 of
  9") are right once the chunks are joined. Queries stay constant whatever the number
  of units.
"""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from collections.abc import Iterable
from typing import Any, ClassVar

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from printing.render import render_pdf
from tournaments.models import Event, Match, Registration, Round

Rows = list[dict[str, Any]]
Head = dict[str, Any]

PAPER_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
DASH = "\u2013"  # en dash, for ranges


class DocumentKind:
    """One printable document: its plan, fingerprint, rendering and row layout.

    Subclass it (or :class:`PagedList`, :class:`SinglePiece`), set the class
    attributes, write :meth:`rows`, and put ``@register`` above the class: jobs, the
    print page and the samples then offer it.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""  # "Match slips": the print page's button, a list's heading
    per_round: ClassVar[bool] = False  # printed for one round (slips, pairings)
    landscape: ClassVar[bool] = False
    position: ClassVar[int] = 100  # where the print page lists it, smallest first
    # Bump when the layout changes what it prints, so fingerprints (and reused files) change.
    layout_version: ClassVar[int] = 1
    # Units that fill a page, and pages a chunk holds: a chunk is always whole pages.
    units_per_page: int = 1
    pages_per_chunk: int = 1

    @property
    def template(self) -> str:
        return f"print/{self.name}.html"

    @property
    def chunk(self) -> int:
        """Units a job renders in one task: whole pages, so joined parts number right."""
        return self.units_per_page * self.pages_per_chunk

    # --- what is printed ------------------------------------------------------------

    def rows(
        self, event: Event, round_number: int | None, units: set[int] | None
    ) -> tuple[Head, Rows]:
        """The page head and one dict per printed row (``"unit"`` its unit), for
        ``units`` only unless None (all): both the fingerprint and the pages use it."""
        raise NotImplementedError

    def plan(self, event: Event, round_number: int | None) -> list[int]:
        """The units to print, in print order."""
        return [row["unit"] for row in self.rows(event, round_number, None)[1]]

    def chunks(self, units: list[int]) -> list[list[int]]:
        """The plan cut into the pieces a job renders side by side (one, if empty)."""
        size = self.chunk
        return [units[i : i + size] for i in range(0, len(units), size)] or [[]]

    def printed(self, event: Event, round_number: int | None) -> Any:
        """What the fingerprint hashes: by default, every row the document prints."""
        return self.rows(event, round_number, None)

    def fingerprint(self, event: Event, round_number: int | None) -> str:
        """sha256 of what the document prints (with the paper, format and layout version)."""
        payload = {
            "kind": self.name,
            "layout": self.layout_version,
            "round": round_number,
            "data": self.printed(event, round_number),
        }
        encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(encoded.encode()).hexdigest()

    # --- how it is rendered -----------------------------------------------------------

    def wanted(self, units: list[int]) -> set[int] | None:
        """The units a chunk asks :meth:`rows` for (None: all of them)."""
        return set(units)

    def context(self, event: Event, rows: Rows, units: set[int] | None) -> dict[str, Any]:
        """What the template needs beyond the head and the sheet size."""
        return {"rows": rows}

    def page_size(self, event: Event) -> str:
        paper = event.print_paper if event.print_paper in PAPER_MM else "A4"
        return f"{paper} landscape" if self.landscape else paper

    def document(
        self, event: Event, round_number: int | None, units: list[int]
    ) -> tuple[str, dict[str, Any]]:
        """The chunk's HTML as WeasyPrint gets it, and the context it came from."""
        wanted = self.wanted(units)
        head, rows = self.rows(event, round_number, wanted)
        context = {"head": head, "page_size": self.page_size(event), "kind": self.name}
        context.update(self.context(event, rows, wanted))
        return render_to_string(self.template, context), context

    def render(self, event: Event, round_number: int | None, units: list[int]) -> bytes:
        """A PDF of just ``units`` (a chunk of :meth:`plan`), to be joined with the others."""
        return render_pdf(self.document(event, round_number, units)[0])


class SinglePiece(DocumentKind):
    """A document printed whole as one unit ``0``: a blank form, the penalty report."""

    def plan(self, event: Event, round_number: int | None) -> list[int]:
        return [0]

    def wanted(self, units: list[int]) -> set[int] | None:
        return None


class PagedList(DocumentKind):
    """A list for the wall (pairings, standings): rows cut into numbered pages.

    :meth:`rows` returns every row whatever a chunk asks for: a chunk prints only its
    own rows, but numbers its pages (and shades its rows) as in the whole list. The
    same rows per page on A4 and Letter (sized for Letter, the shorter sheet), so a
    chunk is a whole number of pages whatever the event's paper.
    """

    def page_range(self, rows: Rows) -> str:
        """What a page holds, for finding one's line on a wall of pages: "Abe to Dan"."""
        raise NotImplementedError

    def context(self, event: Event, rows: Rows, units: set[int] | None) -> dict[str, Any]:
        return self.pages(rows, units)

    def pages(self, rows: Rows, wanted: Iterable[int] | None) -> dict[str, Any]:
        """The chunk's rows cut into pages numbered as in the whole document."""
        per_page = self.units_per_page
        wanted = set(wanted) if wanted is not None else None
        pages: dict[int, Rows] = {}
        for index, row in enumerate(rows):
            if wanted is None or row["unit"] in wanted:
                pages.setdefault(index // per_page, []).append({**row, "shade": index % 2 == 1})
        return {
            "pages": [
                {"number": number + 1, "rows": page_rows, "range": self.page_range(page_rows)}
                for number, page_rows in sorted(pages.items())
            ],
            "total_pages": max(1, math.ceil(len(rows) / per_page)),
            "title": self.title,
        }


# --- helpers the kinds share ---------------------------------------------------------------


def script_lang(text: str) -> str:
    """The language to mark a name with, so print.css picks the matching face: "ko" for
    Hangul, "ja" for kana, "ar" for Arabic script, "he" for Hebrew, else "" (Han alone
    prints in the Japanese face; every other script finds its face in the main stack)."""
    if text.isascii():
        return ""
    for char in text:
        code = ord(char)
        if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            return "ko"
        if 0x3040 <= code <= 0x30FF:
            return "ja"
        script = unicodedata.name(char, "").split(" ", 1)[0]
        if script in ("ARABIC", "HEBREW"):
            return "ar" if script == "ARABIC" else "he"
    return ""


def person(registration: Registration) -> dict[str, str]:
    """A player as every document prints them: name, the event's short player number
    ("#23", what a judge asks for when two share a name; internal ids stay in the API
    and exports), script of the name."""
    name = registration.display_name
    return {"name": name, "number": registration.player_number, "lang": script_lang(name)}


def event_head(event: Event, **extra: Any) -> Head:
    """The head every page starts with (and the fingerprint includes: paper changes it)."""
    return {
        "event": event.name,
        "event_lang": script_lang(event.name),
        "paper": event.print_paper,
        "zone": event.time_zone,
        **extra,
    }


def round_matches(event: Event, round_number: int | None) -> QuerySet[Match]:
    return Match.objects.filter(round__event=event, round__number=round_number)


def round_label(number: int, kind: str | None) -> str:
    if kind == Round.Kind.TOP_CUT:
        return _("Round %(number)s (top cut)") % {"number": number}
    return _("Round %(number)s") % {"number": number}


def local_time(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def short(name: str, limit: int = 18) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"
