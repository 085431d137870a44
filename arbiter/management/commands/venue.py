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
import socket
import subprocess
import sys
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
        parser.add_argument("--port", type=int, default=venue.DEFAULT_PORT, help="default 8000")
        parser.add_argument(
            "--bind",
            default=venue.DEFAULT_BIND,
            help="the address to listen on (default 0.0.0.0: every interface)",
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
        port = options["port"]
        if not 1 <= port <= 65535:
            raise CommandError(f"--port {port} is not a port number (1-65535).")
        bind = options["bind"].strip()
        folder = Path(options["dir"]).expanduser().resolve()
        try:
            secret = venue.secret_key(folder)
        except (venue.VenueError, OSError) as exc:
            raise CommandError(f"The venue folder {folder} is not usable: {exc}") from None
        env = venue.environment(
            os.environ,
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
        if options["manage_command"]:
            sys.exit(self._run(env, *options["manage_command"], check=False))
        self.stdout.write("Migrating the venue database…")
        self._run(env, "migrate", "--noinput", "-v", "0")
        self._collect_static(env, folder)
        venue.make_private(folder, env)
        self._announce(env, folder, bind, port)
        if options["prepare_only"]:
            return
        self.stdout.flush()
        sys.stdout.flush()
        os.chdir(settings.BASE_DIR)
        # The server takes this process's place: Ctrl-C and service managers reach it.
        command = ["-m", "daphne", "-b", bind, "-p", str(port), "arbiter.asgi:application"]
        # No beat here: the server's own thread tells judges of tables out of time.
        env = {**env, time_up_clock.ENV_FLAG: "1"}
        os.execve(sys.executable, [sys.executable, *command], env)

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
        out.write("  restore       scripts/venue restore_event <snapshot>.arbiter-event.json")
        out.write("")


def static_fingerprint() -> str:
    """Names, sizes and times of every static source file: changes when one does."""
    entries = []
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            info = os.stat(storage.path(path))
            entries.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}")
    return hashlib.sha256("\n".join(sorted(entries)).encode()).hexdigest()
