"""``manage.py import_precedents FILE``: add a precedent set's new precedents, as the site.

Prints the report: how many were added, how many were here already, and each conflict (a
precedent here with other content, kept as it is). A file that does not fit writes
nothing and lists every problem at its path (exit 1).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from precedents.exchange import SITE, import_set
from web.errors import ServiceError


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON: numbers must be finite")


def read_set(path: str) -> Any:
    """The parsed file (``-`` reads standard input), or CommandError saying why not."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror or exc}") from None
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except RecursionError:
        raise CommandError(f"{path} is nested too deeply to be a precedent set.") from None
    except ValueError as exc:  # not UTF-8, NaN, an integer too long to parse
        raise CommandError(f"{path} is not a usable JSON file: {exc}") from None


class Command(BaseCommand):
    help = (
        "Import a precedent set (JSON) from FILE, or - for standard input, as the site: "
        "new precedents are added, those here already are never overwritten (a difference "
        "is reported as a conflict). Nothing is written if the file has any problem."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the precedent set, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        document = read_set(path)
        try:
            report = import_set(document, SITE)
        except ServiceError as exc:
            listing = "\n".join(f"  {error['message']}" for error in exc.errors)
            raise CommandError(
                f"{path} was not imported (nothing was written):\n{listing}"
            ) from None
        self.stdout.write(
            f"Added {report['added']}, unchanged {report['unchanged']}, "
            f"conflicts {len(report['conflicts'])}."
        )
        for conflict in report["conflicts"]:
            self.stdout.write(f"  conflict {conflict['uid']}: {conflict['message']}")
