"""``manage.py import_event FILE``: create an event from an ``arbiter-event/1`` file.

The new event's id is printed alone on the last line, so scripts can take it with
``tail -n 1``. A bad file writes nothing and lists every problem on stderr (exit 1).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.interchange import InterchangeError, import_event
from tournaments.interchange.limits import ImportPolicy
from web.jsonfile import read_json_file


def read_document(path: str) -> Any:
    """The parsed file (``-`` reads standard input), or CommandError saying why not."""
    return read_json_file(path, "an event file")


class Command(BaseCommand):
    help = (
        "Create an event from an arbiter-event/1 JSON file and print its id on the last line. "
        "Nothing is written if the file has any problem; every problem is listed. A file "
        "with phases creates the main event with its Day 1 flights; the id printed is the "
        "main event's."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the arbiter-event/1 JSON file, or - for standard input")
        parser.add_argument(
            "--organiser",
            metavar="USERNAME",
            help="the account that becomes the event's organiser (default: none; "
            "superusers can still manage it)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        organiser = self._organiser(options.get("organiser"))
        document = read_document(options["file"])
        try:
            # The operator's command: the file's status stands, within the highest limits.
            event = import_event(document, organiser, policy=ImportPolicy.operator())
        except InterchangeError as exc:
            count = len(exc.problems)
            listing = "\n".join(f"  {problem}" for problem in exc.problems)
            raise CommandError(
                f"{options['file']} was not imported ({count} problem"
                f"{'' if count == 1 else 's'}; nothing was written):\n{listing}"
            ) from None
        players = event.registrations.count()
        rounds = event.rounds.count()
        self.stdout.write(f"Imported {event.name!r}: {players} players, {rounds} rounds.")
        self.stdout.write(str(event.pk))

    def _organiser(self, username: str | None):
        if not username:
            return None
        user = get_user_model().objects.filter(username__iexact=username.strip()).first()
        if user is None:
            raise CommandError(f"No account is called {username.strip()!r}.")
        return user
