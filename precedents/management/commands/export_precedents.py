"""``manage.py export_precedents [--game G] FILE``: write a precedent set, for another site
or a venue laptop (``docs/schemas/precedent-set.schema.json``)."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from precedents.exchange import SITE, export_set
from web.errors import ServiceError


class Command(BaseCommand):
    help = (
        "Write the site's precedents as a precedent set (JSON) to FILE, or - for standard "
        "output. Every precedent but a draft event's, or with --public only those marked "
        "public; --game keeps one game's."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the set, or - for standard output")
        parser.add_argument("--game", default="", help="only this game's precedents")
        parser.add_argument(
            "--public",
            action="store_true",
            help="only the precedents marked public (as anyone may export them)",
        )
        parser.add_argument(
            "--indent", type=int, default=2, help="spaces per indent level; 0 for one line"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = export_set(None if options["public"] else SITE, options["game"])
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        text = json.dumps(document, indent=options["indent"] or None, ensure_ascii=False)
        path = options["file"]
        if path == "-":
            sys.stdout.write(text + "\n")
            return
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
        except OSError as exc:
            raise CommandError(f"Cannot write {path}: {exc.strerror or exc}") from None
        count = len(document["precedents"])
        self.stderr.write(f"Wrote {count} precedent{'' if count == 1 else 's'} to {path}.")
