"""Venue mode's printed commands work as printed (issue 30, point 6).

The banner's restore hint names the folder the venue runs on; pasted, it restores the
event and prints the address the venue serves on; run on a folder with no venue
database it says so in one line and writes nothing; and the first account is made
with ``scripts/venue createsuperuser``.
"""

import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.arbiter.test_venue import ROOT, clean_environ
from tests.conftest import play_out
from tournaments.rounds import services as rounds

BIND, PORT = "127.0.0.1", 8102


def venue_command(*args: str, environ=None) -> subprocess.CompletedProcess:
    """``scripts/venue ARGS`` as the script runs it (its last line), from the checkout."""
    return subprocess.run(
        [sys.executable, "manage.py", "venue", *args],
        cwd=ROOT,
        env=environ or clean_environ(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def pasted(line: str) -> subprocess.CompletedProcess:
    """A command line as the operator pastes it: ``scripts/venue …`` from any folder."""
    argv = shlex.split(line)
    assert Path(argv[0]).name == "venue" and Path(argv[0]).parent.name == "scripts", line
    # The script only makes sure the virtual environment is there, then runs manage.py venue.
    return venue_command(*argv[1:])


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """A venue started once (prepared, not serving) on 127.0.0.1:8102, and its banner."""
    folder = tmp_path_factory.mktemp("venue") / "hall"
    done = venue_command(
        "--dir", str(folder), "--bind", BIND, "--port", str(PORT), "--prepare-only"
    )
    assert done.returncode == 0, done.stderr
    return folder, done.stdout


def restore_line(banner: str) -> str:
    [line] = [line for line in banner.splitlines() if "restore_event" in line]
    return line.split("restore", 1)[1].strip()


def test_the_banners_restore_command_names_the_venue_folder(started):
    folder, banner = started
    command = shlex.split(restore_line(banner))
    assert command[command.index("--dir") + 1] == str(folder)
    assert command.index("--dir") < command.index("restore_event")


@pytest.fixture
def snapshot(make_world, organiser, settings, tmp_path):
    """An after-round snapshot of an event of 4, written as venue mode writes it."""
    settings.ARBITER_BACKUP_DIR = str(tmp_path / "backups")
    world = make_world(4)
    play_out(world.round, organiser)
    rounds.close_round(world.round, organiser)
    [path] = (tmp_path / "backups").glob("*.arbiter-event.json")
    return path


@pytest.mark.django_db(transaction=True)
def test_the_restore_command_pasted_as_printed_restores_at_the_venues_own_address(
    started, snapshot
):
    folder, banner = started
    hint = restore_line(banner)
    placeholder = re.search(r"\S*<[^>]+>\S*", hint).group(0)
    backups = folder / "backups"
    backups.mkdir(exist_ok=True)
    copy = backups / snapshot.name
    shutil.copy(snapshot, copy)
    assert Path(placeholder).parent == backups
    done = pasted(hint.replace(placeholder, shlex.quote(str(copy))))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    address = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(rf"http://{BIND}:{PORT}/events/\d+/", address), done.stdout


def test_a_command_on_a_folder_with_no_venue_database_says_so_and_writes_nothing(tmp_path):
    folder = tmp_path / "nothing-here"
    done = venue_command("--dir", str(folder), "restore_event", "some.arbiter-event.json")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    [message] = done.stderr.strip().splitlines()
    assert str(folder) in message and "scripts/venue --dir" in message
    assert not folder.exists()


def test_an_empty_database_file_is_no_venue_database_either(tmp_path):
    folder = tmp_path / "venue"
    folder.mkdir()
    (folder / "arbiter.sqlite3").touch()
    done = venue_command("--dir", str(folder), "restore_event", "some.arbiter-event.json")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert (folder / "arbiter.sqlite3").stat().st_size == 0
    assert sorted(p.name for p in folder.iterdir()) == ["arbiter.sqlite3"]


def test_the_first_account_is_made_with_createsuperuser_on_a_fresh_venue(tmp_path):
    folder = tmp_path / "venue"
    environ = clean_environ(
        DJANGO_SUPERUSER_PASSWORD="first-organiser-pass-9",
        DJANGO_SUPERUSER_EMAIL="organiser@example.org",
    )
    done = venue_command(
        "--dir",
        str(folder),
        "createsuperuser",
        "--noinput",
        "--username",
        "organiser",
        environ=environ,
    )
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(folder / "arbiter.sqlite3") as db:
        rows = db.execute("SELECT username, is_superuser FROM auth_user").fetchall()
    assert rows == [("organiser", 1)]


def test_a_venue_without_accounts_says_how_to_make_the_first(started):
    folder, banner = started
    [line] = [line for line in banner.splitlines() if "createsuperuser" in line]
    command = shlex.split(line.split("account", 1)[1].strip())
    assert command[command.index("--dir") + 1] == str(folder)
    assert command[-1] == "createsuperuser"


def test_the_readme_says_how_the_organiser_makes_the_first_account():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    venue_section = readme.split("## Venue mode", 1)[1].split("\n## ", 1)[0]
    assert "scripts/venue createsuperuser" in venue_section
