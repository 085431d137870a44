"""Every printable document of an event, described in one place.

Each kind is printed as *units* (a match, a player, a page's worth of one piece) so a
big print job can be cut into chunks, rendered on several workers, and joined:

* :func:`plan` lists the units in print order (cheap: one query; standings three);
* :func:`fingerprint` hashes exactly the data the document prints, so a reprint can
  reuse the file until something printed changes (one or two queries);
* :func:`render_units` renders some units to PDF; :data:`CHUNK` is how many units a
  chunk holds. Queries stay constant whatever the number of units.

Every page holds a fixed number of units (:data:`UNITS_PER_PAGE`: four slips, 28 or
40 list rows, one decklist), so a chunk of ``CHUNK[kind]`` units is a whole number of
pages and page numbers ("Page 3 of 9") are right once the chunks are joined. Slice
plans from the start into pieces of ``CHUNK[kind]`` (or any multiple of
``UNITS_PER_PAGE[kind]``); other slices still number pages right but leave part-filled
pages where they meet.

Match slips are drawn in two layers: the frame that every slip of a round shares is
rendered once per worker and stamped under each sheet (``render.stamp``).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

import segno
from django.conf import settings
from django.db.models import Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from decks.models import Decklist
from judging.reports import consequence_text, infraction_label
from printing.render import render_pdf, stamp
from printing.render import warm_up as warm_fonts
from tournaments.history import standings_rows
from tournaments.models import Event, Match, MatchFormat, Registration, Round

KINDS: dict[str, str] = {
    "match_slips": "Match slips",
    "pairings_by_name": "Pairings by name",
    "pairings_by_table": "Pairings by table",
    "standings": "Standings",
    "decklist_blank": "Decklist registration form (blank)",
    "decklists": "Registered decklists",
    "penalty_report": "Penalty report",
}
ROUND_KINDS = frozenset({"match_slips", "pairings_by_name", "pairings_by_table"})
SINGLE_PIECE = frozenset({"decklist_blank", "penalty_report"})

SLIPS_PER_PAGE = 4
# The same rows per page on A4 and Letter (sized for Letter, the shorter sheet), so a
# chunk is a whole number of pages whatever the event's paper.
ROWS_PER_PAGE = {"pairings_by_name": 28, "pairings_by_table": 28, "standings": 40}
# Units that fill a page: chunk sizes must be multiples of these, or the joined
# document gets part-filled pages where the chunks meet.
UNITS_PER_PAGE: dict[str, int] = {"match_slips": SLIPS_PER_PAGE, **ROWS_PER_PAGE}
CHUNK: dict[str, int] = {
    "match_slips": 10 * SLIPS_PER_PAGE,
    "pairings_by_name": 8 * ROWS_PER_PAGE["pairings_by_name"],
    "pairings_by_table": 8 * ROWS_PER_PAGE["pairings_by_table"],
    "standings": 5 * ROWS_PER_PAGE["standings"],
    "decklist_blank": 1,
    "decklists": 25,
    "penalty_report": 1,
}
# Bump when a layout changes what it prints, so fingerprints (and reused files) change.
LAYOUT_VERSION = 1

BLANK_MAIN_LINES = 60
BLANK_SIDEBOARD_LINES = 15
DECK_COLUMN_LINES = 40

PAPER_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 8.0
QR_MASK = 2
DASH = "\u2013"  # en dash, for ranges
GAMES = {MatchFormat.BO1: 1, MatchFormat.BO3: 3, MatchFormat.BO5: 5}

Rows = list[dict[str, Any]]


# --- public interface -------------------------------------------------------------------


def needs_round(kind: str) -> bool:
    """Slips and pairings are per round; the rest are per event."""
    _check_kind(kind)
    return kind in ROUND_KINDS


def plan(kind: str, event: Event, round_number: int | None) -> list[int]:
    """The units to print, in order: match ids (slips, pairings by table), registration
    ids (pairings by name, standings, decklists), or ``[0]`` for single-piece documents."""
    _check(kind, round_number)
    if kind in SINGLE_PIECE:
        return [0]
    if kind == "match_slips":
        return list(
            _round_matches(event, round_number)
            .filter(is_bye=False)
            .order_by("table", "pk")
            .values_list("pk", flat=True)
        )
    if kind == "pairings_by_table":
        # Byes have no table: they close the list.
        return list(
            _round_matches(event, round_number)
            .order_by("is_bye", "table", "pk")
            .values_list("pk", flat=True)
        )
    if kind == "standings":
        return [row["registration"] for row in standings_rows(event, round_number)]
    _head, rows = ROWS[kind](event, round_number, None)
    return [row["unit"] for row in rows]


def fingerprint(kind: str, event: Event, round_number: int | None) -> str:
    """sha256 of what the document prints (with the paper, format and layout version)."""
    _check(kind, round_number)
    if kind == "standings":
        data: Any = _standings_source(event, round_number)
    else:
        data = ROWS[kind](event, round_number, None)
    payload = {"kind": kind, "layout": LAYOUT_VERSION, "round": round_number, "data": data}
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(encoded.encode()).hexdigest()


def render_units(kind: str, event_id: int, round_number: int | None, units: list[int]) -> bytes:
    """A PDF of just ``units`` (a chunk of :func:`plan`), to be joined with the others."""
    _check(kind, round_number)
    event = Event.objects.get(pk=event_id)
    html, context = _document(kind, event, round_number, units)
    pdf = render_pdf(html)
    if kind == "match_slips" and context["sheets"]:
        # The frame of a sheet of k slips (a last sheet may hold fewer than four).
        frames = {len(sheet) for sheet in context["sheets"]}
        frame_of = {
            count: _frame_pdf(
                render_to_string("print/match_slip_frame.html", {**context, "slots": range(count)})
            )
            for count in frames
        }
        pdf = stamp(pdf, [frame_of[len(sheet)] for sheet in context["sheets"]])
    return pdf


def render_html(kind: str, event: Event, round_number: int | None, units: list[int]) -> str:
    """The chunk's HTML as WeasyPrint gets it (for slips: the names layer, not the frame)."""
    _check(kind, round_number)
    return _document(kind, event, round_number, units)[0]


