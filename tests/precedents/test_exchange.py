"""Sharing precedents between sites (issue 35): a set exported from one site and imported
into a fresh one gives the same search results; importing it twice adds nothing; a local
decision is never overwritten (a difference is a conflict, reported); a file that does not
fit writes nothing and names the path of each problem; an export holds only what its
reader may see; import is for site staff. On SQLite (pass 1) and PostgreSQL (pass 2)."""

from __future__ import annotations

import io
import json
import uuid
from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import CommandError, call_command
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator

from judging.calls import open_call, resolve_call
from judging.models import Penalty
from precedents import api, exchange, search, services, set_schema
from precedents.exchange import SITE, export_set, import_set
from precedents.models import Precedent, Term
from precedents.signals import precedent_changed
from rules_engine import GAMES
from tests.conftest import make_user
from tournaments.models import Event, Match

pytestmark = pytest.mark.django_db

SEARCH_URL = "/api/v1/precedents/"
EXPORT_URL = "/api/v1/precedents/export/"
IMPORT_URL = "/api/v1/precedents/import/"


def deck(*cards: tuple[str, int]) -> dict:
    return {
        "main": [{"name": name, "count": count} for name, count in cards],
        "sideboard": [],
        "cards": {name: {"syndicate": "EMB", "tier": "major"} for name, _ in cards},
    }


@pytest.fixture
def kept(make_world, organiser, judge):
    """Three precedents of one event: a public deck ruling on Ember Tithe (appealed), a
    judges-only deck ruling the judge overturned, and a judges-only cost ruling."""
    event = make_world(4).event

    def keep(question: str, payload: dict, note: str, **marks) -> Precedent:
        call = open_call(event, judge, question=question, table=1)
        call = resolve_call(
            call,
            judge,
            resolution="Ruled.",
            minutes=2,
            ruling={"game": "iacta", "question": payload.pop("_q"), "payload": payload},
        )
        return services.mark(call, organiser, note=note, **{"decision": "upheld", **marks})

    tithe = keep(
        "Five Ember Tithe in the main deck?",
        {"_q": "deck-legality", **deck(("Ember Tithe", 5), ("Glass Warden", 4))},
        "Counterfeit sleeves were not the issue; the fifth copy was.",
        visibility="public",
    )
    tithe = services.record_appeal(tithe, organiser, upheld=True, note="The appeal agreed.")
    warden = keep(
        "Glass Warden in the sideboard",
        {"_q": "deck-legality", **deck(("Glass Warden", 4), ("Ash Broker", 4))},
        "Sideboard counts together with the main deck.",
        decision="overturned",
    )
    cost = keep(
        "Can an odd die pay 4+?",
        {"_q": "pay-cost", "cost": ["4+", "ODD"], "reserve": [5, 1, 3]},
        "Reserve dice pay costs in any order.",
    )
    return {"tithe": tithe, "warden": warden, "cost": cost, "event": event}


@pytest.fixture
def staff(db):
    return make_user("stella", is_staff=True)


@pytest.fixture
def root(db):
    return make_user("root", is_superuser=True, is_staff=True)


SEARCHES = [
    {"card": "Embr Tith"},  # misspelt
    {"card": "glass warden"},
    {"rule": "202.1"},
    {"rule": "202"},
    {"q": "counterfeit fifth"},
    {"q": "reserve"},
    {"question": "pay-cost"},
    {"order": "upheld", "card": "Glass Warden"},
]


def found_uids(user, params: dict) -> list[str]:
    query = search.read_query(params)
    return [str(p.uid) for p in search.find(query, user).precedents]


def every_search(user) -> list[list[str]]:
    return [found_uids(user, params) for params in SEARCHES]


def as_sets(rows) -> dict[str, dict]:
    return {str(p.uid): exchange.precedent_json(p) for p in rows}


def fresh_site() -> None:
    """What another site starts from: no precedent and no event (nor their calls)."""
    Precedent.objects.all().delete()
    Penalty.objects.all().delete()  # these two hold on to registrations
    Match.objects.all().delete()
    Event.objects.all().delete()
    assert not Term.objects.exists()


def imported(heard: list) -> list:
    return [kw for kw in heard if kw.get("action") == "imported"]


@pytest.fixture
def heard():
    got: list[dict] = []
    precedent_changed.connect(lambda **kw: got.append(kw), weak=False, dispatch_uid="exch")
    yield got
    precedent_changed.disconnect(dispatch_uid="exch")


