"""Text fields are measured before the database: a name past its column is a 400 naming
the field and the limit (it used to be a 500 where PostgreSQL refused it), and nothing
is written."""

import pytest

from tests.conftest import make_event, snapshot
from tournaments import rounds
from tournaments.models import Registration

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
    before = snapshot()
    response = late_entry(client, event, "a" * 201)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "name" and "200" in error["message"]
    assert snapshot() == before


def test_a_late_entry_name_of_200_characters_is_seated(client, organiser):
    event = make_event(organiser, 4)
    rounds.pair_next_round(event, organiser)
    client.force_login(organiser)
    response = late_entry(client, event, "b" * 200)
    assert response.status_code in (200, 201), response.content
    assert Registration.objects.get(event=event, name="b" * 200).joined_round == 2
