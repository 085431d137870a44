"""``manage.py import_cards GAME FILE [--skip-errors]``: load a game's card pool from a file.

A file with any problem writes nothing, lists every problem on stderr as
``line 7, cost: "4++" is not a dice cost symbol …`` and exits 1, so a script or
an organiser fixes the whole file in one go. ``--skip-errors`` imports the good
rows and still lists the bad ones. ``--user NAME`` records that account as the
author of the import and of the revisions it makes (without it, they record nobody). The
row limit and time budget of the upload page apply here too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.cardpool import format_problem, import_file
from tournaments.models import Game


class Command(BaseCommand):
    help = (
        "Import a game's card pool from a CSV or JSON file (docs: card-pools.md). "
        "Re-importing updates changed cards and keeps what changed, and by whom, as a revision."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", choices=Game.values, help="the game the cards belong to")
        parser.add_argument("file", help="the CSV or JSON card file, or - for standard input")
        parser.add_argument(
            "--skip-errors",
            action="store_true",
            help="import the good rows even if some rows have problems (they are listed)",
        )
        parser.add_argument(
            "--user",
            metavar="NAME",
            help="the account recorded as the author of this import and its revisions",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        author = _author(options["user"])
        path = options["file"]
        try:
            data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror or exc}") from None
        filename = "" if path == "-" else Path(path).name
        result = import_file(
            options["game"],
            data,
            filename,
            source=filename or "standard input",
            skip_errors=options["skip_errors"],
            author=author,
        )
        for problem in result.problems:
            self.stderr.write(format_problem(problem))
        count = len(result.problems)
        problems = f"{count} problem{'' if count == 1 else 's'}"
        if result.report is None:
            raise CommandError(f"{path} was not imported ({problems}; nothing was written).")
        self.stdout.write(f"{path}: {result.report.summary()}")
        if count:
            self.stdout.write(f"Skipped the rows with {problems} (listed on stderr).")


def _author(username: str | None) -> Any:
    """The named account, checked before the file is read so a typo imports nothing."""
    if username is None:
        return None
    model = get_user_model()
    try:
        return model.objects.get_by_natural_key(username)
    except model.DoesNotExist:
        raise CommandError(f'No user is called "{username}": nothing was imported.') from None
