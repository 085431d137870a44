"""Who may change the card pool every event shares, how big and slow an import may be, and
who made each revision (issue 14: "Anyone who signs up can rewrite the card pool")."""

from __future__ import annotations

import itertools
import json

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import override_settings

from decks import cardpool, services
from decks.cardpool import import_file, read_rows
from decks.models import Card, CardRevision
from tests.conftest import database_rows, make_user
from tournaments.models import EventRole

pytestmark = pytest.mark.django_db

POOL_CSV = """name,syndicate,tier,class,speed,cost,max_copies,text
Ember Tithe,EMB,major,event,fast,4+ ODD,,Roll 1 die and slot it.
Quiet Ledger,,neutral,perpetual,slow,X,,Your Reserve may hold 4 dice.
"""
# What the report's attacker uploaded: the same card, now allowed 99 times.
REWRITE_CSV = POOL_CSV.replace("4+ ODD,,Roll", "4+ ODD,99,Roll")
EDITORS = "Card pool editors"
HEADER = "name,tier,class,speed"


def _upload(client, text: str, *, skip: bool = False, name: str = "pool.csv"):
    data = {"game": "iacta", "file": SimpleUploadedFile(name, text.encode(), "text/csv")}
    if skip:
        data["skip_errors"] = "on"
    return client.post("/cards/upload/", data)


def _rows(count: int) -> str:
    return "\n".join([HEADER, *(f"Card {i},neutral,event,fast" for i in range(count))]) + "\n"


def _editor(username: str = "edna"):
    user = make_user(username)
    user.groups.add(Group.objects.get(name=EDITORS))
    return user


def _copies_flagged(event) -> bool:
    report = services.check_text(event, "8 Ember Tithe")
    return any("8 copies of Ember Tithe" in v["message"] for v in report.violations)


# --- who may change the pool ------------------------------------------------------------


def test_organising_an_imported_event_gives_no_right_to_rewrite_the_shared_pool(
    event, client, login
):
    """The report's steps: sign up, import a minimal event (now an organiser), upload."""
    import_file("iacta", POOL_CSV, "pool.csv")
    assert _copies_flagged(event)  # olive's event: 8 copies is four too many
    mallory = make_user("mallory")
    client = login(mallory)
    document = {
        "format": "arbiter-event/1",
        "event": {"name": "Mine", "game": "iacta", "date": "2026-12-05", "match_format": "bo3"},
        "players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Ben"}],
        "rounds": [],
    }
    imported = client.post(
        "/api/v1/events/import/", json.dumps(document), content_type="application/json"
    )
    assert imported.status_code == 201, imported.content
    assert EventRole.objects.filter(user=mallory, role=EventRole.Role.ORGANISER).exists()

    before = database_rows()
    response = _upload(client, REWRITE_CSV)
    assert response.status_code == 403
    assert database_rows() == before
    assert Card.objects.get(key="ember tithe").max_copies is None
    assert _copies_flagged(event)


def test_a_refused_user_sees_why_and_whom_to_ask_and_no_upload_link(event, organiser, login):
    client = login(organiser)
    for response in (client.get("/cards/upload/"), _upload(client, POOL_CSV)):
        assert response.status_code == 403
        page = response.content.decode()
        assert "Card pool editors" in page and "site staff" in page.lower()
        assert "Organising an event" in page
        assert 'name="file"' not in page
    assert not Card.objects.exists()
    assert "/cards/upload/" not in client.get("/cards/").content.decode()


def test_site_staff_without_the_permission_is_refused_like_anyone(login):
    """is_staff opens the admin; the pool needs the permission (a superuser has every one)."""
    staff = make_user("stella", is_staff=True)
    assert login(staff).get("/cards/upload/").status_code == 403


def test_the_migration_creates_the_editors_group_with_the_permission():
    group = Group.objects.get(name=EDITORS)
    assert list(group.permissions.values_list("content_type__app_label", "codename")) == [
        ("decks", "edit_card_pool")
    ]
    assert Permission.objects.filter(codename="edit_card_pool").count() == 1


@pytest.mark.parametrize("who", ["group member", "permission holder", "superuser"])
def test_editors_and_superusers_upload_and_see_the_link(who, client, login):
    if who == "group member":
        user = _editor()
    elif who == "permission holder":
        user = make_user("perry")
        user.user_permissions.add(Permission.objects.get(codename="edit_card_pool"))
    else:
        user = make_user("root", is_superuser=True, is_staff=True)
    client = login(user)
    assert "/cards/upload/" in client.get("/cards/").content.decode()
    page = client.get("/cards/upload/")
    assert page.status_code == 200 and 'name="file"' in page.content.decode()
    assert "at most 20,000 cards" in page.content.decode()
    response = _upload(client, REWRITE_CSV)
    assert "2 cards: 2 created" in response.content.decode()
    assert Card.objects.get(key="ember tithe").max_copies == 99


def test_an_inactive_editor_is_refused(login):
    user = _editor()
    user.is_active = False
    user.save()
    assert not cardpool.may_edit_card_pool(user)


# --- the row limit ------------------------------------------------------------------------