# --- the round trip ------------------------------------------------------------------------


def test_export_then_import_into_a_fresh_site_gives_the_same_search_results(
    kept, client, root, staff, heard, django_capture_on_commit_callbacks
):
    everyone = AnonymousUser()
    before = {"root": every_search(root), "anonymous": every_search(everyone)}
    assert before["root"][0] == [str(kept["tithe"].uid)]  # the misspelt card finds it
    assert set(before["root"][2]) == {str(kept["tithe"].uid), str(kept["warden"].uid)}
    assert before["root"][4] == [str(kept["tithe"].uid)]
    contents = as_sets(Precedent.objects.all())

    client.force_login(root)
    response = client.get(EXPORT_URL)
    assert response.status_code == 200
    today = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == (
        f'attachment; filename="precedents-all-{today}.json"'
    )
    document = response.json()
    assert set_schema.problems(document) == []
    assert document["format"] == "arbiter-precedents" and document["version"] == 1
    assert len(document["precedents"]) == 3

    fresh_site()
    client.force_login(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(IMPORT_URL, json.dumps(document), content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json() == {"added": 3, "unchanged": 0, "conflicts": []}
    assert len(imported(heard)) == 3  # one announcement per precedent added

    assert {"root": every_search(root), "anonymous": every_search(everyone)} == before
    assert as_sets(Precedent.objects.all()) == contents
    for precedent in Precedent.objects.all():
        assert precedent.origin == document["site"]
        assert (precedent.event, precedent.call, precedent.marked_by) == (None, None, staff)


def test_the_set_names_no_player_no_account_and_no_local_id(kept):
    document = export_set(SITE)
    text = json.dumps(document)
    event = kept["event"]
    for registration in event.registrations.select_related("user"):
        assert registration.display_name not in text
    assert "olive" not in text.casefold()  # the organiser who marked them
    for precedent in document["precedents"]:
        assert set(precedent) == set(set_schema.FIELDS)
    assert kept["tithe"].asked in text  # the question, names replaced


def test_importing_the_same_file_twice_adds_nothing(
    kept, staff, heard, django_capture_on_commit_callbacks
):
    document = export_set(SITE)
    fresh_site()
    with django_capture_on_commit_callbacks(execute=True):
        first = import_set(document, staff)
    with django_capture_on_commit_callbacks(execute=True):
        again = import_set(json.loads(json.dumps(document)), staff)
    assert first == {"added": 3, "unchanged": 0, "conflicts": []}
    assert again == {"added": 0, "unchanged": 3, "conflicts": []}
    assert Precedent.objects.count() == 3
    assert len(imported(heard)) == 3


def test_its_own_export_comes_back_unchanged(kept, staff):
    assert import_set(export_set(SITE), staff) == {"added": 0, "unchanged": 3, "conflicts": []}


def test_a_changed_local_decision_is_a_conflict_and_is_kept(kept, organiser, staff):
    document = export_set(SITE)
    warden = kept["warden"]
    services.mark(warden.call, organiser, decision="upheld", note="On reflection: it stood.")
    kept["cost"].delete()  # not here any more: the file brings it back
    report = import_set(document, staff)
    assert report["added"] == 1 and report["unchanged"] == 1
    [conflict] = report["conflicts"]
    assert conflict["uid"] == str(warden.uid)
    assert conflict["fields"] == ["decision", "note"]
    assert "decision, note" in conflict["message"] and "kept" in conflict["message"]
    warden.refresh_from_db()
    assert (warden.decision, warden.note) == ("upheld", "On reflection: it stood.")
    assert warden.event == kept["event"] and warden.origin == ""


def test_an_import_racing_another_writes_nothing_and_says_so(kept, staff, monkeypatch):
    """Two imports of one file at once: the second one's insert meets the first one's
    rows (simulated: it did not see them when it looked)."""
    document = export_set(SITE)
    kept["cost"].delete()
    monkeypatch.setattr(exchange, "_precedents_here", lambda uids: {})
    before = as_sets(Precedent.objects.all())
    with pytest.raises(exchange.ImportClash) as clash:
        import_set(document, staff)
    assert clash.value.status == 409 and "import the file again" in clash.value.message
    assert as_sets(Precedent.objects.all()) == before


# --- files that do not fit -----------------------------------------------------------------


def a_set(*precedents: dict) -> dict:
    return {
        "format": "arbiter-precedents",
        "version": 1,
        "site": "https://judges.example.org",
        "exported_at": "2026-05-02T14:03:00+00:00",
        "precedents": list(precedents),
    }


def a_precedent(**changes) -> dict:
    return {
        "uid": str(uuid.uuid4()),
        "game": "iacta",
        "question": "deck-legality",
        "payload": deck(("Ember Tithe", 5)),
        "answer": {"legal": False, "citations": ["202.1"], "explanation": "Four at most."},
        "asked": "Five copies?",
        "cards": ["Ember Tithe"],
        "rules": ["202.1"],
        "rule_texts": {},
        "decision": "upheld",
        "note": "",
        "status": "follow",
        "visibility": "public",
        "appeal": "",
        "appeal_upheld": None,
        "event_name": "Elsewhere Open",
        "round_number": 2,
        "ruled_on": "2026-04-18",
        "ruled_by": "A judge",
        **changes,
    }


def with_one_more(document: dict, **changes) -> dict:
    return {**document, "precedents": [*document["precedents"], a_precedent(**changes)]}


def duplicated(document: dict) -> dict:
    first = document["precedents"][0]
    return {**document, "precedents": [*document["precedents"], {**first}]}


@pytest.mark.parametrize(
    ("spoil", "field", "words"),
    [
        (lambda d: {**d, "format": "arbiter-event/1"}, "format", "not a precedent set"),
        (lambda d: {**d, "version": 2}, "version", "not a precedent set"),
        (lambda d: [d], None, "is a JSON object"),
        (lambda d: {k: v for k, v in d.items() if k != "site"}, "site", "missing"),
        (lambda d: with_one_more(d, decision="maybe"), "precedents[2].decision", "upheld"),
        (lambda d: with_one_more(d, uid="42"), "precedents[2].uid", "UUID"),
        (lambda d: with_one_more(d, ruled_on="18/04/2026"), "precedents[2].ruled_on", "YYYY"),
        (lambda d: with_one_more(d, round_number="2"), "precedents[2].round_number", "whole"),
        (lambda d: with_one_more(d, note="a\x00b"), "precedents[2].note", "NUL"),
        (duplicated, "precedents[2].uid", "precedents[0]"),
    ],
)
def test_a_file_that_does_not_fit_writes_nothing_and_names_the_path(
    kept, staff, spoil, field, words
):
    document = json.loads(json.dumps(export_set(SITE)))
    document["precedents"] = document["precedents"][1:]  # a new one would be added...
    kept["tithe"].delete()
    before = as_sets(Precedent.objects.all()), Term.objects.count()
    with pytest.raises(exchange.InvalidSet) as refused:
        import_set(spoil(document), staff)
    assert field in refused.value.fields
    message = next(e["message"] for e in refused.value.errors if e["field"] == field)
    assert words in message
    assert field is None or field in message  # the message names the path too
    assert (as_sets(Precedent.objects.all()), Term.objects.count()) == before  # ...but no


def test_a_file_nested_too_deep_is_refused(staff):
    deep: dict = {}
    inner = deep
    for _ in range(40):
        inner["x"] = {}
        inner = inner["x"]
    with pytest.raises(exchange.InvalidSet) as refused:
        import_set(a_set(a_precedent(payload=deep)), staff)
    assert refused.value.fields == ["precedents[0].payload"]
    assert not Precedent.objects.exists()


def test_a_set_from_elsewhere_is_found_by_card_rule_and_text(judge, kept, staff):
    elsewhere = a_precedent(cards=["Ash Broker"], note="A broker is neutral.")
    report = import_set(a_set(elsewhere), staff)
    assert report == {"added": 1, "unchanged": 0, "conflicts": []}
    uid = elsewhere["uid"]
    assert uid in found_uids(judge, {"card": "Ash Brokr"})
    assert uid in found_uids(AnonymousUser(), {"card": "Ash Brokr"})  # it is public
    assert uid in found_uids(judge, {"rule": "202.1"})
    assert found_uids(judge, {"q": "broker neutral"}) == [uid]
    assert Precedent.objects.get(uid=uid).origin == "https://judges.example.org"


def test_only_site_staff_import(kept, judge, organiser):
    document = export_set(SITE)
    for who in (AnonymousUser(), judge, organiser, None):
        with pytest.raises(services.NotAllowed):
            import_set(document, who)


# --- who sees what -------------------------------------------------------------------------


def uids_in(document: dict) -> set[str]:
    return {p["uid"] for p in document["precedents"]}


def test_an_export_holds_what_its_reader_may_see_and_never_a_draft_events(kept, judge, organiser):
    public = {str(kept["tithe"].uid)}
    every = {str(kept[k].uid) for k in ("tithe", "warden", "cost")}
    assert uids_in(export_set(AnonymousUser())) == public
    assert uids_in(export_set(make_user("pia"))) == public  # an account, no event role
    assert uids_in(export_set(judge)) == every
    assert uids_in(export_set(judge, "superjack")) == set()
    Event.objects.filter(pk=kept["event"].pk).update(status=Event.Status.DRAFT)
    for reader in (AnonymousUser(), judge, organiser, SITE):
        assert uids_in(export_set(reader)) == set()  # not even its own staff take it away


def test_the_api_export_follows_the_reader_and_names_the_game(kept, client, judge):
    anonymous = client.get(EXPORT_URL, {"game": "iacta"})
    assert anonymous.status_code == 200
    assert uids_in(anonymous.json()) == {str(kept["tithe"].uid)}
    today = timezone.localdate().isoformat()
    assert f'filename="precedents-iacta-{today}.json"' in anonymous["Content-Disposition"]
    client.force_login(judge)
    assert len(client.get(EXPORT_URL).json()["precedents"]) == 3
    wrong = client.get(EXPORT_URL, {"game": "chess"})
    assert wrong.status_code == 400
    assert [e["field"] for e in wrong.json()["errors"]] == ["game"]


# --- the API -------------------------------------------------------------------------------


def test_import_through_the_api_is_for_site_staff_only(kept, client, judge, organiser, staff):
    document = export_set(SITE)
    kept["cost"].delete()
    body = json.dumps(document)
    anonymous = client.post(IMPORT_URL, body, content_type="application/json")
    assert anonymous.status_code in (401, 403)
    for user in (judge, organiser):
        client.force_login(user)
        refused = client.post(IMPORT_URL, body, content_type="application/json")
        assert refused.status_code == 403
        assert "site staff" in refused.json()["errors"][0]["message"]
    assert Precedent.objects.count() == 2
    client.force_login(staff)
    allowed = client.post(IMPORT_URL, body, content_type="application/json")
    assert allowed.status_code == 200
    assert allowed.json() == {"added": 1, "unchanged": 2, "conflicts": []}


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (b"{not json", "(body)", "not valid JSON"),
        (b"", "(body)", "empty"),
        (json.dumps({"format": "arbiter-precedents"}).encode(), "version", "missing"),
        (json.dumps(a_set(a_precedent(status="later"))).encode(), "precedents[0].status", "later"),
    ],
)
def test_the_api_names_what_is_wrong_with_a_file_and_writes_nothing(
    client, staff, body, field, words
):
    client.force_login(staff)
    response = client.post(IMPORT_URL, body, content_type="application/json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert field in [e["field"] for e in errors]
    assert any(words in e["message"] for e in errors)
    assert not Precedent.objects.exists()


def test_a_body_over_the_limit_is_refused_unread(client, staff, monkeypatch):
    monkeypatch.setattr(api, "MAX_SET_BYTES", 100)
    client.force_login(staff)
    body = json.dumps(a_set(a_precedent()))
    response = client.post(IMPORT_URL, body, content_type="application/json")
    assert response.status_code == 413
    assert "limit is 100 bytes" in response.json()["errors"][0]["message"]
    assert not Precedent.objects.exists()


def test_a_set_larger_than_one_request_imports_is_refused_naming_the_command(
    client, staff, monkeypatch
):
    monkeypatch.setattr(api, "MAX_API_PRECEDENTS", 1)
    client.force_login(staff)
    body = json.dumps(a_set(a_precedent(), a_precedent()))
    response = client.post(IMPORT_URL, body, content_type="application/json")
    assert response.status_code == 413
    [error] = response.json()["errors"]
    assert error["field"] == "precedents" and "import_precedents" in error["message"]
    assert not Precedent.objects.exists()


def test_api_search_finds_what_the_reader_may_see_with_rule_links(kept, client, judge):
    anonymous = client.get(SEARCH_URL, {"card": "Embr Tith"})
    assert anonymous.status_code == 200
    body = anonymous.json()
    assert body["count"] == 1 and body["cards"] == {"Embr Tith": ["ember tithe"]}
    [found] = body["results"]
    assert found["uid"] == str(kept["tithe"].uid)
    assert {k: v for k, v in found.items() if k != "rule_links"} == exchange.precedent_json(
        kept["tithe"]
    )
    assert [link["text"] for link in found["rule_links"]] == kept["tithe"].rules
    assert any(link["url"] and "/rules/iacta/#" in link["url"] for link in found["rule_links"])
    assert client.get(SEARCH_URL, {"card": "Glass Warden"}).json()["count"] == 1
    client.force_login(judge)
    both = client.get(SEARCH_URL, [("card", "Glass Warden"), ("rule", "202")])
    assert both.json()["count"] == 2


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"order": "oldest"}, "order"),
        ({"game": "chess"}, "game"),
        ({"q": "x" * 201}, "q"),
        ({"card": ",".join(f"c{i}" for i in range(7))}, "card"),
    ],
)
def test_api_search_refuses_a_bad_parameter_naming_it(client, params, field):
    response = client.get(SEARCH_URL, params)
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]


