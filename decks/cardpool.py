"""Card pool files (docs/card-pools.md): read and check a CSV or JSON file, then import it.

Reading and importing are separate so that a file is checked completely first:
an organiser sees every bad row at once, and by default a file with any problem
imports nothing (``import_file(..., skip_errors=True)`` imports the good rows).
Importing is idempotent by (game, name key). An import that changes the pool
is recorded as a ``CardPoolImport`` (who, when, which file, counts), and each card
it changes keeps a ``CardRevision`` of that import: every changed field before
and after, and the old text and cost whole (101.4: the latest text is the card's).

The pool is shared by every event of its game, so changing it needs the
``decks.edit_card_pool`` permission (``may_edit_card_pool``); organising an event
gives none. A file is bounded twice while it is read: at most
``CARD_IMPORT_MAX_ROWS`` cards (reading stops at the first card past it) and
``CARD_IMPORT_TIME_BUDGET`` seconds of reading and checking; past either, nothing
is written and the one problem names the limit.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from decks.models import REVISED_FIELDS, Card, CardPoolImport, CardRevision, name_key
from rules_engine.errors import PayloadError
from rules_engine.iacta.costs import SYMBOL_HELP, parse_cost
from tournaments.models import Game

Problem = dict[str, Any]
"""``{"line": int | None, "where": "line 7" | "item 3" | "file", "field": str, "message": str}``."""

Row = dict[str, Any]
"""Model field values of one good card, e.g. ``{"name": ..., "card_class": ..., "cost": ...}``."""

# File column -> Card field, per game (card-pools.md). Columns not listed are ignored.
COLUMNS: dict[str, dict[str, str]] = {
    Game.IACTA.value: {
        "name": "name",
        "syndicate": "syndicate",
        "tier": "tier",
        "class": "card_class",
        "speed": "speed",
        "cost": "cost",
        "max_copies": "max_copies",
        "text": "text",
    },
    Game.DATACLYSM.value: {
        "name": "name",
        "type": "card_type",
        "subtypes": "subtypes",
        "gpu": "gpu",
        "atk": "atk",
        "hp": "hp",
        "text": "text",
    },
}
REQUIRED: dict[str, tuple[str, ...]] = {
    Game.IACTA.value: ("name", "tier", "class", "speed"),
    Game.DATACLYSM.value: ("name", "type"),
}
SUPERJACK_MESSAGE = _lazy("Superjack needs no card file: its cards are the standard playing cards.")
MAX_COPIES_LIMIT = 32767  # PositiveSmallIntegerField
STAT_LIMIT = 999_999
_SYNDICATE = re.compile(r"^[A-Z0-9]{1,12}$")
_WHOLE = re.compile(r"^[0-9]+$")
_FIELD_LENGTH = {"name": 200, "cost": 100, "subtypes": 200}

EDIT_PERMISSION = "decks.edit_card_pool"
EDITORS_GROUP = "Card pool editors"  # made by migration 0003, holding EDIT_PERMISSION


def refusal() -> str:
    """Why someone without the grant may not upload, in their language (the group keeps
    its name: it is the one the admin lists)."""
    return _(
        "The card pool is shared by every event of its game, so changing it needs the card "
        "pool editor permission. Organising an event does not give it: site staff can add "
        "you to the %(group)s group."
    ) % {"group": EDITORS_GROUP}


_clock = time.monotonic  # read through the module, so a test can make time pass


def may_edit_card_pool(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Only an explicit grant: the permission, usually through the Card pool editors group.

    Django's ``has_perm`` answers True for an active superuser and False for anyone
    inactive; ``is_staff`` alone (the admin's door) and event roles give nothing.
    """
    return user.is_authenticated and user.has_perm(EDIT_PERMISSION)