def test_a_hundred_thousand_row_upload_is_refused_naming_the_limit(login):
    client = login(_editor())
    before = database_rows()
    response = _upload(client, _rows(100_000), skip=True)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was imported" in page
    assert "more than 20,000 cards" in page and "CARD_IMPORT_MAX_ROWS" in page
    assert database_rows() == before


@override_settings(CARD_IMPORT_MAX_ROWS=10)
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_row_limit_admits_the_limit_and_refuses_one_more(fmt):
    def data(count: int) -> str:
        if fmt == "csv":
            return _rows(count)
        items = [
            {"name": f"Card {i}", "tier": "neutral", "class": "event", "speed": "fast"}
            for i in range(count)
        ]
        return json.dumps(items)

    refused = import_file("iacta", data(11), f"pool.{fmt}", skip_errors=True)
    assert not refused.written and not Card.objects.exists()
    [problem] = refused.problems
    assert problem["where"] == "file"
    assert "more than 10 cards" in problem["message"]
    assert "CARD_IMPORT_MAX_ROWS" in problem["message"]
    assert import_file("iacta", data(10), f"pool.{fmt}").report.created == 10


@override_settings(CARD_IMPORT_MAX_ROWS=10)
def test_blank_lines_do_not_count_against_the_limit():
    text = HEADER + "\n" + "".join(f"Card {i},neutral,event,fast\n\n\n" for i in range(10))
    rows, problems = read_rows("iacta", text, "pool.csv")
    assert problems == [] and len(rows) == 10


@override_settings(CARD_IMPORT_MAX_ROWS=1000)
def test_reading_stops_at_the_limit_and_checks_no_row_of_a_file_past_it(monkeypatch):
    """Past the limit nothing is checked, and the CSV reader is not asked for row 1,002."""
    checked = []
    monkeypatch.setattr(cardpool, "_check_iacta", lambda cells: checked.append(cells))
    pulled = []
    real_reader = cardpool._csv_reader

    def counting_reader(text: str):
        for record in real_reader(text):
            pulled.append(record)
            yield record

    monkeypatch.setattr(cardpool, "_csv_reader", counting_reader)
    rows, problems = read_rows("iacta", _rows(100_000), "pool.csv")
    assert rows == [] and checked == []
    assert "more than 1,000 cards" in problems[0]["message"]
    assert len(pulled) == 1 + 1001  # the header and one row past the limit


# --- the time budget ----------------------------------------------------------------------


class FakeClock:
    """Each reading of the clock is ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.ticks = itertools.count()
        self.step = step

    def __call__(self) -> float:
        return next(self.ticks) * self.step


@override_settings(CARD_IMPORT_TIME_BUDGET=5)
def test_checking_past_the_time_budget_writes_nothing_and_names_the_budget(monkeypatch, login):
    client = login(_editor())
    monkeypatch.setattr(cardpool, "_clock", FakeClock(step=0.01))  # 500 readings: 5 s
    before = database_rows()
    response = _upload(client, _rows(2000), skip=True)
    page = response.content.decode()
    assert "Nothing was imported" in page
    assert "longer than 5 seconds" in page and "CARD_IMPORT_TIME_BUDGET" in page
    assert database_rows() == before


@override_settings(CARD_IMPORT_TIME_BUDGET=0.000001)
def test_a_tiny_real_budget_refuses_a_file_that_takes_longer():
    result = import_file("iacta", _rows(3000), "pool.csv", skip_errors=True)
    assert not result.written and not Card.objects.exists()
    assert "CARD_IMPORT_TIME_BUDGET" in result.problems[0]["message"]


@override_settings(CARD_IMPORT_TIME_BUDGET=5)
def test_a_file_checked_within_the_budget_imports(monkeypatch):
    monkeypatch.setattr(cardpool, "_clock", FakeClock(step=0.000001))
    assert import_file("iacta", _rows(2000), "pool.csv").report.created == 2000


# --- who made each revision ---------------------------------------------------------------


def test_each_revision_records_who_made_it_and_the_card_page_shows_them(client, login):
    edna = _editor()
    _upload(login(edna), POOL_CSV)
    _upload(login(edna), POOL_CSV.replace("slot it.", "keep it."))
    [revision] = CardRevision.objects.all()
    assert revision.created_by == edna
    assert revision.text == "Roll 1 die and slot it."
    client.logout()
    page = client.get(f"/cards/{revision.card_id}/").content.decode()
    assert "<td>edna</td>" in page


def test_the_command_records_the_given_user_or_nobody(tmp_path):
    edna = _editor()
    first, second, third = tmp_path / "1.csv", tmp_path / "2.csv", tmp_path / "3.csv"
    first.write_text(POOL_CSV)
    second.write_text(POOL_CSV.replace("slot it.", "keep it."))
    third.write_text(POOL_CSV.replace("slot it.", "spend it."))
    call_command("import_cards", "iacta", str(first))
    call_command("import_cards", "iacta", str(second), "--user", "edna")
    call_command("import_cards", "iacta", str(third))
    by = dict(CardRevision.objects.values_list("text", "created_by"))
    assert by == {"Roll 1 die and slot it.": edna.pk, "Roll 1 die and keep it.": None}


def test_the_command_refuses_an_unknown_user(tmp_path):
    from django.core.management import CommandError

    pool = tmp_path / "pool.csv"
    pool.write_text(POOL_CSV)
    with pytest.raises(CommandError, match='No user is called "nobody"'):
        call_command("import_cards", "iacta", str(pool), "--user", "nobody")
    assert not Card.objects.exists()


# --- every change of the pool has an author on record -------------------------------------

FOUR_COPIES_CSV = POOL_CSV.replace("4+ ODD,,Roll", "4+ ODD,4,Roll")


def test_an_upload_changing_only_max_copies_records_the_uploader_and_the_old_value(client, login):
    """The report's rewrite (max_copies to 99) left no revision, so nobody was on record."""
    import_file("iacta", FOUR_COPIES_CSV, "pool.csv")
    edna = _editor()
    _upload(login(edna), FOUR_COPIES_CSV.replace("4+ ODD,4,Roll", "4+ ODD,99,Roll"))
    tithe = Card.objects.get(key="ember tithe")
    assert tithe.max_copies == 99
    [revision] = tithe.revisions.all()
    assert revision.created_by == edna
    assert revision.changes == {"max_copies": [4, 99]}
    assert (revision.text, revision.cost) == ("Roll 1 die and slot it.", "4+ ODD")
    assert not Card.objects.get(key="quiet ledger").revisions.exists()

    client.logout()
    page = client.get(f"/cards/{tithe.pk}/").content.decode()
    assert "Copies allowed: 4 → 99" in page
    assert "<td>edna</td>" in page


