"""Venue mode: the production settings on one laptop for the venue's own network.

``manage.py venue`` (``scripts/venue``) builds the environment its processes run with
here: debug off, a secret key kept in the venue folder, the SQLite file there (WAL, a busy
timeout; ``arbiter.env.VENUE_SQLITE_OPTIONS``) unless DATABASE_URL names a database, the
host names a phone on the network uses, plain HTTP (the network is the venue's), Celery
eager and the in-memory channel layer (one server process). Plain functions, so each
rule is tested without starting a server.
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
import socket
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from web.private_files import private_file, private_folder, private_tree

SECRET_FILE = "secret_key"
# Where the venue last served (bind, port, the address phones open): a command run on the
# folder later prints the venue's own address, not this laptop's defaults.
SERVED_FILE = "served.json"
DATABASE_NAME = "arbiter.sqlite3"
# Commands that work on a folder with no venue database yet (createsuperuser migrates
# first); any other is refused there, before it writes anything.
NO_DATABASE_NEEDED = {
    "migrate",
    "createsuperuser",
    "collectstatic",
    "showmigrations",
    "shell",
    "dbshell",
    "check",
    "help",
    "version",
}
DEFAULT_PORT = 8000
DEFAULT_BIND = "0.0.0.0"
# A private address no venue network uses: connecting a UDP socket to it sends nothing,
# but makes the system choose the interface (and so the source address) of its route.
ROUTE_PROBE = ("10.254.254.254", 1)
LOOPBACK = "127.0.0.1"
# One server process serves the hall: a broker, a shared cache or a Redis channel layer
# would only be something more to go wrong when the venue's internet is gone.
ONE_PROCESS_DROPS = ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "REDIS_URL")
ALL_INTERFACES = {"0.0.0.0", "::", ""}
# What SQLite writes beside a database while it is open (WAL mode, or a rollback journal).
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")
# Whatever the processes write without an explicit mode is owner-only too.
PRIVATE_UMASK = 0o077


class VenueError(Exception):
    """Venue mode cannot start; the message says what to do."""


def lan_address(probe: tuple[str, int] = ROUTE_PROBE) -> str:
    """The laptop's primary IPv4 address on the local network, else 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
            probe_socket.connect(probe)
            address = probe_socket.getsockname()[0]
    except OSError:
        return LOOPBACK
    return address if address and address != "0.0.0.0" else LOOPBACK


def secret_key(folder: Path) -> str:
    """The venue's secret key: made once, kept in the folder (mode 600), reused after.

    Keeping it means a restart logs nobody out; a file others can read is made private.
    """
    path = folder / SECRET_FILE
    private_folder(folder)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if stat.S_IMODE(path.stat().st_mode) != 0o600:
            path.chmod(0o600)
        key = path.read_text(encoding="utf-8").strip()
        if not key:
            raise VenueError(
                f"{path} is empty: delete it and start again to make a new key "
                "(everybody is logged out)."
            ) from None
        return key
    key = secrets.token_urlsafe(50)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
    return key


def database_file(env: Mapping[str, str]) -> Path | None:
    """The venue's SQLite file (from its environment), None when the database is a server."""
    url = env.get("DATABASE_URL", "")
    return Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None


def venue_database(env: Mapping[str, str], folder: Path) -> Path | None:
    """The SQLite file a venue on ``folder`` uses (None when DATABASE_URL names a server)."""
    url = env.get("DATABASE_URL", "").strip()
    return database_file({"DATABASE_URL": url or f"sqlite:///{folder / DATABASE_NAME}"})


def has_database(env: Mapping[str, str], folder: Path) -> bool:
    """Whether the venue on ``folder`` has a database to run a command on: a server named
    by DATABASE_URL is taken to have one; an SQLite file must exist and not be empty
    (an empty file is what an older version left behind)."""
    database = venue_database(env, folder)
    if database is None:
        return True
    try:
        return database.stat().st_size > 0
    except OSError:
        return False


