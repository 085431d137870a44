"""Input that is not text or not a number is refused on arrival, naming the field: NUL
(which PostgreSQL's text and jsonb columns refuse), lone surrogates (JSON escapes, or a
form's bytes that are not UTF-8) and infinite numbers, in JSON bodies, form bodies and
query strings alike, through one walk (``web.inputs.unusable_at``). Each of these was a
500 somewhere (on PostgreSQL at least), or a 400 that did not say which field."""

import json

import pytest

from judging import calls
from tests.conftest import database_rows, make_event
from tests.tournaments.test_interchange import small_document
from tournaments.models import EventRole
from tournaments.rounds import services as rounds
from web import inputs

pytestmark = pytest.mark.django_db

SURROGATE_BYTES = "%ED%A0%80"  # "\ud800" as a form sends it: three bytes that are not UTF-8


@pytest.fixture
def paired(organiser, judge):
    event = make_event(organiser, 4)
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    round_ = rounds.pair_next_round(event, organiser)
    return event, round_


def post_form(client, url: str, encoded: str):
    return client.generic("POST", url, encoded, "application/x-www-form-urlencoded")


def test_one_walk_names_the_path_of_each_kind_of_unusable_value():
    unusable_at = inputs.unusable_at
    assert unusable_at({"a": ["ok", {"b": "x\x00"}]})["field"] == "a[1].b"
    assert unusable_at({"a": 1e999})["field"] == "a"
    assert unusable_at({"a": "\udc80"})["field"] == "a"
    assert unusable_at({"a": "\U0001f3b2", "b": [1, 2.5, None, True]}) is None
    assert inputs.urlencoded_fields(f"name={SURROGATE_BYTES}&p=1&p=2") == {
        "name": "\udced\udca0\udc80",
        "p": ["1", "2"],
    }


def test_a_result_form_whose_next_is_not_a_path_goes_back_to_the_dashboard(
    client, paired, organiser
):
    """``next`` not starting with "/" was read as a URL name: NoReverseMatch, a 500."""
    event, round_ = paired
    match = round_.matches.filter(is_bye=False).first()
    client.force_login(organiser)
    url = f"/events/{event.pk}/matches/{match.pk}/result/"
    for back in ("dashboard", "\ufffd"):
        response = client.post(url, {"score": "2-0", "next": back})
        assert response.status_code == 302, back
        assert response["Location"] == f"/events/{event.pk}/manage/"
    kept = client.post(url, {"score": "2-1", "next": f"/events/{event.pk}/pairings/"})
    assert kept["Location"] == f"/events/{event.pk}/pairings/"


def test_a_nul_in_an_import_document_is_a_400_naming_its_path(client, organiser):
    """It used to be refused as "(body)", without saying where in a 5,000-line file."""
    document = small_document()
    document["players"][1]["name"] = "Grace\x00Hopper"
    client.force_login(organiser)
    before = database_rows()
    response = client.post(
        "/api/v1/events/import/", json.dumps(document), content_type="application/json"
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "players[1].name"
    assert "NUL" in error["message"]
    assert database_rows() == before


def test_an_infinite_number_in_a_rules_payload_is_a_400_naming_it(client):
    """1e999 is valid JSON that reads as infinity; the rules API took it to the engine."""
    body = '{"dice": [1e999, 2, 3], "note": "x"}'
    response = client.post(
        "/api/v1/rules/iacta/flush-score/", body, content_type="application/json"
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "dice[0]"


def test_a_nul_in_a_ruling_kept_with_a_call_is_a_400(client, paired, judge):
    """The ruling's payload is stored as JSON, which PostgreSQL's jsonb refuses with NUL."""
    event, round_ = paired
    match = round_.matches.filter(is_bye=False).first()
    call = calls.open_call(event, judge, question="Q?", match=match)
    client.force_login(judge)
    before = database_rows()
    body = {"game": "iacta", "question": "flush-score", "payload": {"dice": [1], "n": "\x00"}}
    response = client.post(
        f"/events/{event.pk}/calls/{call.pk}/ruling/",
        json.dumps(body),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "payload.n" in response.content.decode()
    assert database_rows() == before


def test_a_nul_in_a_page_form_is_a_400_page_naming_the_field(client, paired, organiser):
    """Pages read their forms themselves: a late entry named "a\\0b" reached the database."""
    event, _ = paired
    client.force_login(organiser)
    before = database_rows()
    response = post_form(client, f"/events/{event.pk}/late-entry/", "name=a%00b")
    assert response.status_code == 400
    assert "name may not contain NUL characters" in response.content.decode()
    assert database_rows() == before


def test_a_form_field_that_is_not_utf8_is_a_400_page_naming_it(client, paired, organiser):
    """Django quietly turns such bytes into U+FFFD; the entry's name was stored mangled."""
    event, _ = paired
    client.force_login(organiser)
    before = database_rows()
    response = post_form(client, f"/events/{event.pk}/late-entry/", f"name=Ann{SURROGATE_BYTES}")
    assert response.status_code == 400
    assert "name is not text" in response.content.decode()
    assert database_rows() == before


def test_a_nul_in_a_page_query_string_is_a_400_naming_it(client):
    """The card search put it into a query, which PostgreSQL refuses."""
    response = client.get("/cards/", QUERY_STRING="q=a%00")
    assert response.status_code == 400
    assert "q may not contain NUL characters" in response.content.decode()


def test_a_form_encoded_api_body_that_is_not_utf8_is_a_400_naming_the_field(
    client, paired, organiser
):
    event, _ = paired
    client.force_login(organiser)
    before = database_rows()
    response = post_form(
        client,
        f"/api/v1/events/{event.pk}/players/",
        f"action=late_entry&name=Ann{SURROGATE_BYTES}",
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "name" and "not text" in error["message"]
    assert database_rows() == before


def test_a_nul_in_a_json_body_names_the_field(client, paired, organiser):
    """It used to be refused as the body as a whole, naming no field."""
    event, round_ = paired
    player = round_.matches.filter(is_bye=False).first().player_a_id
    client.force_login(organiser)
    response = client.post(
        f"/api/v1/events/{event.pk}/drop/",
        {"registration": player, "reason": "late\x00"},
        content_type="application/json",
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "reason"