class LimitReached(Exception):
    """A file past the row limit or the time budget: reading stops, nothing is imported."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem["message"])
        self.problem = problem


@dataclass(frozen=True)
class Limits:
    """How much one import may read, and until when (a ``_clock`` reading)."""

    max_rows: int
    budget: float
    deadline: float

    @classmethod
    def from_settings(cls, max_rows: int | None = None, budget: float | None = None) -> Limits:
        rows = settings.CARD_IMPORT_MAX_ROWS if max_rows is None else max_rows
        seconds = settings.CARD_IMPORT_TIME_BUDGET if budget is None else budget
        return cls(max_rows=rows, budget=seconds, deadline=_clock() + seconds)

    def check_time(self) -> None:
        """Raise ``LimitReached`` once the budget is spent."""
        if _clock() > self.deadline:
            raise LimitReached(self._too_slow())

    def check_rows(self, count: int) -> None:
        """Raise ``LimitReached`` when ``count`` cards are more than one import holds."""
        if count > self.max_rows:
            raise LimitReached(self._too_many())

    def _too_many(self) -> Problem:
        message = _(
            "The file has more than %(rows)s cards: one import holds at most %(rows)s (the "
            "site's CARD_IMPORT_MAX_ROWS). Split it into smaller files."
        ) % {"rows": f"{self.max_rows:,}"}
        return _problem(None, "", "", message)

    def _too_slow(self) -> Problem:
        # A fraction of a second takes the plural form, as in English ("1.5 seconds").
        count = int(self.budget) if self.budget == int(self.budget) else 2
        message = ngettext(
            "Reading and checking the file took longer than %(budget)s second, the limit for "
            "one import (the site's CARD_IMPORT_TIME_BUDGET). Split it into smaller files.",
            "Reading and checking the file took longer than %(budget)s seconds, the limit for "
            "one import (the site's CARD_IMPORT_TIME_BUDGET). Split it into smaller files.",
            count,
        ) % {"budget": f"{self.budget:g}"}
        return _problem(None, "", "", message)


@dataclass
class ImportReport:
    """Counts of one import; ``revised`` cards (a new text or cost) are also in ``updated``.

    ``record`` is the import's history row, None when the pool did not change."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    revised: int = 0
    record: CardPoolImport | None = field(default=None, compare=False)

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged

    def summary(self) -> str:
        counts = {
            "total": self.total,
            "created": self.created,
            "updated": self.updated,
            "revised": self.revised,
            "unchanged": self.unchanged,
        }
        if self.revised:
            return (
                _(
                    "%(total)s cards: %(created)s created, %(updated)s updated (%(revised)s with a "
                    "new text or cost), %(unchanged)s unchanged."
                )
                % counts
            )
        return (
            _("%(total)s cards: %(created)s created, %(updated)s updated, %(unchanged)s unchanged.")
            % counts
        )


@dataclass
class ImportResult:
    """What ``import_file`` did: ``report`` is None when nothing was written."""

    report: ImportReport | None
    problems: list[Problem] = field(default_factory=list)
    good_rows: int = 0

    @property
    def written(self) -> bool:
        return self.report is not None


def format_problem(problem: Problem) -> str:
    """``line 7, cost: "4++" is not a dice cost symbol …``: one line for a terminal or a list."""
    if problem["field"]:
        return f"{problem['where']}, {problem['field']}: {problem['message']}"
    return f"{problem['where']}: {problem['message']}"


def _where(unit: str, number: int) -> str:
    """ "line 7" (a CSV row, as a spreadsheet numbers it) or "item 3" (a JSON list's item)."""
    if unit == "item":
        return _("item %(number)s") % {"number": number}
    return _("line %(number)s") % {"number": number}


def _problem(line: int | None, unit: str, field_: str, message: str) -> Problem:
    # Translators: where a problem is when it is the whole file's, not one row's.
    where = _("file") if line is None else _where(unit, line)
    return {"line": line, "where": where, "field": field_, "message": str(message)}


