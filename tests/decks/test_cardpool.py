"""Card pool files: reading, importing with revisions, the command, the pages, the demo pools."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from decks.cardpool import (
    ImportReport,
    format_problem,
    import_cards,
    import_file,
    load_demo_pools,
    read_rows,
)
from decks.models import Card, CardRevision
from tests.conftest import make_user


@pytest.fixture
def editor(db):
    """A member of the Card pool editors group, which a migration creates."""
    from django.contrib.auth.models import Group

    user = make_user("olive")
    user.groups.add(Group.objects.get(name="Card pool editors"))
    return user


IACTA_CSV = """name,syndicate,tier,class,speed,cost,max_copies,text
Ember Tithe,EMB,major,event,fast,4+ ODD,,Roll 1 die and slot it.
Quiet Ledger,,neutral,perpetual,slow,X,,Your Reserve may hold 4 dice.
Salt Bribe,SLT,minor,trap,slow,-2 EVN,8,"Discard 1 card, then draw 2."
"""

BAD_CSV = """name,syndicate,tier,class,speed,cost,max_copies,text
Ember Tithe,EMB,major,event,fast,4+ ODD,,Fine.
Bad Cost,EMB,major,event,fast,4++,,x
No Syndicate,,minor,event,fast,X,,x
Wrong Tier,EMB,mega,event,fast,,,x
,EMB,major,event,fast,,,nameless
Zero Copies,EMB,major,event,fast,,0,x
ember   TITHE,EMB,major,trap,slow,,,duplicate
"""


def _problems(problems: list[dict]) -> list[tuple[str, str]]:
    return [(p["where"], p["field"]) for p in problems]


# --- reading ----------------------------------------------------------------------


def test_good_csv_rows_are_model_values():
    rows, problems = read_rows("iacta", IACTA_CSV.encode(), "pool.csv")
    assert problems == []
    assert rows[0] == {
        "name": "Ember Tithe",
        "syndicate": "EMB",
        "tier": "major",
        "card_class": "event",
        "speed": "fast",
        "cost": "4+ ODD",
        "max_copies": None,
        "text": "Roll 1 die and slot it.",
    }
    assert rows[2]["max_copies"] == 8
    assert rows[2]["text"] == "Discard 1 card, then draw 2."


def test_bom_header_case_unknown_columns_and_lowercase_symbols_are_tolerated():
    text = (
        "\ufeffName,Tier,Class,Speed,Cost,Artist\nQuiet Ledger,Neutral,Perpetual,Slow,odd x,Ann\n"
    )
    rows, problems = read_rows("iacta", text.encode("utf-8"), "pool.csv")
    assert problems == []
    assert rows == [
        {
            "name": "Quiet Ledger",
            "tier": "neutral",
            "card_class": "perpetual",
            "speed": "slow",
            "syndicate": "",
            "cost": "ODD X",
        }
    ]


def test_every_bad_row_is_reported_with_its_line_and_reason():
    rows, problems = read_rows("iacta", BAD_CSV, "pool.csv")
    assert [row["name"] for row in rows] == ["Ember Tithe"]
    assert _problems(problems) == [
        ("line 3", "cost"),
        ("line 4", "syndicate"),
        ("line 5", "tier"),
        ("line 6", "name"),
        ("line 7", "max_copies"),
        ("line 8", "name"),
    ]
    shown = [format_problem(p) for p in problems]
    assert shown[0].startswith('line 3, cost: "4++" is not a dice cost symbol')
    assert "is required for a minor card" in shown[1]
    assert '"mega" is not a valid tier: use major, minor or neutral' in shown[2]
    assert '"0" is not a whole number of 1 or more' in shown[4]
    assert '"ember TITHE" is already on line 2' in shown[5]


def test_line_numbers_count_spreadsheet_rows_not_physical_lines():
    text = (
        "name,tier,class,speed,text\n"
        'Long Text,neutral,event,fast,"first line\nsecond line"\n'
        "\n"
        "Broken,neutral,event,sluggish,x\n"
    )
    rows, problems = read_rows("iacta", text, "pool.csv")
    assert rows[0]["text"] == "first line\nsecond line"
    assert _problems(problems) == [("line 4", "speed")]  # header 1, Long Text 2, blank 3


def test_missing_required_column_is_reported_on_the_header():
    rows, problems = read_rows("iacta", "name,tier,class\nA,neutral,event\n", "pool.csv")
    assert rows == []
    assert _problems(problems) == [("line 1", "speed")]
    assert "required column" in problems[0]["message"]


def test_syndicate_is_ignored_for_neutral_and_a_syndicate_has_one_tier():
    text = (
        "name,syndicate,tier,class,speed\n"
        "A,NEU,neutral,event,fast\n"
        "B,EMB,major,event,fast\n"
        "C,emb,minor,event,fast\n"
    )
    rows, problems = read_rows("iacta", text, "pool.csv")
    assert rows[0]["syndicate"] == ""
    assert _problems(problems) == [("line 4", "tier")]
    assert "EMB is a major syndicate on line 3" in problems[0]["message"]


def test_json_items_are_numbered_from_one():
    items = [
        {"name": "DRAGON", "type": "troop", "subtypes": "Dragon", "atk": 5, "hp": 6},
        {"name": "PATCH", "type": "cheat", "gpu": False},
        {"name": "BROKEN", "type": "troop", "atk": 2},
        {"name": "OVERCLOCK", "type": "method", "gpu": "maybe"},
        "not a card",
    ]
    rows, problems = read_rows("dataclysm", json.dumps(items), "pool.json")
    assert [row["name"] for row in rows] == ["DRAGON", "PATCH"]
    assert rows[0]["atk"] == 5 and rows[0]["hp"] == 6
    assert rows[1]["atk"] is None and rows[1]["gpu"] is False
    assert _problems(problems) == [("item 3", "hp"), ("item 4", "gpu"), ("item 5", "")]


def test_format_is_detected_from_content_without_an_extension():
    rows, problems = read_rows(
        "dataclysm", '[{"name": "PING", "type": "troop", "atk": 1, "hp": 1}]', "upload"
    )
    assert problems == [] and rows[0]["name"] == "PING"
    rows, problems = read_rows("dataclysm", "name,type\nPATCH,cheat\n", "upload")
    assert problems == [] and rows[0]["card_type"] == "cheat"


def test_dataclysm_troops_need_whole_number_stats():
    text = (
        "name,type,atk,hp,gpu\n"
        "A,troop,2.5,,TRUE\n"
        "B,settings,,,\n"
        "C,spell,,,\n"
        f"D,troop,1,{'9' * 5000},\n"
        "E,troop,0,-1,false\n"
    )
    rows, problems = read_rows("dataclysm", text, "pool.csv")
    assert [row["name"] for row in rows] == ["B"]
    assert _problems(problems) == [
        ("line 2", "atk"),
        ("line 2", "hp"),
        ("line 4", "type"),
        ("line 5", "hp"),
        ("line 6", "hp"),
    ]
    assert "too large" in problems[3]["message"]


def test_superjack_and_unusable_files_are_refused_clearly():
    _, problems = read_rows("superjack", "name\nAce\n", "pool.csv")
    assert "standard playing cards" in problems[0]["message"]
    _, problems = read_rows("iacta", b"name,tier\n\xff\xfe\n", "pool.csv")
    assert problems[0]["where"] == "line 2" and "UTF-8" in problems[0]["message"]
    _, problems = read_rows("iacta", "[{", "pool.json")
    assert "not valid JSON" in problems[0]["message"]
    _, problems = read_rows("iacta", "", "pool.csv")
    assert "empty" in problems[0]["message"]
    _, problems = read_rows("iacta", "name;tier;class;speed\nA;neutral;event;fast\n", "p.csv")
    assert "semicolons" in problems[0]["message"]


# --- importing --------------------------------------------------------------------


@pytest.mark.django_db
def test_a_file_with_problems_imports_nothing_unless_skip_errors():
    result = import_file("iacta", BAD_CSV, "pool.csv")
    assert result.report is None and len(result.problems) == 6
    assert not Card.objects.exists()

    result = import_file("iacta", BAD_CSV, "pool.csv", skip_errors=True)
    assert result.report == ImportReport(created=1)
    assert len(result.problems) == 6
    assert list(Card.objects.values_list("name", flat=True)) == ["Ember Tithe"]


@pytest.mark.django_db
def test_json_import_matches_csv_import():
    items = [
        {"name": "Ember Tithe", "syndicate": "EMB", "tier": "major", "class": "event",
         "speed": "fast", "cost": "4+ ODD", "text": "Roll 1 die and slot it."},
        {"name": "Salt Bribe", "syndicate": "SLT", "tier": "minor", "class": "trap",
         "speed": "slow", "cost": "-2 EVN", "max_copies": 8, "text": "x"},
    ]  # fmt: skip
    result = import_file("iacta", json.dumps(items).encode(), "pool.json")
    assert result.problems == [] and result.report.created == 2
    bribe = Card.objects.get(name="Salt Bribe")
    assert (bribe.game, bribe.key, bribe.max_copies, bribe.demo) == (
        "iacta",
        "salt bribe",
        8,
        False,
    )


@pytest.mark.django_db
def test_reimport_is_idempotent_and_keeps_each_change_and_replaced_text_as_a_revision():
    first = import_file("iacta", IACTA_CSV, "v1.csv", source="v1.csv").report
    assert first == ImportReport(created=3)
    again = import_file("iacta", IACTA_CSV, "v1.csv").report
    assert again == ImportReport(unchanged=3)
    assert not CardRevision.objects.exists()

    revised = IACTA_CSV.replace("4+ ODD,,Roll 1 die and slot it.", "5+ ODD,,Roll 2 dice.")
    revised = revised.replace(
        "Quiet Ledger,,neutral,perpetual,slow", "quiet ledger,,neutral,trap,slow"
    )
    report = import_file("iacta", revised, "v2.csv", source="v2.csv").report
    assert report == ImportReport(updated=2, unchanged=1, revised=1)
    tithe = Card.objects.get(key="ember tithe")
    assert (tithe.text, tithe.cost) == ("Roll 2 dice.", "5+ ODD")
    [old] = tithe.revisions.all()
    assert (old.text, old.cost, old.source) == ("Roll 1 die and slot it.", "4+ ODD", "v2.csv")
    ledger = Card.objects.get(key="quiet ledger")
    assert (ledger.name, ledger.card_class) == ("quiet ledger", "trap")
    [renamed] = ledger.revisions.all()  # text and cost unchanged, but the change is kept
    assert renamed.changes == {
        "name": ["Quiet Ledger", "quiet ledger"],
        "card_class": ["perpetual", "trap"],
    }

    assert import_file("iacta", revised, "v2.csv").report == ImportReport(unchanged=3)
    assert CardRevision.objects.count() == 2
    assert Card.objects.count() == 3


@pytest.mark.django_db
def test_absent_optional_columns_leave_stored_values_alone():
    import_file("iacta", IACTA_CSV, "full.csv")
    slim = "name,syndicate,tier,class,speed\nEmber Tithe,EMB,major,event,fast\n"
    assert import_file("iacta", slim, "slim.csv").report == ImportReport(unchanged=1)
    assert Card.objects.get(key="ember tithe").text == "Roll 1 die and slot it."


@pytest.mark.django_db
def test_a_demo_import_never_overwrites_a_real_card():
    import_file("iacta", IACTA_CSV, "real.csv")
    changed = IACTA_CSV.replace("Roll 1 die and slot it.", "Demo text.")
    assert import_file("iacta", changed, "d.csv", demo=True).report == ImportReport(unchanged=3)
    assert Card.objects.get(key="ember tithe").text == "Roll 1 die and slot it."


@pytest.mark.django_db
def test_import_cards_refuses_duplicate_rows():
    row = {"name": "A", "tier": "neutral", "card_class": "event", "speed": "fast"}
    with pytest.raises(ValueError, match="twice"):
        import_cards("iacta", [row, {**row, "name": " a "}], source="test")


@pytest.mark.django_db
def test_five_thousand_cards_import_then_a_revision_touches_only_changed_cards():
    """Correctness at size; the speed is measured in benchmarks/, not asserted here."""
    lines = ["name,syndicate,tier,class,speed,cost,text"]
    lines += [f"Card {i},S{i % 7},major,event,fast,{i % 6 + 1}+ ODD,Text {i}" for i in range(5000)]
    text = "\n".join(lines)
    assert import_file("iacta", text, "big.csv").report.created == 5000
    revised = text.replace("Text 1", "New text 1")  # 1, 10-19, 100-199, 1000-1999
    report = import_file("iacta", revised, "big.csv").report
    assert report.revised == report.updated == 1111


# --- the command ------------------------------------------------------------------


@pytest.mark.django_db
def test_command_imports_and_prints_the_summary(tmp_path, capsys):
    pool = tmp_path / "pool.csv"
    pool.write_text(IACTA_CSV, encoding="utf-8")
    call_command("import_cards", "iacta", str(pool))
    out = capsys.readouterr().out
    assert "3 cards: 3 created, 0 updated, 0 unchanged." in out
    assert Card.objects.count() == 3


@pytest.mark.django_db
def test_command_lists_every_problem_and_exits_1_with_nothing_written(tmp_path, capsys):
    pool = tmp_path / "bad.csv"
    pool.write_text(BAD_CSV, encoding="utf-8")
    with pytest.raises(CommandError, match="6 problems; nothing was written") as raised:
        call_command("import_cards", "iacta", str(pool))
    assert raised.value.returncode == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith('line 3, cost: "4++" is not a dice cost symbol')
    assert len(err) == 6
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_command_skip_errors_imports_the_good_rows(tmp_path, capsys):
    pool = tmp_path / "bad.csv"
    pool.write_text(BAD_CSV, encoding="utf-8")
    call_command("import_cards", "iacta", str(pool), "--skip-errors")
    captured = capsys.readouterr()
    assert "1 created" in captured.out and "Skipped the rows with 6 problems" in captured.out
    assert len(captured.err.splitlines()) == 6
    assert Card.objects.count() == 1


@pytest.mark.django_db
def test_command_exit_status_from_manage_py(tmp_path, capsys):
    from django.core.management import ManagementUtility

    pool = tmp_path / "pool.csv"
    pool.write_text("name\nAce of Spades\n", encoding="utf-8")
    with pytest.raises(SystemExit) as raised:
        ManagementUtility(["manage.py", "import_cards", "superjack", str(pool)]).execute()
    assert raised.value.code == 1
    assert "Superjack needs no card file" in capsys.readouterr().err
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_cards", "iacta", str(tmp_path / "missing.csv"))


# --- the upload page ----------------------------------------------------------------


def _upload(client, text: str, *, game: str = "iacta", skip: bool = False, name="pool.csv"):
    data = {"game": game, "file": SimpleUploadedFile(name, text.encode(), "text/csv")}
    if skip:
        data["skip_errors"] = "on"
    return client.post("/cards/upload/", data)


@pytest.mark.django_db
def test_upload_page_needs_a_login(client):
    response = client.get("/cards/upload/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/cards/upload/"
    refused = _upload(client, IACTA_CSV)
    assert refused["Location"] == "/accounts/login/?next=/cards/upload/"
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_upload_imports_and_shows_the_report(editor, login):
    response = _upload(login(editor), IACTA_CSV)
    assert response.status_code == 200
    assert "3 cards: 3 created" in response.content.decode()
    revision = Card.objects.get(key="ember tithe")
    assert revision.text == "Roll 1 die and slot it."
    _upload(login(editor), IACTA_CSV.replace("slot it.", "keep it."))
    [old] = CardRevision.objects.all()
    assert old.source == "pool.csv uploaded by olive"


@pytest.mark.django_db
def test_upload_lists_every_problem_and_imports_nothing(editor, login):
    response = _upload(login(editor), BAD_CSV)
    page = response.content.decode()
    assert "Nothing was imported" in page and "6 problems" in page
    for line in (3, 4, 5, 6, 7, 8):
        assert f"<td>line {line}</td>" in page
    assert "&quot;4++&quot; is not a dice cost symbol" in page
    assert not Card.objects.exists()

    page = _upload(login(editor), BAD_CSV, skip=True).content.decode()
    assert "1 created" in page and "Skipped 6 problems" in page
    assert Card.objects.count() == 1


@pytest.mark.django_db
def test_upload_form_offers_no_superjack(editor, login):
    response = _upload(login(editor), "name\nAce\n", game="superjack")
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert 'value="superjack"' not in response.content.decode()


# --- the pool browser ---------------------------------------------------------------


@pytest.mark.django_db
def test_pool_browser_is_public_searchable_and_filtered_by_game(client):
    assert "No card pool is loaded yet" in client.get("/cards/").content.decode()
    import_file("iacta", IACTA_CSV, "pool.csv")
    import_file("dataclysm", "name,type,atk,hp\nEMBER DRAKE,troop,3,4\nPATCH,cheat,,\n", "d.csv")
    page = client.get("/cards/", {"q": "  EMBER "}).content.decode()
    assert "Ember Tithe" in page and "EMBER DRAKE" in page and "Quiet Ledger" not in page
    page = client.get("/cards/", {"q": "ember", "game": "dataclysm"}).content.decode()
    assert "EMBER DRAKE" in page and "Ember Tithe" not in page
    page = client.get("/cards/", {"q": "nothing like it"}).content.decode()
    assert "No card matches this search" in page


@pytest.mark.django_db
def test_pool_browser_pages_by_fifty(client):
    lines = ["name,tier,class,speed"] + [f"Card {i:03},neutral,event,fast" for i in range(120)]
    import_file("iacta", "\n".join(lines), "pool.csv")
    first = client.get("/cards/", {"game": "iacta"})
    assert len(first.context["cards"]) == 50
    assert "Page 1 of 3" in first.content.decode()
    assert "?game=iacta&amp;page=2" in first.content.decode()
    last = client.get("/cards/", {"game": "iacta", "page": 3})
    assert len(last.context["cards"]) == 20


@pytest.mark.django_db
def test_card_detail_shows_text_and_earlier_revisions(client):
    import_file("iacta", IACTA_CSV, "v1.csv")
    import_file("iacta", IACTA_CSV.replace("slot it.", "keep it."), "v2.csv", source="v2.csv")
    card = Card.objects.get(key="ember tithe")
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert "Roll 1 die and keep it." in page
    assert "Roll 1 die and slot it." in page and "v2.csv" in page
    other = Card.objects.get(key="quiet ledger")
    assert "No earlier texts" in client.get(f"/cards/{other.pk}/").content.decode()
    assert client.get("/cards/999999/").status_code == 404


# --- demo pools -------------------------------------------------------------------


@pytest.mark.django_db
def test_demo_pools_load_once_and_are_marked_demo():
    reports = load_demo_pools()
    assert set(reports) == {"iacta", "dataclysm"}
    assert reports["iacta"].created >= 75 and reports["dataclysm"].created >= 40
    assert not Card.objects.filter(demo=False).exists()

    iacta = Card.objects.filter(game="iacta")
    assert set(iacta.values_list("tier", flat=True)) == {"major", "minor", "neutral"}
    majors = set(iacta.filter(tier="major").values_list("syndicate", flat=True))
    minors = set(iacta.filter(tier="minor").values_list("syndicate", flat=True))
    assert len(majors) >= 3 and len(minors) >= 2
    for syndicate in majors | minors:
        assert iacta.filter(syndicate=syndicate).count() >= 12
    assert iacta.filter(tier="neutral").count() >= 15
    assert iacta.filter(max_copies__isnull=False).exists()

    dataclysm = Card.objects.filter(game="dataclysm")
    assert set(dataclysm.values_list("card_type", flat=True)) == {
        "troop",
        "cheat",
        "method",
        "settings",
    }
    assert dataclysm.filter(gpu=True).count() >= 2
    assert not dataclysm.filter(card_type="troop", atk__isnull=True).exists()

    again = load_demo_pools()
    assert all(report.created == report.updated == 0 for report in again.values())


@pytest.mark.django_db
def test_demo_pools_stay_out_of_a_real_pool():
    import_file("iacta", IACTA_CSV, "real.csv")
    assert set(load_demo_pools()) == {"dataclysm"}
    assert Card.objects.filter(game="iacta").count() == 3