def _document(
    kind: str, event: Event, round_number: int | None, units: list[int]
) -> tuple[str, dict[str, Any]]:
    wanted = None if kind in SINGLE_PIECE else set(units)
    head, rows = ROWS[kind](event, round_number, wanted)
    context: dict[str, Any] = {"head": head, "page_size": _page_size(kind, event), "kind": kind}
    if kind == "match_slips":
        context.update(_slip_context(event, rows))
    elif kind in ROWS_PER_PAGE:
        context.update(_pages(kind, rows, wanted))
    elif kind == "decklist_blank":
        context.update(_blank_context())
    elif kind == "decklists":
        context["rows"] = [{**row, "columns": _deck_columns(row)} for row in rows]
    else:
        context["rows"] = rows
    return render_to_string(f"print/{kind}.html", context), context


@lru_cache(maxsize=16)
def _frame_pdf(html: str) -> bytes:
    """A sheet's slip frame, rendered once per worker and round (keyed by its exact HTML)."""
    return render_pdf(html)


def warm_up() -> float:
    """Ready a worker before its first chunk (seconds taken): template engine, fonts,
    lazy imports. Call it from Celery's ``worker_process_init``; else the first chunk
    a worker renders takes a few seconds longer than the rest."""
    started = time.perf_counter()
    render_to_string("print/document.html", {"head": {"event": ""}, "page_size": "A4"})
    match_url(1, 1)  # loads every URL module
    warm_fonts()
    return time.perf_counter() - started


# --- checks and shared helpers -----------------------------------------------------------


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"Unknown print document {kind!r}; known: {', '.join(KINDS)}")


def _check(kind: str, round_number: int | None) -> None:
    _check_kind(kind)
    if kind in ROUND_KINDS and round_number is None:
        raise ValueError(f"{KINDS[kind]} are printed for a round: give its number.")


def _page_size(kind: str, event: Event) -> str:
    paper = event.print_paper if event.print_paper in PAPER_MM else "A4"
    return f"{paper} landscape" if kind == "penalty_report" else paper


def script_lang(text: str) -> str:
    """The language to mark a name with, so print.css picks the matching CJK face:
    "ko" for Hangul, "ja" for kana, else "" (Han alone prints in the Japanese face)."""
    if text.isascii():
        return ""
    for char in text:
        code = ord(char)
        if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            return "ko"
        if 0x3040 <= code <= 0x30FF:
            return "ja"
    return ""


