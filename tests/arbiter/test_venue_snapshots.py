"""After every round closes: a snapshot and a database backup, the last N kept."""

import json
import logging
import os
import shutil
import sqlite3
import subprocess

import pytest
from axes.models import AccessAttempt
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client

from accounts.tokens import issue_token
from backups import snapshots
from tests.arbiter.test_venue import not_owner_only
from tests.conftest import play_out
from tournaments.interchange import FORMAT, check_document
from tournaments.models import Round
from tournaments.rounds import services as rounds

# The close must really commit: the backups are written after it does (on commit).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def backups(settings, tmp_path):
    settings.ARBITER_BACKUP_DIR = str(tmp_path / "backups")
    settings.ARBITER_BACKUPS_KEEP = 10
    return tmp_path / "backups"


def close(round_: Round, organiser) -> None:
    play_out(round_, organiser)
    rounds.close_round(round_, organiser)


def play_rounds(world, organiser, count: int) -> None:
    close(world.round, organiser)
    for _ in range(count - 1):
        close(rounds.pair_next_round(world.event, organiser), organiser)


def event_snapshots(folder, event) -> list:
    return sorted(folder.glob(f"*-event-{event.pk}-round-*{snapshots.SNAPSHOT_SUFFIX}"))


def database_backups(folder) -> list:
    return sorted(p for suffix in snapshots.DATABASE_SUFFIXES for p in folder.glob(f"*{suffix}"))