# --- the venue laptop's commands -----------------------------------------------------------


def test_the_commands_export_and_import_a_set(kept, tmp_path):
    path = tmp_path / "set.json"
    call_command("export_precedents", str(path), "--game", "iacta", stderr=io.StringIO())
    document = json.loads(path.read_text("utf-8"))
    assert uids_in(document) == {str(kept[k].uid) for k in ("tithe", "warden", "cost")}
    public = tmp_path / "public.json"
    call_command("export_precedents", str(public), "--public", stderr=io.StringIO())
    assert uids_in(json.loads(public.read_text("utf-8"))) == {str(kept["tithe"].uid)}
    fresh_site()
    out = io.StringIO()
    call_command("import_precedents", str(path), stdout=out)
    assert "Added 3, unchanged 0, conflicts 0." in out.getvalue()
    assert set(Precedent.objects.values_list("marked_by", flat=True)) == {None}
    again = io.StringIO()
    call_command("import_precedents", str(path), stdout=again)
    assert "Added 0, unchanged 3, conflicts 0." in again.getvalue()


def test_the_import_command_lists_every_problem_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(a_set(a_precedent(game="chess"), a_precedent(decision="?"))))
    with pytest.raises(CommandError) as refused:
        call_command("import_precedents", str(bad))
    assert "precedents[0].game" in str(refused.value)
    assert "precedents[1].decision" in str(refused.value)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_precedents", str(broken))
    with pytest.raises(CommandError, match="no game"):
        call_command("export_precedents", str(tmp_path / "x.json"), "--game", "chess")
    assert not Precedent.objects.exists()


