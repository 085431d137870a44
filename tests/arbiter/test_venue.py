"""Venue mode's settings: debug off, a kept secret, SQLite in WAL, the LAN's host names."""

import ipaddress
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from arbiter import env, venue

ROOT = Path(__file__).resolve().parents[2]
# Settings a developer's shell or the test run may carry that the venue must not inherit.
OUTSIDE = {
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "PUBLIC_URL",
    "SITE_URL",
    "ARBITER_BACKUP_DIR",
    "ARBITER_VENUE",
    "ARBITER_VENUE_DIR",
    "DJANGO_SETTINGS_MODULE",
}


def clean_environ(**extra: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in OUTSIDE}, **extra}


def venue_env(folder: Path, **extra: str) -> dict[str, str]:
    return venue.environment(
        clean_environ(**extra),
        folder,
        port=8123,
        bind="0.0.0.0",
        address="192.168.1.20",
        hostname="hall-laptop",
        secret="kept-secret",
    )


def settings_under(environ: dict[str, str], expression: str):
    """Import the real settings module under ``environ``; the expression as JSON."""
    code = f"import json, arbiter.settings as s; print(json.dumps({expression}, default=str))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def manage_venue(
    folder: Path, *command: str, environ=None, umask: int = 0o022
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "venue", "--dir", str(folder), "--port", "8123", *command],
        cwd=ROOT,
        env=environ or clean_environ(),
        capture_output=True,
        text=True,
        timeout=120,
        umask=umask,
    )


def not_owner_only(root: Path) -> list[str]:
    """Every folder under ``root`` (itself too) not 0700 and every file not 0600."""
    found = []
    for path in [root, *root.rglob("*")]:
        try:
            info = path.lstat()
        except FileNotFoundError:  # gone since listed (SQLite removes its -wal at the end)
            continue
        wanted = 0o700 if stat.S_ISDIR(info.st_mode) else 0o600
        if not stat.S_ISLNK(info.st_mode) and stat.S_IMODE(info.st_mode) != wanted:
            found.append(f"{path.relative_to(root)} {stat.S_IMODE(info.st_mode):o}")
    return found


# --- the database -------------------------------------------------------------------------


def test_venue_mode_puts_sqlite_in_wal_with_a_busy_timeout_and_immediate_writes(tmp_path):
    config = env.database_config({"ARBITER_VENUE": "1"}, tmp_path)
    options = config["OPTIONS"]
    assert "PRAGMA journal_mode=WAL" in options["init_command"]
    assert "PRAGMA synchronous=NORMAL" in options["init_command"]
    assert options["timeout"] >= 5
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "transaction_mode" not in env.database_config({}, tmp_path)["OPTIONS"]