def _quote(value: str, limit: int = 40) -> str:
    """A cell shown in a message, shortened so one bad paragraph does not flood the list."""
    shown = value if len(value) <= limit else value[: limit - 1] + "…"
    return f'"{shown}"'


def _column(header: str) -> str:
    """``Max Copies`` and ``max_copies`` name the same column; so do ``Class `` and ``class``."""
    return "_".join(str(header).strip().lower().split())


# --- reading ----------------------------------------------------------------------


def read_rows(
    game: str, data: bytes | str, filename: str = "", *, limits: Limits | None = None
) -> tuple[list[Row], list[Problem]]:
    """Every good row as model field values, and every problem found, so one pass fixes the file.

    CSV problems name spreadsheet rows (the header is line 1, a quoted multi-line text
    is one row); JSON problems name the item, counted from 1 ("item 3"). A file past
    the row limit or the time budget gives no rows and that one problem.
    """
    limits = limits or Limits.from_settings()
    if game == Game.SUPERJACK:
        return [], [_problem(None, "", "game", SUPERJACK_MESSAGE)]
    if game not in COLUMNS:
        games = ", ".join(COLUMNS)
        message = _("%(game)s is not a game: use %(games)s.") % {
            "game": _quote(game),
            "games": games,
        }
        return [], [_problem(None, "", "game", message)]
    text, problem = _decode(data)
    if problem:
        return [], [problem]
    if not text.strip():
        return [], [_problem(None, "", "", _("The file is empty."))]
    try:
        if _is_json(text, filename):
            records, problems, unit = _json_records(text, limits)
        else:
            records, problems, unit = _csv_records(text, game, limits)
        rows, row_problems = _check_records(game, records, unit, limits)
    except LimitReached as reached:
        return [], [reached.problem]
    return rows, sorted([*problems, *row_problems], key=lambda p: p["line"] or 0)


def _decode(data: bytes | str) -> tuple[str, Problem | None]:
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), None
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        message = _(
            "The file is not UTF-8 text: save the file as “CSV UTF-8” (or JSON) and upload it "
            "again."
        )
        return "", _problem(line, "line", "", message)


def _is_json(text: str, filename: str) -> bool:
    suffix = Path(filename).suffix.lower()
    if suffix == ".json":
        return True
    if suffix in {".csv", ".tsv", ".txt"}:
        return False
    return text.lstrip()[:1] in {"[", "{"}


Record = tuple[int, dict[str, Any]]  # (line or item number, column -> raw value)


def _json_records(text: str, limits: Limits) -> tuple[list[Record], list[Problem], str]:
    """Items as records; a list past the row limit is refused before any item is looked at.

    The standard library parses JSON whole: the upload's size limit bounds that part.
    """
    try:
        items = json.loads(text)
    except json.JSONDecodeError as error:
        # Translators: %(error)s is Python's own description, in English ("Expecting value").
        message = _("The file is not valid JSON: %(error)s (column %(column)s).") % {
            "error": error.msg,
            "column": error.colno,
        }
        return [], [_problem(error.lineno, "line", "", message)], "item"
    if not isinstance(items, list):
        message = _('A JSON card file is a list of objects: [{"name": …}, …].')
        return [], [_problem(None, "", "", message)], "item"
    limits.check_rows(len(items))
    records, problems = [], []
    for number, item in enumerate(items, start=1):
        if isinstance(item, dict):
            records.append((number, {_column(key): value for key, value in item.items()}))
        else:
            problems.append(
                _problem(number, "item", "", _("not an object with a card's keys (name, …)."))
            )
    return records, problems, "item"


