"""Who an imported event is public for, and how big an import may be.

Anyone signed in may import an event, but an import must not make the site show their
event to everyone, nor make it do unbounded work: an event imported by a user without
the ``tournaments.import_published_event`` permission is a draft for its importer, and
its players, rounds and matches are bounded (higher bounds with the permission, and an
absolute bound for everybody). Limits are set small here so the tests stay fast.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.conftest import database_rows, make_user
from tournaments.interchange import FORMAT, InterchangeError, import_event
from tournaments.models import Event, EventRole

pytestmark = pytest.mark.django_db

IMPORT_URL = "/api/v1/events/import/"


def big_document(players: int, rounds: int, status: str | None = None) -> dict:
    """``players`` (an even number) paired table by table in each of ``rounds`` rounds."""
    event = {"name": "Huge Open", "game": "iacta", "date": "2026-12-05", "match_format": "bo1"}
    if status is not None:
        event["status"] = status
    ids = [f"p{n}" for n in range(1, players + 1)]
    return {
        "format": FORMAT,
        "event": event,
        "players": [{"id": pid, "name": f"Player {pid}"} for pid in ids],
        "rounds": [
            {
                "number": number,
                "kind": "swiss",
                "matches": [
                    {"table": t + 1, "players": [ids[2 * t], ids[2 * t + 1]], "games": [ids[2 * t]]}
                    for t in range(players // 2)
                ],
            }
            for number in range(1, rounds + 1)
        ],
    }


def trusted(username: str):
    user = make_user(username)
    user.user_permissions.add(Permission.objects.get(codename="import_published_event"))
    return type(user).objects.get(pk=user.pk)  # a fresh user: permissions are cached


@pytest.fixture
def small_limits(settings):
    settings.IMPORT_MAX_PLAYERS = 8
    settings.IMPORT_MAX_ROUNDS = 3
    settings.IMPORT_MAX_MATCHES = 10
    settings.IMPORT_MAX_PLAYERS_TRUSTED = 16
    settings.IMPORT_MAX_ROUNDS_TRUSTED = 5
    settings.IMPORT_MAX_MATCHES_TRUSTED = 30


def post(user, document) -> object:
    client = Client()
    client.force_login(user)
    return client.post(IMPORT_URL, json.dumps(document), content_type="application/json")


# --- drafts ----------------------------------------------------------------------------------


def test_an_ordinary_users_import_is_a_draft_that_only_they_see():
    importer = make_user("mallory")
    response = post(importer, big_document(4, 1, status="running"))
    assert response.status_code == 201, response.content
    body = response.json()
    event = Event.objects.get(pk=body["id"])
    assert event.status == Event.Status.DRAFT
    assert body["status"] == "draft"
    assert "publish" in body["message"].lower()
    assert f"/events/{event.pk}/edit/" in body["message"]
    assert EventRole.objects.filter(event=event, user=importer, role="organiser").exists()
    assert not Event.objects.visible_to(None).filter(pk=event.pk).exists()
    for url in (f"/events/{event.pk}/", f"/events/{event.pk}/standings/"):
        assert Client().get(url).status_code == 404, url
    assert Client().get(f"/api/v1/events/{event.pk}/standings/").status_code in (403, 404)
    owner = Client()
    owner.force_login(importer)
    assert owner.get(f"/events/{event.pk}/standings/").status_code == 200


def test_the_drafts_page_tells_its_organiser_how_to_publish_it():
    importer = make_user("mallory")
    event_id = post(importer, big_document(4, 1)).json()["id"]
    owner = Client()
    owner.force_login(importer)
    page = owner.get(f"/events/{event_id}/").content.decode()
    assert "This event is a draft" in page and f"/events/{event_id}/edit/" in page
    published = post(trusted("sam"), big_document(4, 1)).json()["id"]
    sam = Client()
    sam.force_login(type(importer).objects.get(username="sam"))
    assert "This event is a draft" not in sam.get(f"/events/{published}/").content.decode()


def test_the_draft_is_published_through_the_events_edit_page():
    """The message's way to publish works: the organiser sets the status and saves."""
    importer = make_user("mallory")
    event = Event.objects.get(pk=post(importer, big_document(4, 1)).json()["id"])
    from tournaments.event import services

    services.update_event(event, importer, status=Event.Status.RUNNING)
    assert Event.objects.visible_to(None).filter(pk=event.pk).exists()


