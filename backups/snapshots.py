"""After a round closes: the event as an ``arbiter-event/1`` snapshot, and the database.

Written to ``ARBITER_BACKUP_DIR`` (venue mode: the venue folder's ``backups/``; off when
empty), the last ``ARBITER_BACKUPS_KEEP`` of each kept: snapshots per event, database
copies for the whole site. A snapshot comes back as a new event with ``manage.py
restore_event``; a database copy is the whole site (accounts, decklists, penalties) for
when the laptop's own file is lost. Names start with the UTC time, so they sort in the
order they were written.

Both are owner-only (the folder 0700, each file 0600, set explicitly: ``web.private_files``)
and the database copy leaves out what would let its reader act as someone: the sessions
(live log-ins) and the log-in guard's records (who tried from which address). API keys are
kept only as digests (``accounts.tokens``), password hashes as Django hashes them.

Both are written after the close commits: ``backups.listeners`` hears
``tournaments.signals.round_status_changed``; a failure is logged and never undoes or
blocks the close.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import connections
from django.utils import timezone

from tournaments.interchange import export_event
from tournaments.models import Event, EventRole
from web.private_files import open_private, private_file, private_folder

logger = logging.getLogger(__name__)

SNAPSHOT_SUFFIX = ".arbiter-event.json"
DATABASE_SUFFIXES = (".sqlite3", ".pgdump")
# A key other tools ignore (unknown keys are): what the snapshot is of, for restore_event.
SOURCE_KEY = "arbiter_backup"
PG_DUMP_SECONDS = 300
BACKUP_NAME = re.compile(r"^\d{8}T\d{12}Z-event-\d+-round-\d+\.")
# Rows a database copy leaves out: live log-ins, and the log-in guard's records of who tried
# from which address (a restored site needs neither). Dependants first (SQLite deletes in
# this order; foreign keys point from a later-listed table's rows to none of the earlier).
LEFT_OUT = (
    "sessions.Session",
    "axes.AccessAttemptExpiration",
    "axes.AccessAttempt",
    "axes.AccessFailureLog",
    "axes.AccessLog",
)


@dataclass
class Written:
    snapshot: Path | None = None
    database: Path | None = None


def backup_directory() -> Path | None:
    """The configured folder, or None when backups are off."""
    directory = getattr(settings, "ARBITER_BACKUP_DIR", "")
    return Path(directory) if directory else None


def keep() -> int:
    return max(1, int(getattr(settings, "ARBITER_BACKUPS_KEEP", 10)))


def after_round_closed(event_id: int, round_number: int) -> Written | None:
    """The on-commit hook of ``close_round``: writes both, never raises."""
    directory = None
    try:
        directory = backup_directory()
        return None if directory is None else write_backups(event_id, round_number, directory)
    except Exception:  # a full disk or a lost folder must not fail the organiser's close
        logger.exception(
            "No backup after round %s of event %s (in %s)", round_number, event_id, directory
        )
        return None


def write_backups(event_id: int, round_number: int, directory: Path) -> Written:
    """Snapshot and database copy, each pruned to the last ``keep()``; each may fail alone."""
    private_folder(directory)
    stem = f"{timezone.now():%Y%m%dT%H%M%S%fZ}-event-{event_id}-round-{round_number}"
    written = Written()
    try:
        written.snapshot = write_snapshot(
            Event.objects.get(pk=event_id), round_number, directory, stem
        )
        prune(directory, f"*-event-{event_id}-round-*{SNAPSHOT_SUFFIX}")
    except Exception:
        logger.exception("No snapshot of event %s after round %s", event_id, round_number)
    try:
        written.database = backup_database(directory, stem)
        for suffix in DATABASE_SUFFIXES:
            prune(directory, f"*{suffix}")
    except Exception:
        logger.exception("No database backup after round %s of event %s", round_number, event_id)
    return written


def write_snapshot(event: Event, round_number: int, directory: Path, stem: str) -> Path:
    """The event's ``arbiter-event/1`` document, written whole or not at all."""
    document = export_event(event)
    document[SOURCE_KEY] = {
        "event": event.pk,
        "after_round": round_number,
        "written_at": timezone.now().isoformat(),
        "organiser": _organiser_name(event),
    }
    path = directory / f"{stem}{SNAPSHOT_SUFFIX}"
    _write_atomically(path, json.dumps(document, ensure_ascii=False, indent=1).encode())
    return path


