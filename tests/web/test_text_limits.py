"""Text fields are measured before the database: a name past its column is a 400 naming
the field and the limit (it used to be a 500 where PostgreSQL refused it), and nothing
is written."""

import pytest

from tests.conftest import PASSWORD, database_rows, make_event
from tournaments.models import Registration
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def late_entry(client, event, name: str):
    return client.post(
        f"/api/v1/events/{event.pk}/players/",
        {"action": "late_entry", "name": name},
        content_type="application/json",
    )


def test_a_late_entry_name_past_200_characters_is_a_400_naming_the_field(client, organiser):
    event = make_event(organiser, 4)
    rounds.pair_next_round(event, organiser)
    client.force_login(organiser)
    before = database_rows()
    response = late_entry(client, event, "a" * 201)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "name" and "200" in error["message"]
    assert database_rows() == before


def test_a_late_entry_name_of_200_characters_is_seated(client, organiser):
    event = make_event(organiser, 4)
    rounds.pair_next_round(event, organiser)
    client.force_login(organiser)
    response = late_entry(client, event, "b" * 200)
    assert response.status_code in (200, 201), response.content
    assert Registration.objects.get(event=event, name="b" * 200).joined_round == 2


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_late_entry_form_holds_a_name_to_200_characters_too(client, organiser):
    """The page hands the service what it was sent: the limit is the service's, so the
    form is held to it as the API is (on PostgreSQL this was a 500)."""
    event = make_event(organiser, 4)
    rounds.pair_next_round(event, organiser)
    client.force_login(organiser)
    before = database_rows()
    response = client.post(f"/events/{event.pk}/late-entry/", {"name": "c" * 201}, follow=True)
    assert database_rows() == before
    assert any("name is 201 characters long; keep it to 200" in m for m in messages_of(response))


def test_a_reason_past_2000_characters_is_refused_by_every_form_that_takes_one(client, organiser):
    """A drop's reason from the dashboard had no limit at all (the API's was 2,000)."""
    event = make_event(organiser, 4)
    rounds.pair_next_round(event, organiser)
    registration = event.registrations.first()
    client.force_login(organiser)
    before = database_rows()
    response = client.post(
        f"/events/{event.pk}/players/{registration.pk}/drop/", {"reason": "r" * 2001}, follow=True
    )
    assert database_rows() == before
    assert any(
        "reason is 2,001 characters long; keep it to 2,000" in m for m in messages_of(response)
    )


def test_a_log_in_with_a_username_past_150_characters_is_the_forms_error(client, organiser):
    """django-axes stored the name of a failed log-in in a 255-character column: 10,000
    characters were a 500 on PostgreSQL (found by the input fuzz). Now no log-in is tried."""
    from axes.models import AccessAttempt

    response = client.post("/accounts/login/", {"username": "u" * 10_000, "password": "x"})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()
    signed_in = client.post(
        "/accounts/login/", {"username": organiser.username, "password": PASSWORD}
    )
    assert signed_in.status_code == 302


def test_creating_an_event_measures_its_name_and_venue_whatever_calls_the_service(organiser):
    """The page's form held the event's name to 200 characters, but the service did not:
    a script, the demo or any other caller stored 5,000 on SQLite, which checks no length."""
    from tournaments.event import services
    from web.errors import ServiceError

    before = database_rows()
    with pytest.raises(ServiceError) as refused:
        services.create_event(organiser, name="n" * 5_000, venue="v" * 201)
    assert database_rows() == before
    assert [(e["field"], e["message"]) for e in refused.value.errors] == [
        ("name", "name is 5,000 characters long; keep it to 200."),
        ("venue", "venue is 201 characters long; keep it to 200."),
    ]


def test_the_new_event_form_refuses_a_5000_character_name_and_says_the_limit(client, organiser):
    client.force_login(organiser)
    before = database_rows()
    response = client.post(
        "/events/new/",
        {
            "name": "x" * 5_000,
            "game": "iacta",
            "date": "2026-12-01",
            "status": "registration",
            "match_format": "bo3",
            "top_cut": 0,
            "round_minutes": 50,
            "decklists_public": "none",
            "print_paper": "A4",
        },
    )
    assert response.status_code == 200 and database_rows() == before
    assert "at most 200 characters" in response.content.decode()
