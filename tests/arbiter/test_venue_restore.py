"""``manage.py restore_event``: an after-round snapshot comes back as a new event."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import database_rows, play_out
from tournaments.models import Event, EventRole
from tournaments.record.history import public_rows
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def written(make_world, organiser, settings, tmp_path):
    """An event of 6 after two closed rounds, and its newest snapshot."""
    settings.ARBITER_BACKUP_DIR = str(tmp_path / "backups")
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    world = make_world(6)
    play_out(world.round, organiser)
    rounds.close_round(world.round, organiser)
    second = rounds.pair_next_round(world.event, organiser)
    play_out(second, organiser, "2-1")
    rounds.close_round(second, organiser)
    newest = sorted((tmp_path / "backups").glob("*.arbiter-event.json"))[-1]
    return world.event, newest


def restore(*args: str) -> list[str]:
    out = StringIO()
    call_command("restore_event", *args, stdout=out, stderr=StringIO())
    return out.getvalue().splitlines()


def test_a_snapshot_comes_back_as_a_new_event_with_the_same_standings(written, organiser):
    original, path = written
    lines = restore(str(path))
    restored = Event.objects.exclude(pk=original.pk).get()
    assert lines[-1] == f"http://192.168.1.20:8000/events/{restored.pk}/"
    assert f"as event {restored.pk}: 6 players, 2 rounds, organised by olive" in lines[0]
    assert restored.name == original.name and restored.status == Event.Status.RUNNING
    assert EventRole.objects.filter(event=restored, user=organiser, role="organiser").exists()

    def table(event):
        return [(r["rank"], r["name"], r["match_points"], r["omw"]) for r in public_rows(event)]

    assert table(restored) == table(original)
    rounds.pair_next_round(restored, organiser)  # the event goes on from where it was


def test_another_organiser_can_be_named_and_an_unknown_one_is_refused(written, judge):
    _, path = written
    restore(str(path), "--organiser", judge.username)
    assert EventRole.objects.filter(user=judge, role="organiser").count() == 1
    before = database_rows()
    with pytest.raises(CommandError, match="No account is called 'nobody'"):
        restore(str(path), "--organiser", "nobody")
    assert database_rows() == before


def test_a_snapshot_whose_organiser_is_not_here_is_left_to_superusers(written, tmp_path):
    _, path = written
    document = json.loads(path.read_text())
    document["arbiter_backup"]["organiser"] = "someone-elsewhere"
    moved = tmp_path / "moved.arbiter-event.json"
    moved.write_text(json.dumps(document))
    lines = restore(str(moved))
    assert "organised by" not in lines[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", r"is not valid JSON: .* line 1, column 2"),
        (b'{"format": "arbiter-event/2"}', r"format"),
        (b"SQLite format 3\x00" + bytes(100), r"is an SQLite database backup, not an event"),
        (b"PGDMP\x01\x0e", r"is a PostgreSQL \(pg_dump\) database backup"),
    ],
)
def test_a_file_that_is_not_a_snapshot_is_named_and_nothing_is_written(
    db, tmp_path, content, message
):
    path = tmp_path / "backup.file"
    path.write_bytes(content)
    before = database_rows()
    with pytest.raises(CommandError, match=message) as caught:
        restore(str(path))
    assert str(path) in str(caught.value)
    assert database_rows() == before


def test_a_damaged_snapshot_names_each_problem_and_writes_nothing(written, tmp_path):
    _, path = written
    document = json.loads(path.read_text())
    document["rounds"][1]["matches"][0]["players"][0] = "p404"
    document["players"][2]["name"] = ""
    damaged = tmp_path / "damaged.arbiter-event.json"
    damaged.write_text(json.dumps(document))
    before = database_rows()
    with pytest.raises(CommandError) as caught:
        restore(str(damaged))
    text = str(caught.value)
    assert "was not restored" in text and "nothing was written" in text
    assert "rounds[1].matches[0]" in text and "players[2].name" in text
    assert database_rows() == before


def test_a_missing_file_is_named(db, tmp_path):
    with pytest.raises(CommandError, match=r"Cannot read .*nowhere\.json"):
        restore(str(tmp_path / "nowhere.json"))
