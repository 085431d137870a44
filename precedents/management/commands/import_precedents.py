"""``manage.py import_precedents FILE``: add a precedent set's new precedents, as the site.

Prints the report: how many were added, how many were here already, and each conflict (a
precedent here with other content, kept as it is). A file that does not fit writes
nothing and lists every problem at its path (exit 1).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from precedents.exchange import SITE, import_set
from web.errors import ServiceError
from web.jsonfile import read_json_file


def read_set(path: str) -> Any:
    """The parsed file (``-`` reads standard input), or CommandError saying why not."""
    return read_json_file(path, "a precedent set")


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