def test_with_the_permission_the_documents_status_stands():
    response = post(trusted("sam"), big_document(4, 1, status="running"))
    assert response.status_code == 201, response.content
    assert Event.objects.get(pk=response.json()["id"]).status == Event.Status.RUNNING
    assert response.json()["status"] == "running"
    assert Client().get(response.json()["url"]).status_code == 200


def test_site_staff_with_every_permission_publish_at_once():
    admin = make_user("root", is_superuser=True, is_staff=True)
    response = post(admin, big_document(4, 0))
    assert Event.objects.get(pk=response.json()["id"]).status == Event.Status.REGISTRATION


def test_the_command_run_by_the_operator_keeps_the_status():
    """``manage.py import_event`` is the site operator's: the file's status stands."""
    from tournaments.interchange.limits import ImportPolicy

    event = import_event(
        big_document(4, 1, status="finished"), None, policy=ImportPolicy.operator()
    )
    assert event.status == Event.Status.FINISHED


def test_import_event_called_for_a_user_applies_their_policy():
    """The service decides from the actor when no policy is given: not only the API."""
    event = import_event(big_document(4, 1, status="running"), make_user("mallory"))
    assert event.status == Event.Status.DRAFT


# --- size limits -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "field", "limit"),
    [(10, 1, "players", 8), (4, 4, "rounds", 3), (8, 3, "matches", 10)],
)
def test_an_ordinary_user_past_a_limit_is_refused_naming_it(
    small_limits, players, rounds, field, limit
):
    importer = make_user("mallory")
    before = database_rows()
    response = post(importer, big_document(players, rounds))
    assert response.status_code == 413, response.content
    (error,) = response.json()["errors"]
    assert error["field"] == field
    assert f"at most {limit}" in error["message"]
    assert "permission" in error["message"]
    assert database_rows() == before


def test_an_ordinary_user_within_the_limits_imports(small_limits):
    response = post(make_user("mallory"), big_document(8, 2))  # 8 matches of 10
    assert response.status_code == 201, response.content


def test_the_permission_raises_the_limits(small_limits):
    response = post(trusted("sam"), big_document(12, 4))  # 24 matches of 30
    assert response.status_code == 201, response.content


def test_past_the_absolute_bound_everybody_is_refused(small_limits):
    users = (trusted("sam"), make_user("root", is_superuser=True))
    before = database_rows()
    for user in users:
        response = post(user, big_document(18, 1))
        assert response.status_code == 413, response.content
        (error,) = response.json()["errors"]
        assert error["field"] == "players" and "at most 16" in error["message"]
        assert "permission" not in error["message"]
    assert database_rows() == before


def test_limits_are_checked_before_the_document_is_validated(small_limits, monkeypatch):
    """A huge file is refused on its counts: the schema and rules never run over it."""
    from tournaments.interchange import importer

    def must_not_run(document):
        raise AssertionError("the whole document was validated")

    monkeypatch.setattr(importer, "schema_findings", must_not_run)
    response = post(make_user("mallory"), big_document(40, 1))
    assert response.status_code == 413
    assert response.json()["errors"][0]["field"] == "players"


def test_the_service_refuses_past_a_limit_too(small_limits):
    with pytest.raises(InterchangeError) as caught:
        import_event(big_document(10, 1), make_user("mallory"))
    assert caught.value.problems[0].path == "players"
    assert not Event.objects.exists()


def test_a_malformed_document_still_gets_the_schemas_problems(small_limits):
    """Counting needs lists; anything else is left to the schema's messages (400)."""
    document = big_document(2, 1)
    document["players"] = "everyone"
    response = post(make_user("mallory"), document)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "players"


def test_the_default_limits_fit_a_large_real_event(settings):
    """2,000 players over 20 rounds: what a large real event (a regional) needs."""
    assert settings.IMPORT_MAX_PLAYERS >= 2_000 and settings.IMPORT_MAX_ROUNDS >= 20
    assert settings.IMPORT_MAX_MATCHES >= 2_000 // 2 * 20
    assert settings.IMPORT_MAX_PLAYERS_TRUSTED >= settings.IMPORT_MAX_PLAYERS