def remember_served(folder: Path, bind: str, port: int, url: str) -> None:
    """Keep where the venue serves, for the commands run on its folder later."""
    path = folder / SERVED_FILE
    private_file(path)
    path.write_text(json.dumps({"bind": bind, "port": port, "url": url}) + "\n", "utf-8")


def served(folder: Path) -> dict[str, Any]:
    """Where the venue on ``folder`` last served: ``bind``, ``port``, ``url``; {} if never."""
    try:
        found = json.loads((folder / SERVED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def make_private(folder: Path, env: Mapping[str, str]) -> None:
    """The venue folder and everything in it owner-only (0700 folders, 0600 files).

    Run before anything opens the database, it also creates the SQLite file owner-only:
    SQLite gives the ``-wal`` and ``-shm`` files it makes later the database's own mode.
    Run again after preparing, it covers what migrate and collectstatic wrote, and a
    folder an older version left readable by every local user.
    """
    private_tree(folder)
    database = database_file(env)
    if database is not None:
        if not database.parent.exists():
            private_folder(database.parent)
        private_file(database)
        for suffix in SQLITE_COMPANIONS:
            companion = database.with_name(database.name + suffix)
            if companion.exists():
                private_file(companion)


def url_host(host: str) -> str:
    """A host as it is written in a URL (an IPv6 address in brackets)."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host


def served_address(bind: str, lan: str) -> str:
    """The address phones use: the LAN address when bound to every interface."""
    return lan if bind in ALL_INTERFACES else bind


def allowed_hosts(address: str, hostname: str, bind: str, extra: list[str]) -> list[str]:
    """What a phone or the laptop itself may call the site: LAN address, name, loopback."""
    names = [url_host(address)]
    if hostname:
        names += [hostname, f"{hostname}.local"]
    names += ["localhost", LOOPBACK, "[::1]"]
    if bind not in ALL_INTERFACES:
        names.append(url_host(bind))
    names += extra
    return list(dict.fromkeys(name for name in names if name))


def public_url(address: str, port: int) -> str:
    return f"http://{url_host(address)}:{port}"


def environment(
    env: Mapping[str, str],
    folder: Path,
    *,
    port: int,
    bind: str,
    address: str,
    hostname: str,
    secret: str,
) -> dict[str, str]:
    """The environment every venue process (migrate, the server, a command) runs with."""
    result = {name: value for name, value in env.items() if name not in ONE_PROCESS_DROPS}
    url = (env.get("PUBLIC_URL") or public_url(address, port)).rstrip("/")
    extra = [h.strip() for h in env.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    url_hostname = url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    hosts = allowed_hosts(address, hostname, bind, [*extra, url_hostname])
    origins = list(dict.fromkeys([url, *(f"http://{host}:{port}" for host in hosts)]))
    result.update(
        ARBITER_VENUE="1",
        ARBITER_VENUE_DIR=str(folder),
        DEBUG="false",
        SECRET_KEY=env.get("SECRET_KEY", "").strip() or secret,
        ALLOWED_HOSTS=",".join(hosts),
        CSRF_TRUSTED_ORIGINS=",".join(origins),
        STATIC_ROOT=str(folder / "static"),
        PUBLIC_URL=url,
        SITE_URL=(env.get("SITE_URL") or url).rstrip("/"),
        # Plain HTTP on the venue's own network: no redirect to HTTPS, cookies that HTTP
        # carries, no HSTS (which would lock phones out of the address for a year).
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        SECURE_HSTS_SECONDS="0",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="false",
        SECURE_HSTS_PRELOAD="false",
    )
    if not env.get("DATABASE_URL", "").strip():
        result["DATABASE_URL"] = f"sqlite:///{folder / DATABASE_NAME}"
    result.setdefault("MEDIA_ROOT", str(folder / "media"))
    return result
