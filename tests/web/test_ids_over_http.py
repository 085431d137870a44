"""Ids read from request bodies: only ASCII digits name a row; anything else is a 400
naming the field, and nothing changes."""

import pytest

from tests.tournaments.test_round_lifecycle import make_event
from tournaments.models import EventLog, Registration

pytestmark = pytest.mark.django_db


def pins(event) -> list:
    return list(event.registrations.order_by("pk").values_list("pk", "table_pin"))


@pytest.mark.parametrize("registration", ["²", "\u0661", "0", "-1", "1.0", True, [1]])
def test_pin_with_an_id_that_is_not_ascii_digits_is_a_400_naming_the_field(
    client, organiser, registration
):
    event = make_event(organiser, 2)
    before, log = pins(event), EventLog.objects.count()
    client.force_login(organiser)
    response = client.post(
        f"/api/v1/events/{event.pk}/players/",
        {"action": "pin", "registration": registration, "table": 1},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["registration"]
    assert pins(event) == before and EventLog.objects.count() == log


def test_drop_with_a_superscript_id_is_a_400_and_drops_nobody(client, organiser):
    event = make_event(organiser, 2)
    client.force_login(organiser)
    response = client.post(
        f"/api/v1/events/{event.pk}/drop/", {"registration": "²"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "registration"
    assert not Registration.objects.filter(status=Registration.Status.DROPPED).exists()