def _organiser_name(event: Event) -> str | None:
    role = (
        EventRole.objects.filter(event=event, role=EventRole.Role.ORGANISER)
        .select_related("user")
        .order_by("pk")
        .first()
    )
    return role.user.get_username() if role else None


def _write_atomically(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".tmp")
    try:
        with open_private(partial) as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def backup_database(directory: Path, stem: str) -> Path | None:
    """A consistent copy of the whole database, or None (logged) when none can be made."""
    connection = connections["default"]
    if connection.vendor == "sqlite":
        return _backup_sqlite(connection, directory / f"{stem}.sqlite3")
    if connection.vendor == "postgresql":
        return _dump_postgresql(connection.settings_dict, directory / f"{stem}.pgdump")
    logger.info("No database backup: %s databases are not backed up here", connection.vendor)
    return None


def left_out_tables() -> list[str]:
    """The tables of ``LEFT_OUT`` that this site has, in that order."""
    tables = []
    for label in LEFT_OUT:
        try:
            tables.append(apps.get_model(label)._meta.db_table)
        except LookupError:  # that app is not installed here
            continue
    return tables


def _backup_sqlite(connection, path: Path) -> Path:
    """SQLite's online backup: a consistent copy while the site goes on writing, then
    emptied of the ``LEFT_OUT`` rows before it is moved into place."""
    connection.ensure_connection()
    partial = path.with_name(path.name + ".tmp")
    try:
        private_file(partial)  # empty, owner-only: SQLite keeps the mode it finds
        target = sqlite3.connect(partial)
        try:
            connection.connection.backup(target)
            _leave_out_sqlite(target)
        finally:
            target.close()
        private_file(partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def _leave_out_sqlite(copy: sqlite3.Connection) -> None:
    """Delete the left-out rows from the copy, leaving no trace of them in its free pages,
    and make it one self-contained file (no ``-wal`` beside it)."""
    copy.execute("PRAGMA journal_mode=DELETE")
    copy.execute("PRAGMA secure_delete=ON")
    present = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for table in left_out_tables():
        if table in present:
            copy.execute(f'DELETE FROM "{table}"')
    copy.commit()
    copy.execute("VACUUM")


def _dump_postgresql(database: dict, path: Path) -> Path | None:
    """pg_dump's custom format (pg_restore reads it), when pg_dump is installed."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        logger.info("No database backup: pg_dump is not installed (back PostgreSQL up yourself)")
        return None
    partial = path.with_name(path.name + ".tmp")
    command = [pg_dump, "--format=custom", "--no-password", "--lock-wait-timeout=10s"]
    command += [f"--exclude-table-data={table}" for table in left_out_tables()]
    command += [f"--file={partial}", f"--dbname={database['NAME']}"]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if database.get(key):
            command.append(f"{option}={database[key]}")
    env = dict(os.environ)
    if database.get("PASSWORD"):
        env["PGPASSWORD"] = str(database["PASSWORD"])
    try:
        private_file(partial)  # pg_dump writes into it, keeping its owner-only mode
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=PG_DUMP_SECONDS, check=False
        )
        if done.returncode != 0:
            logger.warning("No database backup: pg_dump failed: %s", done.stderr.strip()[:500])
            return None
        private_file(partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def prune(directory: Path, pattern: str) -> list[Path]:
    """Delete all but the newest ``keep()`` backups matching ``pattern``; the deleted ones.

    Only files named as this module names them are touched, so a backup folder set to the
    venue folder itself can never lose the live database.
    """
    files = sorted(
        (path for path in directory.glob(pattern) if BACKUP_NAME.match(path.name)),
        key=lambda path: path.name,
    )
    old = files[: -keep()]
    for path in old:
        path.unlink(missing_ok=True)
    return old
