"""API bodies: a size limit (413 naming it) and a clear 400 for anything that is not usable
JSON, never a 500; unknown API paths answer JSON too."""

import json

import pytest
from django.conf import settings as django_settings

from judging.models import Penalty
from tests.conftest import database_rows
from tests.tournaments.test_interchange import small_document
from tests.tournaments.test_round_lifecycle import make_event
from tournaments.models import Event
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(organiser, judge):
    from tournaments.models import EventRole

    event = make_event(organiser, 4)
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    round_ = rounds.pair_next_round(event, organiser)
    return event, round_.matches.order_by("table").first()


def messages(response) -> list[str]:
    return [error["message"] for error in response.json()["errors"]]


def test_the_default_limits():
    assert django_settings.API_MAX_BODY_BYTES == 1024 * 1024
    assert django_settings.API_IMPORT_MAX_BODY_BYTES == 32 * 1024 * 1024


def test_a_json_body_over_the_limit_is_refused_unread(client, judge, running, settings):
    settings.API_MAX_BODY_BYTES = 1000
    event, table = running
    client.force_login(judge)
    body = {"player": table.player_a_id, "infraction": "slow_play", "notes": "x" * 2000}
    response = client.post(
        f"/api/v1/events/{event.pk}/penalties/", json.dumps(body), "application/json"
    )
    assert response.status_code == 413
    assert "limit is 1000 bytes" in messages(response)[0]
    assert not event.penalties.exists()


def test_a_body_within_the_limit_is_accepted(client, judge, running, settings):
    settings.API_MAX_BODY_BYTES = 1000
    event, table = running
    client.force_login(judge)
    body = {"player": table.player_a_id, "infraction": "slow_play", "match": table.pk}
    response = client.post(
        f"/api/v1/events/{event.pk}/penalties/", json.dumps(body), "application/json"
    )
    assert response.status_code == 201, response.content
    issued = Penalty.objects.get(pk=response.json()["id"])
    assert (issued.match, issued.player_id, issued.infraction) == (
        table,
        table.player_a_id,
        "slow_play",
    )


def test_form_bodies_are_limited_too(client, judge, running, settings):
    settings.API_MAX_BODY_BYTES = 1000
    event, table = running
    client.force_login(judge)
    form = f"player={table.player_a_id}&infraction=slow_play&notes={'x' * 2000}"
    response = client.post(
        f"/api/v1/events/{event.pk}/penalties/", form, "application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    assert "limit is 1000 bytes" in messages(response)[0]
    multipart = client.post(
        f"/api/v1/events/{event.pk}/penalties/",
        {"player": str(table.player_a_id), "infraction": "slow_play", "notes": "x" * 2000},
    )
    assert multipart.status_code == 413
    assert "limit is 1000 bytes" in messages(multipart)[0]
    assert not event.penalties.exists()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('{"score": "2-1"', "not valid JSON"),
        ('{"score": NaN}', "numbers must be finite"),
        ('{"score": 1e999}', "too large"),
        ("[1, 2]", "JSON object, not a list"),
        ('"2-1"', "JSON object, not a string"),
        ('{"reason": "a\\u0000b"}', "NUL"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
    ],
)
def test_malformed_json_is_a_400_naming_the_problem(client, organiser, running, body, expected):
    _, table = running
    client.force_login(organiser)
    before = database_rows()
    response = client.post(f"/api/v1/matches/{table.pk}/result/", body, "application/json")
    assert response.status_code == 400, response.content
    assert any(expected in message for message in messages(response)), messages(response)
    assert database_rows() == before


def test_a_body_that_is_not_json_is_a_415(client, organiser, running):
    _, table = running
    client.force_login(organiser)
    before = database_rows()
    response = client.post(f"/api/v1/matches/{table.pk}/result/", "score=2-1", "text/csv")
    assert response.status_code == 415
    assert "text/csv" in messages(response)[0]
    assert database_rows() == before


def test_text_ids_are_a_400_not_a_500(client, organiser, running):
    event, _ = running
    client.force_login(organiser)
    before = database_rows()
    for url, body, field in (
        (f"/api/v1/events/{event.pk}/drop/", {"registration": "abc"}, "registration"),
        (f"/api/v1/events/{event.pk}/players/", {"action": "pin", "registration": [1]}, None),
        ("/api/v1/decklists/legality/", {"event": "abc", "text": "4 X"}, "event"),
    ):
        response = client.post(url, body, "application/json")
        assert response.status_code == 400, (url, response.content)
        assert messages(response)[0]
        if field:
            assert response.json()["errors"][0]["field"] == field
    assert database_rows() == before


def test_the_import_endpoint_takes_more_than_the_general_limit(client, organiser, settings):
    settings.API_MAX_BODY_BYTES = 100
    body = json.dumps(small_document())
    assert len(body) > 100
    client.force_login(organiser)
    response = client.post("/api/v1/events/import/", body, "application/json")
    assert response.status_code == 201, response.content
    assert Event.objects.filter(name="Tuesday Iacta").exists()


def test_an_unknown_api_path_answers_json(client):
    response = client.get("/api/v1/events/not-a-number/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "/api/v1/events/not-a-number/" in messages(response)[0]
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