def test_closing_a_round_writes_the_event_as_a_snapshot(make_world, organiser, backups):
    world = make_world(6)
    close(world.round, organiser)
    [path] = event_snapshots(backups, world.event)
    assert path.name.endswith(f"-event-{world.event.pk}-round-1.arbiter-event.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == FORMAT
    assert document["event"]["name"] == "Loop Open"
    assert len(document["players"]) == 6
    [round_one] = document["rounds"]
    assert all(match.get("bye") or match["games"] for match in round_one["matches"])
    assert document[snapshots.SOURCE_KEY]["organiser"] == organiser.username
    check_document(document)  # it can be brought back


def test_closing_a_round_backs_up_the_whole_database(make_world, organiser, backups):
    world = make_world(4)
    close(world.round, organiser)
    copies = database_backups(backups)
    if connection.vendor == "sqlite":
        [copy] = copies
        with sqlite3.connect(copy) as db:
            names = db.execute("SELECT name FROM tournaments_event").fetchall()
            closed = db.execute(
                "SELECT status FROM tournaments_round WHERE event_id = ?", [world.event.pk]
            ).fetchall()
        assert names == [("Loop Open",)]
        assert closed == [("closed",)]  # the copy is taken after the close commits
    elif shutil.which("pg_dump"):  # PostgreSQL: pg_dump's custom format
        [copy] = copies
        assert copy.read_bytes().startswith(b"PGDMP")
    else:
        assert copies == []  # logged: no pg_dump to make one with


def test_only_the_last_n_are_kept(make_world, organiser, backups, settings):
    settings.ARBITER_BACKUPS_KEEP = 2
    world = make_world(8)
    other = make_world(4, name="Side Event", judge=None, accounts=False)
    close(other.round, organiser)
    play_rounds(world, organiser, 3)
    kept = event_snapshots(backups, world.event)
    assert [p.name.rsplit("-round-", 1)[1] for p in kept] == [
        "2.arbiter-event.json",
        "3.arbiter-event.json",
    ]
    assert len(event_snapshots(backups, other.event)) == 1  # pruned per event
    if connection.vendor == "sqlite":
        copies = database_backups(backups)
        assert len(copies) == 2
        assert copies[-1].name.endswith(f"-event-{world.event.pk}-round-3.sqlite3")


def test_pruning_touches_only_files_it_wrote(make_world, organiser, backups, settings):
    settings.ARBITER_BACKUPS_KEEP = 1
    backups.mkdir(parents=True)
    live_database = backups / "arbiter.sqlite3"
    live_database.write_bytes(b"the venue's own database")
    world = make_world(8)
    play_rounds(world, organiser, 2)
    assert live_database.read_bytes() == b"the venue's own database"
    assert len(event_snapshots(backups, world.event)) == 1


def test_no_backup_folder_means_no_backups(make_world, organiser, settings, tmp_path):
    settings.ARBITER_BACKUP_DIR = ""
    world = make_world(4)
    close(world.round, organiser)
    assert snapshots.after_round_closed(world.event.pk, 1) is None
    assert not list(tmp_path.rglob("*.arbiter-event.json"))


def test_a_backup_that_cannot_be_written_never_stops_the_round_closing(
    make_world, organiser, settings, tmp_path, caplog
):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be")
    settings.ARBITER_BACKUP_DIR = str(blocked / "backups")
    world = make_world(4)
    with caplog.at_level(logging.ERROR, logger="backups.snapshots"):
        close(world.round, organiser)
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.CLOSED
    assert "No backup after round 1" in caplog.text


def test_a_close_that_is_refused_writes_nothing(make_world, organiser, backups):
    world = make_world(4)
    with pytest.raises(Exception, match="cannot close"):
        rounds.close_round(world.round, organiser)
    assert not backups.exists()


@pytest.fixture(params=[0o022, 0o002], ids=["umask-022", "umask-002"])
def permissive_umask(request):
    """A umask that lets others read what is written without an explicit mode."""
    before = os.umask(request.param)
    yield request.param
    os.umask(before)


def test_backups_are_owner_only_whatever_the_umask(
    make_world, organiser, backups, permissive_umask
):
    world = make_world(4)
    close(world.round, organiser)
    assert event_snapshots(backups, world.event)
    assert database_backups(backups) or connection.vendor != "sqlite"
    assert not not_owner_only(backups)  # the folder 0700, every file 0600


def test_an_existing_backup_folder_is_made_owner_only(
    make_world, organiser, backups, permissive_umask
):
    backups.mkdir(mode=0o755)
    backups.chmod(0o755)
    world = make_world(4)
    close(world.round, organiser)
    assert not not_owner_only(backups)


def test_the_database_backup_hands_out_no_working_credentials(make_world, organiser, backups):
    """No session (a live log-in), no API key a tool could send, no log-in guard records."""
    world = make_world(4)
    browser = Client()
    browser.force_login(organiser)
    session_key = browser.cookies["sessionid"].value
    api_key = issue_token(organiser).key
    AccessAttempt.objects.create(
        username="olive",
        ip_address="203.0.113.9",
        user_agent="probe-agent",
        http_accept="*/*",
        path_info="/accounts/login/",
        get_data="",
        post_data="",
        failures_since_start=1,
    )
    session_data = Session.objects.get(session_key=session_key).session_data
    close(world.round, organiser)

    text = backup_text(database_backups(backups))
    if text is None:
        pytest.skip("no pg_dump here: no database backup is written")
    assert "Loop Open" in text  # the event is there
    for secret in (session_key, session_data, api_key, "203.0.113.9", "probe-agent"):
        assert secret not in text
    # What the copy does hold of the key (its digest) opens nothing.
    digest = organiser.api_token.digest
    assert digest in text
    refused = Client().get("/api/v1/events/", HTTP_AUTHORIZATION=f"Token {digest}")
    assert refused.status_code == 403
    assert Client().get("/api/v1/events/", HTTP_AUTHORIZATION=f"Token {api_key}").status_code == 200


def backup_text(copies) -> str | None:
    """Every row of the database copy as text (SQLite: its rows, and every byte of the file
    for what deleted rows may leave behind; PostgreSQL: pg_dump's archive read back)."""
    if connection.vendor == "sqlite":
        [copy] = copies
        with sqlite3.connect(copy) as db:
            assert db.execute("SELECT count(*) FROM django_session").fetchone() == (0,)
            assert db.execute("SELECT count(*) FROM axes_accessattempt").fetchone() == (0,)
            text = "\n".join(db.iterdump())
        # Nothing deleted lingers in the file's free pages either.
        return text + copy.read_bytes().decode("latin-1")
    if not shutil.which("pg_dump"):
        assert copies == []
        return None
    [copy] = copies
    listing = subprocess.run(
        ["pg_restore", "--list", str(copy)], capture_output=True, text=True, check=True
    ).stdout
    assert "TABLE DATA public tournaments_event" in listing
    assert "TABLE DATA public django_session" not in listing
    return subprocess.run(
        ["pg_restore", "--file=-", str(copy)], capture_output=True, text=True, check=True
    ).stdout
