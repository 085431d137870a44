"""The import API with a signed-in browser session and its CSRF token, as the docs say
works (it used to answer 415: the CSRF check read the body through no parser)."""

import pytest
from django.test import Client

from tests.conftest import database_rows
from tournaments.models import Event, EventRole

pytestmark = pytest.mark.django_db

DOCUMENT = (
    '{"format": "arbiter-event/1", "event": {"name": "Session Cup", "game": "iacta",'
    ' "date": "2026-12-05", "match_format": "bo3"},'
    ' "players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Ben"}], "rounds": []}'
)


def session_client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/events/")  # sets the CSRF cookie, as a page visit does
    return client


def test_a_session_with_its_csrf_token_imports_the_event(organiser):
    client = session_client(organiser)
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/api/v1/events/import/", DOCUMENT, content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )  # fmt: skip
    assert response.status_code == 201, response.content
    event = Event.objects.get(pk=response.json()["id"])
    assert event.name == "Session Cup" and event.registrations.count() == 2
    assert EventRole.objects.filter(event=event, user=organiser, role="organiser").exists()


def test_a_session_without_the_csrf_token_is_refused_and_writes_nothing(organiser):
    client = session_client(organiser)
    before = database_rows()
    response = client.post("/api/v1/events/import/", DOCUMENT, content_type="application/json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["errors"][0]["message"]
    assert database_rows() == before
