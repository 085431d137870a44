"""A private PostgreSQL cluster that a test may stop and start without disturbing anyone.

The machine's shared PostgreSQL serves every engineer's tests at once; restarting it to
test an outage would break theirs. ``PrivateCluster`` runs ``initdb`` in a temporary
directory and ``pg_ctl`` on a free loopback port, with its socket in that directory.
PostgreSQL refuses to run as root, so as root the binaries run as the ``postgres``
account (``runuser -u postgres --``); as any other user they run as that user.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from tests.integration.topology import free_port, port_open, wait_until

SUPERUSER = "postgres"


def postgres_bin() -> Path | None:
    """The newest installed server's binaries (Debian layout), or whatever is on PATH."""
    installs = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if installs:
        return installs[-1].parent
    found = shutil.which("pg_ctl")
    return Path(found).parent if found else None


def why_not() -> str | None:
    """Why a private cluster cannot run here, or None when it can."""
    if postgres_bin() is None:
        return "no PostgreSQL server binaries (initdb, pg_ctl) are installed"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no postgres account to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root, and runuser (to run PostgreSQL as postgres) is missing"
    return None


class PrivateCluster:
    """initdb + pg_ctl in a temporary directory; ``stop()``/``start()`` for outages."""

    def __init__(self) -> None:
        reason = why_not()
        if reason:
            raise RuntimeError(reason)
        self.bin = postgres_bin()
        self.port = free_port()
        # Not under pytest's tmp_path: its parents are private to root, and the server
        # runs as postgres.
        self.root = Path(tempfile.mkdtemp(prefix="arbiter-private-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            account = pwd.getpwnam("postgres")
            os.chown(self.root, account.pw_uid, account.pw_gid)

    @property
    def admin_url(self) -> str:
        return f"postgres://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def _run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(argv[:2])} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
                f"\n{self.log.read_text() if self.log.exists() else ''}"[-4000:]
            )
        return done

    def init(self) -> PrivateCluster:
        self._run(
            "initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
            "--no-sync", "--no-instructions",
        )  # fmt: skip
        return self.start()

    def start(self) -> PrivateCluster:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", "start")  # fmt: skip
        wait_until(lambda: port_open(self.port), 30, f"private PostgreSQL on port {self.port}")
        return self

    def stop(self, mode: str = "fast") -> None:
        """``fast`` ends every session (a restart as an operator does it); waits until down."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    @property
    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def copy_database(self, source_url: str, name: str) -> None:
        """Copy a database (schema and rows) from another server into a new one here."""
        self._sql(f'CREATE DATABASE "{name}"')
        dump = subprocess.run(
            [str(self.bin / "pg_dump"), "--no-owner", "--no-privileges", source_url],
            capture_output=True,
            timeout=300,
            check=True,
        )
        target = urlsplit(self.admin_url)._replace(path=f"/{name}").geturl()
        subprocess.run(
            [str(self.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", target],
            input=dump.stdout,
            capture_output=True,
            timeout=300,
            check=True,
        )

    def _sql(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(statement)

    def destroy(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            if self.running:
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