def _csv_records(text: str, game: str, limits: Limits) -> tuple[list[Record], list[Problem], str]:
    """Rows under the header; a missing required column is one problem on the header line.

    Records are read one at a time, so a file past the row limit stops at the first
    card over it instead of being held whole as rows.
    """
    reader = _csv_reader(text)
    line = 0
    try:
        for number, cells in reader:
            line = number  # for a CSV error's message, as in the loop below
            if any(cells):
                header = cells
                break
        else:
            return [], [_problem(None, "", "", _("The file is empty."))], "line"
        problems = _header_problems(line, header, game)
        if problems:
            return [], problems, "line"
        columns = [_column(cell) for cell in header]
        records: list[Record] = []
        for line, cells in reader:
            limits.check_time()
            if not any(cell.strip() for cell in cells):
                continue
            limits.check_rows(len(records) + 1)
            records.append((line, dict(zip(columns, cells, strict=False))))
    except csv.Error as error:
        # Translators: %(error)s is Python's own description, in English.
        message = _("The CSV cannot be read: %(error)s.") % {"error": error}
        return [], [_problem(line + 1, "line", "", message)], "line"
    return records, [], "line"


def _header_problems(line: int, header: list[str], game: str) -> list[Problem]:
    """Semicolons for commas, a required column missing, a column twice: on the header line."""
    if len(header) == 1 and ";" in header[0]:
        message = _("Columns must be separated by commas, not semicolons.")
        return [_problem(line, "line", "", message)]
    columns = [_column(cell) for cell in header]
    problems = [
        _problem(
            line,
            "line",
            name,
            _("The required column %(column)s is missing.") % {"column": _quote(name)},
        )
        for name in REQUIRED[game]
        if name not in columns
    ]
    problems += [
        _problem(line, "line", name, _("The column appears more than once."))
        for name in COLUMNS[game]
        if columns.count(name) > 1
    ]
    return problems


def _csv_reader(text: str) -> Iterator[tuple[int, list[str]]]:
    """Records numbered as a spreadsheet shows them: one per record, blank lines included."""
    first_line = text[: text.find("\n")] if "\n" in text else text
    delimiter = "\t" if "\t" in first_line and "," not in first_line else ","
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    yield from enumerate(rows, start=1)


def _check_records(
    game: str, records: list[Record], unit: str, limits: Limits
) -> tuple[list[Row], list[Problem]]:
    """Check each record, then the file as a whole: names unique, each syndicate one tier.

    Past the time budget it raises ``LimitReached``.
    """
    check = _check_iacta if game == Game.IACTA else _check_dataclysm
    rows: list[Row] = []
    problems: list[Problem] = []
    first_seen: dict[str, int] = {}
    tiers: dict[str, tuple[str, int]] = {}
    for number, raw in records:
        limits.check_time()
        cells, type_errors = _cells(raw, COLUMNS[game])
        row, checked = check(cells)
        row_errors = [*type_errors.items(), *(e for e in checked if e[0] not in type_errors)]
        if row["name"] and not any(column == "name" for column, _message in row_errors):
            key = name_key(row["name"])
            if key in first_seen:
                message = _("%(name)s is already on %(where)s (names ignore case and spaces).") % {
                    "name": _quote(row["name"]),
                    "where": _where(unit, first_seen[key]),
                }
                row_errors.append(("name", message))
            else:
                first_seen[key] = number
        if game == Game.IACTA and row.get("syndicate") and row["tier"]:
            tier, at = tiers.setdefault(row["syndicate"], (row["tier"], number))
            if tier != row["tier"]:
                # Translators: %(tier)s is the file's value, "major" or "minor", as written.
                message = _(
                    "%(syndicate)s is a %(tier)s syndicate on %(where)s; a syndicate is either "
                    "major or minor (202)."
                ) % {"syndicate": row["syndicate"], "tier": tier, "where": _where(unit, at)}
                row_errors.append(("tier", message))
        if row_errors:
            problems += [_problem(number, unit, col, message) for col, message in row_errors]
        else:
            rows.append(row)
    return rows, problems


