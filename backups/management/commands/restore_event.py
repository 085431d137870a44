"""``manage.py restore_event FILE``: bring an after-round snapshot back as a new event.

The snapshot is an ``arbiter-event/1`` file (``backups.snapshots``); it goes through
the one importer, so a bad file writes nothing and every problem is listed. The event is
given to the snapshot's organiser when that account exists here (``--organiser`` names
another), and its address is printed on the last line.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from backups.snapshots import SOURCE_KEY
from tournaments.interchange import InterchangeError, import_event
from tournaments.interchange.limits import ImportPolicy
from tournaments.management.commands import import_event as import_command
from tournaments.models import Event

# What a database backup starts with: restoring one is copying a file, not an import.
DATABASE_MAGIC = {b"SQLite format 3\x00": "an SQLite", b"PGDMP": "a PostgreSQL (pg_dump)"}


class Command(import_command.Command):
    help = (
        "Bring an arbiter-event/1 snapshot (venue mode's backups/) back as a new event and "
        "print its address. Nothing is written if the file has any problem."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the snapshot (a .arbiter-event.json file)")
        parser.add_argument(
            "--organiser",
            metavar="USERNAME",
            help="the account that organises the restored event (default: the snapshot's "
            "organiser, when that account exists here)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        _refuse_unmigrated_database()
        _refuse_database_backup(path)
        document = import_command.read_document(path)
        if options.get("organiser"):
            organiser = self._organiser(options["organiser"])
        else:
            organiser = self._snapshot_organiser(document)
        try:
            event = import_event(document, organiser, policy=ImportPolicy.operator())
        except InterchangeError as exc:
            count = len(exc.problems)
            listing = "\n".join(f"  {problem}" for problem in exc.problems)
            raise CommandError(
                f"{path} was not restored ({count} problem{'' if count == 1 else 's'}; "
                f"nothing was written):\n{listing}"
            ) from None
        whose = f", organised by {organiser.get_username()}" if organiser else ""
        self.stdout.write(
            f"Restored {event.name!r} as event {event.pk}: {event.registrations.count()} "
            f"players, {event.rounds.count()} rounds{whose}."
        )
        base = (settings.PUBLIC_URL or settings.SITE_URL).rstrip("/")
        self.stdout.write(f"{base}{event.get_absolute_url()}")

    def _snapshot_organiser(self, document: Any):
        """The account named in the snapshot, when it exists on this site."""
        source = document.get(SOURCE_KEY) if isinstance(document, dict) else None
        name = source.get("organiser") if isinstance(source, dict) else None
        if not isinstance(name, str) or not name.strip():
            return None
        try:
            return self._organiser(name)
        except CommandError:
            self.stderr.write(f"No account {name!r} here: the event is left to superusers.")
            return None


def _refuse_unmigrated_database() -> None:
    """A database without the site's tables (a folder that is not the venue's) is named
    in one line, before anything reads it."""
    if Event._meta.db_table not in connection.introspection.table_names():
        raise CommandError(
            f"The database {connection.settings_dict['NAME']} has no events table: it is "
            "not a migrated Arbiter database. In venue mode give the folder the venue runs "
            "on: scripts/venue --dir FOLDER restore_event FILE."
        )


def _refuse_database_backup(path: str) -> None:
    try:
        with open(path, "rb") as handle:
            start = handle.read(16)
    except OSError:
        return  # read_document says why it cannot be read
    for magic, kind in DATABASE_MAGIC.items():
        if start.startswith(magic):
            raise CommandError(
                f"{path} is {kind} database backup, not an event snapshot: restore it by "
                "putting it back in place of the database while the site is stopped "
                "(README, Venue mode); restore_event takes a .arbiter-event.json file."
            )
