"""``manage.py venue``: serve Arbiter to the venue's own network from this laptop.

Migrates, collects the static files into the venue folder (only when they changed since
the last start), prints the address phones open and its QR code, then becomes the ASGI
server (daphne) on every interface. Every rule of the environment is in ``arbiter.venue``.
``manage.py venue COMMAND …`` runs another command against the venue instead (e.g.
``restore_event FILE``), and ``--prepare-only`` does everything but serve.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import segno
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand, CommandError, CommandParser

from arbiter import venue
from tournaments.clock import time_up as time_up_clock

MANAGE = Path(settings.BASE_DIR) / "manage.py"
FINGERPRINT_FILE = ".venue-collected"


class Command(BaseCommand):
    help = (
        "Serve Arbiter to the local network from this machine: production settings, "
        "SQLite in the venue folder, backups after every round, the address as a QR code."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--port",
            type=int,
            default=None,
            help="default 8000 (a command run on the folder: the port the venue serves on)",
        )
        parser.add_argument(
            "--bind",
            default=None,
            help="the address to listen on (default 0.0.0.0: every interface; a command "
            "run on the folder: the address the venue serves on)",
        )
        parser.add_argument(
            "--dir",
            default=str(Path(settings.BASE_DIR) / "var" / "venue"),
            help="the venue folder: database, secret key, static files, backups "
            "(default var/venue)",
        )
        parser.add_argument(
            "--prepare-only",
            action="store_true",
            help="migrate, collect static files and print the address, but do not serve",
        )
        parser.add_argument(
            "manage_command",
            nargs=argparse.REMAINDER,
            metavar="COMMAND",
            help="run this manage.py command against the venue instead of serving",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        folder = Path(options["dir"]).expanduser().resolve()
        command = options["manage_command"]
        # A command on the folder speaks of the venue as it serves (its address), unless
        # told otherwise; the server itself starts on what it is given.
        served = venue.served(folder) if command else {}
        port = options["port"] if options["port"] is not None else served.get("port")
        port = port if isinstance(port, int) else venue.DEFAULT_PORT
        if not 1 <= port <= 65535:
            raise CommandError(f"--port {port} is not a port number (1-65535).")
        bind = options["bind"] if options["bind"] is not None else served.get("bind")
        bind = (bind if isinstance(bind, str) else venue.DEFAULT_BIND).strip()
        needs_database = bool(command) and command[0] not in venue.NO_DATABASE_NEEDED
        if needs_database and not venue.has_database(os.environ, folder):
            # Checked before anything is written: no folder, key or empty database.
            raise CommandError(
                f"No venue database in {folder}: give the folder the venue runs on "
                f"({venue_command(folder)} {command[0]} …), or start the venue there first."
            )
        environ = dict(os.environ)
        if command and served.get("url") and options["port"] is None and options["bind"] is None:
            environ.setdefault("PUBLIC_URL", str(served["url"]))
        try:
            secret = venue.secret_key(folder)
        except (venue.VenueError, OSError) as exc:
            raise CommandError(f"The venue folder {folder} is not usable: {exc}") from None
        env = venue.environment(
            environ,
            folder,
            port=port,
            bind=bind,
            address=venue.served_address(bind, venue.lan_address()),
            hostname=socket.gethostname(),
            secret=secret,
        )
        # Owner-only: explicit modes for the folder and database, and the umask for the rest.
        os.umask(venue.PRIVATE_UMASK)
        venue.make_private(folder, env)
        if command:
            if command[0] == "createsuperuser":  # the first account, on a fresh venue too
                self._run(env, "migrate", "--noinput", "-v", "0")
            sys.exit(self._run(env, *command, check=False))
        self.stdout.write("Migrating the venue database…")
        self._run(env, "migrate", "--noinput", "-v", "0")
        self._collect_static(env, folder)
        venue.make_private(folder, env)
        venue.remember_served(folder, bind, port, env["PUBLIC_URL"])
        self._announce(env, folder, bind, port)
        if options["prepare_only"]:
            return
        self.stdout.flush()
        sys.stdout.flush()
        os.chdir(settings.BASE_DIR)
        # The server takes this process's place: Ctrl-C and service managers reach it.
        daphne = ["-m", "daphne", "-b", bind, "-p", str(port), "arbiter.asgi:application"]
        # No beat here: the server's own thread tells judges of tables out of time.
        env = {**env, time_up_clock.ENV_FLAG: "1"}
        os.execve(sys.executable, [sys.executable, *daphne], env)

    def _run(self, env: dict[str, str], *command: str, check: bool = True) -> int:
        done = subprocess.run(
            [sys.executable, str(MANAGE), *command], env=env, cwd=settings.BASE_DIR, check=False
        )
        if check and done.returncode != 0:
            raise CommandError(f"manage.py {command[0]} failed (exit {done.returncode}).")
        return done.returncode

    def _collect_static(self, env: dict[str, str], folder: Path) -> None:
        """collectstatic, skipped when no static file changed since the last one."""
        target = Path(env["STATIC_ROOT"])
        marker = target / FINGERPRINT_FILE
        fingerprint = static_fingerprint()
        manifest = target / "staticfiles.json"
        if manifest.is_file() and marker.is_file() and marker.read_text() == fingerprint:
            return
        self.stdout.write(f"Collecting static files into {target} (once per change)…")
        self._run(env, "collectstatic", "--noinput", "-v", "0")
        marker.write_text(fingerprint)

    def _announce(self, env: dict[str, str], folder: Path, bind: str, port: int) -> None:
        url = env["PUBLIC_URL"]
        out = self.stdout
        out.write("")
        out.write(self.style.SUCCESS(f"Arbiter venue mode: players open {url}"))
        if bind in venue.ALL_INTERFACES and venue.LOOPBACK in url:
            out.write(
                self.style.WARNING(
                    "No network found: only this laptop can reach it. Join the venue's "
                    "network (or start its Wi-Fi hotspot) and start again."
                )
            )
        out.flush()
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()
        out.write(f"  listening on  {venue.url_host(bind) or '*'}:{port}")
        out.write(f"  host names    {env['ALLOWED_HOSTS'].replace(',', ', ')}")
        out.write(f"  venue folder  {folder} (database, secret key, static files)")
        backups = env.get("ARBITER_BACKUP_DIR") or str(folder / "backups")
        out.write(f"  backups       {backups} (after every round)")
        script = venue_command(folder)
        where = shlex.quote(backups)
        out.write(f"  restore       {script} restore_event {where}/<file>.arbiter-event.json")
        if not has_accounts(env):
            out.write(
                self.style.WARNING(
                    "  No account yet: make the organiser's (a site admin) with this command."
                )
            )
            out.write(f"  first account {script} createsuperuser")
        out.write("")


def static_fingerprint() -> str:
    """Names, sizes and times of every static source file: changes when one does."""
    entries = []
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            info = os.stat(storage.path(path))
            entries.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}")
    return hashlib.sha256("\n".join(sorted(entries)).encode()).hexdigest()


def venue_command(folder: Path) -> str:
    """``scripts/venue --dir FOLDER`` as a shell takes it from any folder: what a printed
    command on this venue starts with, so it works when pasted."""
    script = Path(settings.BASE_DIR) / "scripts" / "venue"
    return f"{shlex.quote(str(script))} --dir {shlex.quote(str(folder))}"


def has_accounts(env: dict[str, str]) -> bool:
    """Whether the venue's database holds an account (a server database: assumed so)."""
    database = venue.database_file(env)
    if database is None:
        return True
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
            return db.execute("SELECT EXISTS (SELECT 1 FROM auth_user)").fetchone()[0] == 1
    except sqlite3.Error:
        return False