# --- the schema ----------------------------------------------------------------------------


def test_the_schema_names_the_sites_games_and_is_valid():
    document = set_schema.schema_document()
    Draft202012Validator.check_schema(document)
    assert document["$defs"]["precedent"]["properties"]["game"]["enum"] == list(GAMES)
    assert set_schema.problems(a_set(a_precedent())) == []
    assert set(set_schema.FIELDS) == set(exchange.precedent_json(Precedent(ruled_on=date.today())))


def test_same_json_tells_true_from_one_but_not_two_from_two_point_oh():
    assert exchange.same_json({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not exchange.same_json({"a": True}, {"a": 1})
    assert not exchange.same_json({"a": 1}, {"a": 1, "b": None})
    assert not exchange.same_json([1], {"0": 1})


def test_the_api_answers_fit_their_openapi_components(kept, client, judge, organiser, staff):
    """The schemathesis run meets no precedent: these answers are checked against the
    components they are documented with here."""
    spec = SchemaGenerator().get_schema(request=None, public=True)

    def fits(component: str, body) -> list[str]:
        schema = {"$ref": f"#/components/schemas/{component}", "components": spec["components"]}
        return [error.message for error in Draft202012Validator(schema).iter_errors(body)]

    client.force_login(judge)
    assert fits("PrecedentSearch", client.get(SEARCH_URL, {"rule": "202"}).json()) == []
    document = client.get(EXPORT_URL).json()
    assert fits("PrecedentSet", document) == []
    kept["cost"].delete()
    services.mark(kept["warden"].call, organiser, decision="upheld")  # a conflict
    client.force_login(staff)
    report = client.post(IMPORT_URL, json.dumps(document), content_type="application/json")
    assert len(report.json()["conflicts"]) == 1
    assert fits("PrecedentImportReport", report.json()) == []