def _cells(raw: dict[str, Any], columns: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Known columns as trimmed text; JSON numbers and booleans become their CSV spelling."""
    cells, errors = {}, {}
    for column in columns:
        if column not in raw:
            continue
        value = raw[column]
        if value is None:
            cells[column] = ""
        elif isinstance(value, bool):
            cells[column] = "true" if value else "false"
        elif isinstance(value, int | float | str):
            cells[column] = str(value).replace("\r\n", "\n").replace("\r", "\n").strip()
        else:
            cells[column] = ""
            # Translators: after the column's name, shown beside it ("max_copies: must be ...").
            errors[column] = _("must be text, a number or true/false.")
    return cells, errors


def _required(cells: dict[str, str], column: str, hint: str, errors: list) -> str:
    value = cells.get(column, "")
    if not value:
        # Translators: after the column's name, shown beside it; %(hint)s says what to write.
        errors.append((column, _("is required: %(hint)s.") % {"hint": hint}))
    return value


def _choice(cells: dict[str, str], column: str, choices: Iterable[str], errors: list) -> str:
    allowed = list(choices)
    # Translators: the values are the file's own (e.g. "use major, minor or neutral").
    hint = _("use %(values)s or %(last)s") % {
        "values": ", ".join(allowed[:-1]),
        "last": allowed[-1],
    }
    value = _required(cells, column, hint, errors).lower()
    if value and value not in allowed:
        message = _("%(value)s is not a valid %(column)s: %(hint)s.") % {
            "value": _quote(cells[column]),
            "column": column,
            "hint": hint,
        }
        errors.append((column, message))
        return ""
    return value


def _not_whole(value: str, minimum: int) -> str:
    return _("%(value)s is not a whole number of %(minimum)s or more.") % {
        "value": _quote(value),
        "minimum": minimum,
    }


def _too_long(limit: int) -> str:
    # Translators: after the column's name, shown beside it.
    return _("is longer than %(limit)s characters.") % {"limit": limit}


def _whole(value: str, column: str, minimum: int, maximum: int, errors: list) -> int | None:
    """A whole number in range; the length check first, as int() refuses 4,300+ digits."""
    if not _WHOLE.match(value):
        errors.append((column, _not_whole(value, minimum)))
        return None
    digits = value.lstrip("0") or "0"
    if len(digits) > len(str(maximum)) or int(digits) > maximum:
        message = _("%(value)s is too large: at most %(maximum)s.")
        errors.append((column, message % {"value": _quote(value), "maximum": maximum}))
        return None
    if int(digits) < minimum:
        errors.append((column, _not_whole(value, minimum)))
        return None
    return int(digits)


def _name(cells: dict[str, str], errors: list) -> str:
    name = " ".join(_required(cells, "name", _("every card needs its name"), errors).split())
    if len(name) > _FIELD_LENGTH["name"]:
        errors.append(("name", _too_long(_FIELD_LENGTH["name"])))
    return name


def _check_iacta(cells: dict[str, str]) -> tuple[Row, list[tuple[str, str]]]:
    """An Iacta card: a syndicate for Major and Minor cards only (202), a valid dice cost."""
    errors: list[tuple[str, str]] = []
    row: Row = {"name": _name(cells, errors)}
    row["tier"] = _choice(cells, "tier", Card.Tier.values, errors)
    row["card_class"] = _choice(cells, "class", Card.CardClass.values, errors)
    row["speed"] = _choice(cells, "speed", Card.Speed.values, errors)
    syndicate = cells.get("syndicate", "").upper()
    if row["tier"] in (Card.Tier.MAJOR, Card.Tier.MINOR):
        if not syndicate:
            # Translators: %(tier)s is the file's value, "major" or "minor", as written.
            message = _("is required for a %(tier)s card: its abbreviation, e.g. EMB.")
            errors.append(("syndicate", message % {"tier": row["tier"]}))
        elif not _SYNDICATE.match(syndicate):
            message = _(
                "%(value)s is not a syndicate abbreviation: use up to 12 letters or digits, "
                "e.g. EMB."
            ) % {"value": _quote(cells["syndicate"])}
            errors.append(("syndicate", message))
    row["syndicate"] = syndicate if row["tier"] != Card.Tier.NEUTRAL else ""  # Neutral: none
    if "cost" in cells:
        row["cost"] = _cost(cells["cost"], errors)
    if "max_copies" in cells:
        value = cells["max_copies"]
        row["max_copies"] = (
            _whole(value, "max_copies", 1, MAX_COPIES_LIMIT, errors) if value else None
        )
    if "text" in cells:
        row["text"] = cells["text"]
    return row, errors


def _cost(value: str, errors: list) -> str:
    """Symbols separated by spaces, each checked by the rules engine's own cost parser."""
    symbols = [symbol.upper() for symbol in value.split()]
    try:
        parse_cost(symbols)
    except PayloadError as error:
        for problem in error.errors:
            index = int(problem["field"].removeprefix("cost[").removesuffix("]"))
            bad = value.split()[index]
            # Translators: %(symbols)s lists the rules' cost symbols, in English.
            message = _("%(value)s is not a dice cost symbol: %(symbols)s.")
            errors.append(("cost", message % {"value": _quote(bad), "symbols": SYMBOL_HELP}))
    cost = " ".join(symbols)
    if len(cost) > _FIELD_LENGTH["cost"]:
        errors.append(("cost", _too_long(_FIELD_LENGTH["cost"])))
    return cost


def _check_dataclysm(cells: dict[str, str]) -> tuple[Row, list[tuple[str, str]]]:
    """A Dataclysm card: troops carry whole-number ATK and HP; other types have no stats."""
    errors: list[tuple[str, str]] = []
    row: Row = {"name": _name(cells, errors)}
    row["card_type"] = _choice(cells, "type", Card.CardType.values, errors)
    if "subtypes" in cells:
        row["subtypes"] = " ".join(cells["subtypes"].split())
        if len(row["subtypes"]) > _FIELD_LENGTH["subtypes"]:
            errors.append(("subtypes", _too_long(_FIELD_LENGTH["subtypes"])))
    if "gpu" in cells:
        gpu = cells["gpu"].lower()
        if gpu not in {"", "true", "false"}:
            message = _("%(value)s is not true or false.") % {"value": _quote(cells["gpu"])}
            errors.append(("gpu", message))
        row["gpu"] = gpu == "true"
    for stat in ("atk", "hp"):
        row[stat] = None
        if row["card_type"] == Card.CardType.TROOP:
            value = _required(cells, stat, _("a troop has a whole number here"), errors)
            if value:
                row[stat] = _whole(value, stat, 0, STAT_LIMIT, errors)
    if "text" in cells:
        row["text"] = cells["text"]
    return row, errors


# --- importing --------------------------------------------------------------------


@transaction.atomic
def import_cards(
    game: str,
    rows: list[Row],
    *,
    source: str,
    demo: bool = False,
    author: AbstractBaseUser | None = None,
    filename: str = "",
    skipped: int = 0,
) -> ImportReport:
    """Create or update each card by (game, name key) in a few bulk queries, all or nothing.

    An import that changes the pool is recorded as a ``CardPoolImport`` naming
    ``author`` (None for the command run without ``--user``), with its counts; each
    changed card gets a ``CardRevision`` of that import holding every field it
    changed, before and after, so no change of the shared pool is without an author.
    The revision also keeps the old text and cost whole (101.4). Columns absent
    from the file are absent from the rows and leave stored values alone. A demo
    import never overwrites a real card; a real import makes a demo card real.
    """
    report = ImportReport()
    existing = {card.key: card for card in Card.objects.filter(game=game)}
    now = timezone.now()
    new_cards: list[Card] = []
    changed: list[Card] = []
    changed_fields: set[str] = set()
    revisions: list[CardRevision] = []
    seen: set[str] = set()
    for row in rows:
        key = name_key(row["name"])
        if key in seen:
            raise ValueError(f"{row['name']!r} appears twice; read_rows reports duplicates.")
        seen.add(key)
        card = existing.get(key)
        if card is None:
            new_cards.append(Card(game=game, key=key, demo=demo, **row))
            continue
        if demo and not card.demo:
            report.unchanged += 1
            continue
        changes = {name: value for name, value in row.items() if getattr(card, name) != value}
        if card.demo != demo:
            changes["demo"] = demo
        if not changes:
            report.unchanged += 1
            continue
        revisions.append(_revision(card, changes, now, source, author))
        if {"text", "cost"} & changes.keys():
            report.revised += 1
        for name, value in changes.items():
            setattr(card, name, value)
        card.updated_at = now
        changed.append(card)
        changed_fields |= changes.keys()
    report.created = len(new_cards)
    report.updated = len(changed)
    if not new_cards and not changed:
        return report  # the pool is as it was: nothing to record
    report.record = CardPoolImport.objects.create(
        game=game,
        created_by=author,
        created_at=now,
        filename=filename[:200],
        source=source[:200],
        created=report.created,
        updated=report.updated,
        unchanged=report.unchanged,
        skipped=skipped,
    )
    for revision in revisions:
        revision.pool_import = report.record
    Card.objects.bulk_create(new_cards, batch_size=500)
    if changed:
        Card.objects.bulk_update(changed, sorted(changed_fields | {"updated_at"}), batch_size=500)
    CardRevision.objects.bulk_create(revisions, batch_size=500)
    return report


def _revision(
    card: Card, changes: dict[str, Any], now: Any, source: str, author: AbstractBaseUser | None
) -> CardRevision:
    """The card before ``changes``: each changed field as ``[before, after]``, in model order."""
    recorded = {
        name: [getattr(card, name), changes[name]] for name in REVISED_FIELDS if name in changes
    }
    return CardRevision(
        card=card,
        text=card.text,
        cost=card.cost,
        replaced_at=now,
        source=source[:200],
        created_by=author,
        changes=recorded,
    )


def import_file(
    game: str,
    data: bytes | str,
    filename: str = "",
    *,
    source: str = "",
    skip_errors: bool = False,
    demo: bool = False,
    author: AbstractBaseUser | None = None,
) -> ImportResult:
    """Read, then import: a file with problems imports nothing unless ``skip_errors``.

    Who may call it is the caller's check (``may_edit_card_pool`` for the page); a file
    past the row limit or time budget has no good rows, so it imports nothing either way.
    """
    rows, problems = read_rows(game, data, filename)
    if problems and (not skip_errors or not rows):
        return ImportResult(None, problems, len(rows))
    report = import_cards(
        game,
        rows,
        source=source or filename,
        demo=demo,
        author=author,
        filename=filename,
        skipped=len({problem["line"] for problem in problems}),
    )
    return ImportResult(report, problems, len(rows))


# --- demo pools -------------------------------------------------------------------

DEMO_DIR = Path(__file__).resolve().parent / "demo"
DEMO_FILES = {
    Game.IACTA.value: "iacta-demo-cards.csv",
    Game.DATACLYSM.value: "dataclysm-demo-cards.csv",
}


def load_demo_pools() -> dict[str, ImportReport]:
    """Load the invented demo pools (every card ``demo=True``); running it again changes nothing.

    A game whose pool already holds real (non-demo) cards is left out, so demo cards
    never mix into a real pool that decklists are checked against.
    """
    reports: dict[str, ImportReport] = {}
    for game, filename in DEMO_FILES.items():
        if Card.objects.filter(game=game, demo=False).exists():
            continue
        data = (DEMO_DIR / filename).read_bytes()
        result = import_file(game, data, filename, source=f"demo pool {filename}", demo=True)
        if result.problems:
            lines = "; ".join(format_problem(p) for p in result.problems)
            raise ValueError(f"The demo pool {filename} has problems: {lines}")
        reports[game] = result.report
    return reports