def test_venue_mode_leaves_a_named_postgresql_database_alone(tmp_path):
    config = env.database_config(
        {"ARBITER_VENUE": "1", "DATABASE_URL": "postgres://u@127.0.0.1:5432/arbiter"}, tmp_path
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert "init_command" not in config["OPTIONS"]


def test_the_venue_database_is_in_the_venue_folder_unless_one_is_named(tmp_path):
    assert venue_env(tmp_path)["DATABASE_URL"] == f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"
    named = venue_env(tmp_path, DATABASE_URL="postgres://u@127.0.0.1/venue")
    assert named["DATABASE_URL"] == "postgres://u@127.0.0.1/venue"


def test_the_running_venue_database_is_in_wal_mode(tmp_path):
    """What the venue's own processes get when they open the database."""
    probe = (
        "from django.db import connection; c = connection.cursor(); "
        "print(c.execute('PRAGMA journal_mode').fetchone()[0], "
        "c.execute('PRAGMA synchronous').fetchone()[0])"
    )
    done = manage_venue(tmp_path, "shell", "-c", probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["wal", "1"]  # 1 is NORMAL
    assert (tmp_path / "arbiter.sqlite3").is_file()


# Opens the venue database, writes (so SQLite makes its -wal and -shm files) and, with the
# connection still open, lists the venue folder's files and their modes.
WRITE_AND_LIST = (
    "import json, os, stat; from django.db import connection; c = connection.cursor(); "
    "c.execute('CREATE TABLE probe (x)'); c.execute('INSERT INTO probe VALUES (1)'); "
    "d = os.environ['ARBITER_VENUE_DIR']; "
    "print(json.dumps({n: stat.S_IMODE(os.stat(os.path.join(d, n)).st_mode) "
    "for n in os.listdir(d)}))"
)


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_the_venue_folder_and_its_database_are_owner_only_whatever_the_umask(tmp_path, umask):
    folder = tmp_path / "venue"
    done = manage_venue(folder, "shell", "-c", WRITE_AND_LIST, umask=umask)
    assert done.returncode == 0, done.stderr
    modes = json.loads(done.stdout.splitlines()[-1])
    names = {"arbiter.sqlite3", "arbiter.sqlite3-wal", "arbiter.sqlite3-shm", "secret_key"}
    assert names <= set(modes)  # listed while the database was open
    assert {name: modes[name] for name in names} == dict.fromkeys(names, 0o600)
    assert not not_owner_only(folder)


def test_a_venue_folder_left_readable_by_others_is_made_owner_only(tmp_path):
    """A folder an older version wrote (0755, a 0644 database, its WAL, backups) is closed."""
    folder = tmp_path / "venue"
    (folder / "backups").mkdir(parents=True, mode=0o755)
    for name in (
        "arbiter.sqlite3",
        "arbiter.sqlite3-wal",
        "arbiter.sqlite3-shm",
        "backups/x.sqlite3",
    ):
        (folder / name).write_text("")
        (folder / name).chmod(0o644)
    folder.chmod(0o755)
    assert len(not_owner_only(folder)) == 6
    venue.make_private(folder, venue_env(folder))
    assert not not_owner_only(folder)


# --- the secret key -----------------------------------------------------------------------


def test_the_secret_key_is_made_once_private_and_reused(tmp_path):
    first = venue.secret_key(tmp_path)
    path = tmp_path / venue.SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 50
    assert venue.secret_key(tmp_path) == first
    assert venue.secret_key(tmp_path / "other") != first


def test_a_secret_key_file_others_can_read_is_made_private(tmp_path):
    path = tmp_path / venue.SECRET_FILE
    path.write_text("an-old-key\n")
    path.chmod(0o644)
    assert venue.secret_key(tmp_path) == "an-old-key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_empty_secret_key_file_is_refused_with_what_to_do(tmp_path):
    (tmp_path / venue.SECRET_FILE).write_text("\n")
    with pytest.raises(venue.VenueError, match="delete it"):
        venue.secret_key(tmp_path)


def test_every_venue_process_signs_with_the_kept_key_across_restarts(tmp_path):
    show = ["shell", "-c", "from django.conf import settings; print(settings.SECRET_KEY)"]
    first = manage_venue(tmp_path, *show)
    assert first.returncode == 0, first.stderr
    key = (tmp_path / venue.SECRET_FILE).read_text().strip()
    assert first.stdout.split()[-1] == key
    again = manage_venue(tmp_path, *show)
    assert again.stdout.split()[-1] == key
    assert stat.S_IMODE((tmp_path / venue.SECRET_FILE).stat().st_mode) == 0o600


# --- the settings the processes run with --------------------------------------------------


def test_the_venue_runs_production_settings_for_the_local_network(tmp_path):
    loaded = settings_under(
        venue_env(tmp_path),
        "dict(debug=s.DEBUG, key=s.SECRET_KEY, hosts=s.ALLOWED_HOSTS, "
        "origins=s.CSRF_TRUSTED_ORIGINS, public=s.PUBLIC_URL, site=s.SITE_URL, "
        "db=s.DATABASES['default'], eager=s.CELERY_TASK_ALWAYS_EAGER, "
        "layer=s.CHANNEL_LAYERS['default']['BACKEND'], static=str(s.STATIC_ROOT), "
        "storage=s.STORAGES['staticfiles']['BACKEND'], backups=s.ARBITER_BACKUP_DIR, "
        "keep=s.ARBITER_BACKUPS_KEEP, ssl=s.SECURE_SSL_REDIRECT, "
        "cookie=s.SESSION_COOKIE_SECURE, hsts=s.SECURE_HSTS_SECONDS)",
    )
    assert loaded["debug"] is False
    assert loaded["key"] == "kept-secret"
    assert {"192.168.1.20", "hall-laptop", "hall-laptop.local", "localhost", "127.0.0.1"} <= set(
        loaded["hosts"]
    )
    assert "http://192.168.1.20:8123" in loaded["origins"]
    assert "http://hall-laptop.local:8123" in loaded["origins"]
    assert loaded["public"] == loaded["site"] == "http://192.168.1.20:8123"
    assert loaded["db"]["NAME"] == str(tmp_path / "arbiter.sqlite3")
    assert loaded["db"]["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert loaded["eager"] is True
    assert loaded["layer"] == "live.memory_layer.InMemoryChannelLayer"  # one process
    assert loaded["static"] == str(tmp_path / "static")
    assert "whitenoise" in loaded["storage"]
    assert loaded["backups"] == str(tmp_path / "backups")
    assert loaded["keep"] == 10
    # Plain HTTP on the venue's network: no HTTPS redirect, cookies HTTP carries, no HSTS.
    assert (loaded["ssl"], loaded["cookie"], loaded["hsts"]) == (False, False, 0)


def test_one_process_serves_the_hall_so_no_broker_or_redis_is_inherited(tmp_path):
    environ = venue_env(
        tmp_path,
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        REDIS_URL="redis://127.0.0.1:6379/2",
        CACHE_URL="redis://127.0.0.1:6379/1",
        DEBUG="true",
    )
    assert not {"CELERY_BROKER_URL", "REDIS_URL", "CACHE_URL"} & environ.keys()
    assert environ["DEBUG"] == "false"


def test_the_operators_own_hosts_and_address_are_kept(tmp_path):
    environ = venue_env(tmp_path, ALLOWED_HOSTS="arbiter.hall", PUBLIC_URL="http://arbiter.hall/")
    hosts = environ["ALLOWED_HOSTS"].split(",")
    assert "arbiter.hall" in hosts and "192.168.1.20" in hosts
    assert environ["PUBLIC_URL"] == "http://arbiter.hall"
    assert "http://arbiter.hall" in environ["CSRF_TRUSTED_ORIGINS"].split(",")


def test_a_chosen_bind_address_is_the_one_announced_and_allowed():
    assert venue.served_address("0.0.0.0", "192.168.1.20") == "192.168.1.20"
    assert venue.served_address("10.0.0.7", "192.168.1.20") == "10.0.0.7"
    hosts = venue.allowed_hosts("fd00::7", "laptop", "fd00::7", [])
    assert hosts[0] == "[fd00::7]"
    assert venue.public_url("fd00::7", 8000) == "http://[fd00::7]:8000"


def test_backups_are_off_outside_venue_mode_unless_a_folder_is_named(tmp_path):
    assert env.backup_config({}, tmp_path)["ARBITER_BACKUP_DIR"] == ""
    venue_dir = tmp_path / "hall"
    on = env.backup_config({"ARBITER_VENUE": "1", "ARBITER_VENUE_DIR": str(venue_dir)}, tmp_path)
    assert on["ARBITER_BACKUP_DIR"] == str(venue_dir / "backups")
    named = env.backup_config({"ARBITER_BACKUP_DIR": "/srv/backups"}, tmp_path)
    assert named["ARBITER_BACKUP_DIR"] == "/srv/backups"
    with pytest.raises(ImproperlyConfigured, match="ARBITER_BACKUPS_KEEP"):
        env.backup_config({"ARBITER_BACKUPS_KEEP": "0"}, tmp_path)


# --- the address phones open --------------------------------------------------------------


def test_the_lan_address_is_this_machines_ipv4_address():
    address = venue.lan_address()
    assert ipaddress.ip_address(address).version == 4
    if address != venue.LOOPBACK:  # a machine with a network: an address of its own
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as own:
            own.bind((address, 0))


def test_without_a_network_the_lan_address_is_loopback(monkeypatch):
    class NoRoute(socket.socket):
        def connect(self, address):
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(venue.socket, "socket", NoRoute)
    assert venue.lan_address() == "127.0.0.1"


def test_a_bad_port_is_refused_by_name(tmp_path):
    done = manage_venue(tmp_path, "--port", "70000", "--prepare-only")
    assert done.returncode != 0
    assert "--port 70000" in done.stderr