def _person(registration: Registration) -> dict[str, str]:
    name = registration.display_name
    return {"name": name, "id": registration.public_id, "lang": script_lang(name)}


def _event_head(event: Event, **extra: Any) -> dict[str, Any]:
    return {
        "event": event.name,
        "event_lang": script_lang(event.name),
        "paper": event.print_paper,
        **extra,
    }


def _round_matches(event: Event, round_number: int | None):
    return Match.objects.filter(round__event=event, round__number=round_number)


def _round_label(number: int, kind: str | None) -> str:
    return f"Round {number} (top cut)" if kind == Round.Kind.TOP_CUT else f"Round {number}"


def _local(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def match_url(event_id: int, match_id: int) -> str:
    """The absolute address of a match's result page (what the slip's QR code holds)."""
    return settings.SITE_URL + reverse("tournaments:match", args=[event_id, match_id])


def qr_png(data: str) -> str:
    """A QR code as a PNG data URI, one pixel per module (printed with crisp edges).

    A fixed mask pattern: choosing the best of eight costs 5 ms a code (5 s for 1,000
    slips) and any mask is a valid code; a PNG lays out and draws faster than an SVG.
    """
    code = segno.make(data, error="m", micro=False, mask=QR_MASK)
    return code.png_data_uri(scale=1, border=2)


# --- rows: the printed data of each kind (shared by fingerprint and rendering) -----------


def _slip_rows(event: Event, round_number: int | None, units: set[int] | None):
    matches = _round_matches(event, round_number).filter(is_bye=False)
    if units is not None:
        matches = matches.filter(pk__in=units)
    matches = matches.select_related("round", "player_a__user", "player_b__user")
    rows: Rows = []
    round_kind = None
    for match in matches.order_by("table", "pk"):
        round_kind = match.round.kind
        rows.append(
            {
                "unit": match.pk,
                "table": match.table,
                "a": _person(match.player_a),
                "b": _person(match.player_b),
                "extension": match.extension_minutes,
            }
        )
    head = _event_head(
        event,
        round=_round_label(round_number or 0, round_kind),
        format=event.match_format if event.match_format in GAMES else MatchFormat.BO3,
        format_label=event.get_match_format_display(),
        games=GAMES.get(event.match_format, 3),
        minutes=event.round_minutes,
        site=settings.SITE_URL,
    )
    return head, rows


def _seat_rows(event: Event, round_number: int | None, units: set[int] | None):
    """One row per player of the round, by name: table and opponent (or the bye)."""
    matches = _round_matches(event, round_number).select_related(
        "round", "player_a__user", "player_b__user"
    )
    rows: Rows = []
    round_kind = None
    for match in matches:
        round_kind = match.round.kind
        a = _person(match.player_a)
        b = _person(match.player_b) if match.player_b_id else None
        rows.append({"unit": match.player_a_id, **a, "table": match.table, "opponent": b})
        if b is not None:
            rows.append({"unit": match.player_b_id, **b, "table": match.table, "opponent": a})
    rows.sort(key=lambda row: (row["name"].casefold(), row["unit"]))
    head = _event_head(event, round=_round_label(round_number or 0, round_kind))
    return head, rows


def _table_rows(event: Event, round_number: int | None, units: set[int] | None):
    matches = _round_matches(event, round_number).select_related(
        "round", "player_a__user", "player_b__user"
    )
    rows: Rows = []
    round_kind = None
    for match in matches.order_by("is_bye", "table", "pk"):
        round_kind = match.round.kind
        rows.append(
            {
                "unit": match.pk,
                "table": None if match.is_bye else match.table,
                "a": _person(match.player_a),
                "b": _person(match.player_b) if match.player_b_id else None,
            }
        )
    head = _event_head(event, round=_round_label(round_number or 0, round_kind))
    return head, rows


def _standing_rows(event: Event, round_number: int | None, units: set[int] | None):
    rows = standings_rows(event, round_number)
    through = (
        round_number
        or event.rounds.filter(kind=Round.Kind.SWISS).aggregate(last=Max("number"))["last"]
    )
    shown = [key for key in ("omw", "gw", "ogw", "oomw") if rows and key in rows[0]]
    printed: Rows = [
        {
            "unit": row["registration"],
            "rank": row["rank"],
            "name": row["name"],
            "lang": script_lang(row["name"]),
            "figures": _figures(
                row["player"],
                row["match_points"],
                row["record"],
                [f"{100 * row[key]:.2f}" for key in shown],
            ),
            "dropped": row.get("dropped", False),
            "disqualified": row.get("disqualified", False),
        }
        for row in rows
    ]
    labels = {"omw": "OMW%", "gw": "GW%", "ogw": "OGW%", "oomw": "OOMW%"}
    head = _event_head(
        event,
        round=f"After round {through}" if through else "No rounds yet",
        figures=_figures("ID", "Points", "Record", [labels[key] for key in shown]),
    )
    return head, printed


def _figures(public_id: Any, points: Any, record: Any, breakers: list[str]) -> str:
    """A standings row's ID and numbers as one fixed-width line (set in a monospace face):
    one text block instead of six lays out several times faster, and columns align."""
    return f"{str(public_id)[:11]:<11} {points!s:>6} {record!s:>8}" + "".join(
        f" {value:>7}" for value in breakers
    )


def _standings_source(event: Event, round_number: int | None) -> dict[str, Any]:
    """What the standings are computed from, in two queries (for the fingerprint)."""
    registrations = (
        event.registrations.exclude(status=Registration.Status.WAITLISTED)
        .select_related("user")
        .order_by("registered_at", "pk")
    )
    players = [
        [r.pk, r.display_name, r.public_id, r.status, r.disqualified, r.joined_round]
        for r in registrations
    ]
    matches = Match.objects.filter(round__event=event, round__kind=Round.Kind.SWISS)
    if round_number is not None:
        matches = matches.filter(round__number__lte=round_number)
    played = []
    for match in matches.select_related("round").order_by("round__number", "table", "pk"):
        result = match.games if match.has_result else None
        played.append([match.round.number, match.player_a_id, match.player_b_id, result])
    head = _event_head(
        event,
        points=[event.points_win, event.points_draw, event.points_loss],
        tiebreakers=event.tiebreakers,
        through=round_number or max((m[0] for m in played), default=None),
    )
    return {"head": head, "players": players, "matches": played}


def _blank_rows(event: Event, round_number: int | None, units: set[int] | None):
    head = _event_head(
        event, game=event.get_game_display(), date=event.date.isoformat(), venue=event.venue
    )
    return head, [{"unit": 0}]


def _deck_rows(event: Event, round_number: int | None, units: set[int] | None):
    lists = Decklist.objects.filter(
        registration__event=event, status=Decklist.Status.SUBMITTED
    ).exclude(registration__status=Registration.Status.WAITLISTED)
    if units is not None:
        lists = lists.filter(registration_id__in=units)
    rows: Rows = []
    for deck in lists.select_related("registration__user"):
        main = [{"name": e["name"], "count": e["count"]} for e in deck.main]
        sideboard = [{"name": e["name"], "count": e["count"]} for e in deck.sideboard]
        rows.append(
            {
                "unit": deck.registration_id,
                **_person(deck.registration),
                "main": main,
                "sideboard": sideboard,
                "main_count": sum(e["count"] for e in main),
                "sideboard_count": sum(e["count"] for e in sideboard),
                "submitted": _local(deck.submitted_at),
            }
        )
    rows.sort(key=lambda row: (row["name"].casefold(), row["unit"]))
    head = _event_head(event, game=event.get_game_display(), date=event.date.isoformat())
    return head, rows


def _penalty_rows(event: Event, round_number: int | None, units: set[int] | None):
    penalties = event.penalties.select_related("round", "match", "player__user", "judge")
    rows: Rows = []
    for p in penalties.order_by("issued_at", "pk"):
        name = p.player.display_name
        rows.append(
            {
                "unit": p.pk,
                "time": _local(p.issued_at),
                "round": p.round.number if p.round_id else "",
                "table": (p.match.table or "") if p.match_id else "",
                "game": p.game,
                "player": name,
                "lang": script_lang(name),
                "infraction": infraction_label(p.infraction),
                "rule": p.rule,
                "consequences": "; ".join(consequence_text(c) for c in p.consequences),
                "judge": p.judge.get_username() if p.judge_id else "",
                "notes": p.notes,
                "voided": _local(p.voided_at),
                "void_reason": p.void_reason,
            }
        )
    return _event_head(event, date=event.date.isoformat()), rows


ROWS: dict[str, Callable[[Event, int | None, set[int] | None], tuple[dict, Rows]]] = {
    "match_slips": _slip_rows,
    "pairings_by_name": _seat_rows,
    "pairings_by_table": _table_rows,
    "standings": _standing_rows,
    "decklist_blank": _blank_rows,
    "decklists": _deck_rows,
    "penalty_report": _penalty_rows,
}


# --- page assembly -----------------------------------------------------------------------


def slip_height_mm(paper: str) -> float:
    """A quarter of the printable height: four slips fill a sheet exactly."""
    _width, height = PAPER_MM.get(paper, PAPER_MM["A4"])
    return math.floor((height - 2 * MARGIN_MM) / SLIPS_PER_PAGE * 100) / 100


def _slip_context(event: Event, rows: Rows) -> dict[str, Any]:
    for row in rows:
        row["qr"] = qr_png(match_url(event.pk, row["unit"]))
    return {
        "sheets": [rows[i : i + SLIPS_PER_PAGE] for i in range(0, len(rows), SLIPS_PER_PAGE)],
        "slip_height": f"{slip_height_mm(event.print_paper)}mm",
        "games": list(range(1, GAMES.get(event.match_format, 3) + 1)),
    }


def _blank_context() -> dict[str, Any]:
    """60 main-deck lines in two columns and 15 sideboard lines, like paper decklists."""
    lines = range(BLANK_MAIN_LINES // 2)
    return {
        "main_columns": [
            {"label": f"1{DASH}{len(lines)}", "lines": lines},
            {"label": f"{len(lines) + 1}{DASH}{BLANK_MAIN_LINES}", "lines": lines},
        ],
        "sideboard_lines": range(BLANK_SIDEBOARD_LINES),
    }


def _deck_columns(row: dict[str, Any]) -> Rows:
    """Main deck in columns of ``DECK_COLUMN_LINES`` entries, then the sideboard."""
    main = row["main"]
    columns: Rows = []
    for start in range(0, max(len(main), 1), DECK_COLUMN_LINES):
        columns.append(
            {
                "label": "Main deck" if start == 0 else "Main deck (continued)",
                "entries": main[start : start + DECK_COLUMN_LINES],
                "total": None,
                "total_label": "cards in the main deck",
            }
        )
    columns[-1]["total"] = row["main_count"]
    if len(columns) < 2:
        columns.append({"label": "", "entries": [], "total": None})
    columns.append(
        {
            "label": "Sideboard",
            "entries": row["sideboard"],
            "total": row["sideboard_count"],
            "total_label": "cards in the sideboard",
        }
    )
    return columns


def _pages(kind: str, rows: Rows, wanted: Iterable[int] | None) -> dict[str, Any]:
    """The chunk's rows cut into pages numbered as in the whole document."""
    per_page = ROWS_PER_PAGE[kind]
    total_pages = max(1, math.ceil(len(rows) / per_page))
    wanted = set(wanted) if wanted is not None else None
    pages: dict[int, Rows] = {}
    for index, row in enumerate(rows):
        if wanted is None or row["unit"] in wanted:
            pages.setdefault(index // per_page, []).append({**row, "shade": index % 2 == 1})
    return {
        "pages": [
            {"number": number + 1, "rows": page_rows, "range": _page_range(kind, page_rows)}
            for number, page_rows in sorted(pages.items())
        ],
        "total_pages": total_pages,
        "title": KINDS[kind],
    }


def _page_range(kind: str, rows: Rows) -> str:
    """What a page holds, for finding one's line on a wall of pages: "Abe to Dan"."""
    if kind == "pairings_by_name":
        first, last = rows[0]["name"], rows[-1]["name"]
        return f"{_short(first)} {DASH} {_short(last)}"
    if kind == "pairings_by_table":
        tables = [row["table"] for row in rows if row["table"] is not None]
        return f"Tables {min(tables)}{DASH}{max(tables)}" if tables else "Byes"
    return f"Ranks {rows[0]['rank']}{DASH}{rows[-1]['rank']}"


def _short(name: str, limit: int = 18) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"