def test_each_import_that_changes_the_pool_is_recorded_with_who_when_and_counts(
    tmp_path, client, login
):
    from decks.models import CardPoolImport

    first = tmp_path / "first.csv"
    first.write_text(POOL_CSV)
    call_command("import_cards", "iacta", str(first))
    edna = _editor()
    editor = login(edna)
    _upload(editor, POOL_CSV, name="same.csv")  # changes nothing: nothing to record
    second = POOL_CSV.replace("slot it.", "keep it.") + (
        "New Card,,neutral,event,fast,,,\nBad Card,,neutral,event,sideways,,,\n"
    )
    _upload(editor, second, skip=True, name="second.csv")

    older, latest = CardPoolImport.objects.order_by("created_at", "pk")
    assert (older.game, older.created_by, older.filename) == ("iacta", None, "first.csv")
    assert (older.created, older.updated, older.unchanged, older.skipped) == (2, 0, 0, 0)
    assert (latest.created_by, latest.filename) == (edna, "second.csv")
    assert (latest.created, latest.updated, latest.unchanged, latest.skipped) == (1, 1, 1, 1)
    [revision] = CardRevision.objects.all()
    assert revision.pool_import == latest
    assert revision.changes["text"] == ["Roll 1 die and slot it.", "Roll 1 die and keep it."]

    page = editor.get("/cards/").content.decode()
    assert "Recent imports" in page
    assert "second.csv" in page and "edna" in page
    assert "1 created, 1 updated, 1 unchanged, 1 skipped" in page
    client.logout()
    assert "Recent imports" not in client.get("/cards/").content.decode()


def test_a_change_of_any_imported_field_keeps_every_previous_value():
    dataclysm = "name,type,subtypes,gpu,atk,hp,text\nByte Golem,troop,Bot,false,2,3,Hits.\n"
    import_file("dataclysm", dataclysm, "d.csv")
    import_file("dataclysm", dataclysm.replace("Bot,false,2,3", "Bot Giant,true,5,3"), "d2.csv")
    [golem] = Card.objects.get(key="byte golem").revisions.all()
    assert golem.changes == {"subtypes": ["Bot", "Bot Giant"], "gpu": [False, True], "atk": [2, 5]}

    import_file("iacta", POOL_CSV, "pool.csv", demo=True)
    changed = POOL_CSV.replace(
        "Quiet Ledger,,neutral,perpetual,slow", "Quiet Ledger,,neutral,trap,fast"
    )
    import_file("iacta", changed, "real.csv")
    [ledger] = Card.objects.get(key="quiet ledger").revisions.all()
    assert ledger.changes == {
        "card_class": ["perpetual", "trap"],
        "speed": ["slow", "fast"],
        "demo": [True, False],
    }
    [tithe] = Card.objects.get(key="ember tithe").revisions.all()
    assert tithe.changes == {"demo": [True, False]}


def test_the_import_record_and_its_revisions_are_written_together_or_not_at_all(monkeypatch):
    from decks.models import CardPoolImport

    import_file("iacta", FOUR_COPIES_CSV, "pool.csv")
    before = database_rows()

    def refuse(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(CardRevision.objects, "bulk_create", refuse)
    with pytest.raises(RuntimeError):
        import_file("iacta", FOUR_COPIES_CSV.replace(",4,Roll", ",99,Roll"), "pool.csv")
    assert database_rows() == before
    assert CardPoolImport.objects.count() == 1
    assert Card.objects.get(key="ember tithe").max_copies == 4
