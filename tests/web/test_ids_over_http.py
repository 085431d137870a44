"""The API's fields read through one reader: an id is ASCII digits only, every wrong
field is named in a 400, and a refused request changes nothing."""

import pytest

from tests.conftest import database_rows, make_event
from tournaments.event import services
from tournaments.models import EventRole
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def post(client, url, body):
    return client.post(url, body, content_type="application/json")


def fields_of(response) -> list:
    return [e["field"] for e in response.json()["errors"]]


@pytest.fixture
def paired(organiser, judge):
    """Round 1 of a 4-player event, paired; jude judges it."""
    event = make_event(organiser, 4)
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    round_ = rounds.pair_next_round(event, organiser)
    return event, round_


# --- "²" and other ids that are not ASCII digits ------------------------------------------


def test_pinning_registration_superscript_two_is_a_400_naming_the_field(client, organiser):
    """``"²".isdigit()`` is true, but ``int("²")`` raises: this request used to be a 500."""
    event = make_event(organiser, 2)
    before = database_rows()
    client.force_login(organiser)
    response = post(
        client, f"/api/v1/events/{event.pk}/players/", {"action": "pin", "registration": "²"}
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "registration", "message": "No such registration in this event."}
    ]
    assert database_rows() == before


@pytest.mark.parametrize("registration", ["²", "\u0661", "0", "-1", "1.0", True, [1], None])
def test_pin_with_an_id_that_is_not_ascii_digits_is_a_400_naming_the_field(
    client, organiser, registration
):
    event = make_event(organiser, 2)
    before = database_rows()
    client.force_login(organiser)
    response = post(
        client,
        f"/api/v1/events/{event.pk}/players/",
        {"action": "pin", "registration": registration, "table": 1},
    )
    assert response.status_code == 400
    assert fields_of(response) == ["registration"]
    assert database_rows() == before


def test_drop_with_a_superscript_id_is_a_400_and_drops_nobody(client, organiser):
    event = make_event(organiser, 2)
    before = database_rows()
    client.force_login(organiser)
    response = post(client, f"/api/v1/events/{event.pk}/drop/", {"registration": "²"})
    assert response.status_code == 400
    assert fields_of(response) == ["registration"]
    assert database_rows() == before


def test_another_events_registration_is_no_registration_here(client, organiser):
    event = make_event(organiser, 2)
    stranger = make_event(organiser, 0, name="Elsewhere")
    late = services.add_late_entry(stranger, organiser, name="Lou")
    before = database_rows()
    client.force_login(organiser)
    response = post(
        client,
        f"/api/v1/events/{event.pk}/players/",
        {"action": "pin", "registration": late.pk, "table": 1},
    )
    assert response.status_code == 400 and fields_of(response) == ["registration"]
    assert database_rows() == before


def test_a_legality_check_against_event_superscript_two_is_a_400(client, organiser):
    make_event(organiser, 2)
    response = post(client, "/api/v1/decklists/legality/", {"event": "²", "text": "4 Ember Tithe"})
    assert response.status_code == 400
    assert fields_of(response) == ["event"]


def test_a_card_search_with_a_nul_is_a_400_naming_q(client):
    response = client.get("/api/v1/cards/", {"game": "iacta", "q": "ember\x00"})
    assert response.status_code == 400 and fields_of(response) == ["q"]


# --- several wrong fields: several errors ---------------------------------------------------


def test_a_pin_with_two_wrong_fields_names_both(client, organiser):
    event = make_event(organiser, 2)
    before = database_rows()
    client.force_login(organiser)
    response = post(
        client,
        f"/api/v1/events/{event.pk}/players/",
        {"action": "pin", "registration": "²", "table": 0},
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "registration", "message": "No such registration in this event."},
        {"field": "table", "message": "table must be a table number (1 or more) or null."},
    ]
    assert database_rows() == before


def test_a_penalty_with_four_wrong_fields_gets_four_errors(client, paired, judge):
    event, _ = paired
    before = database_rows()
    client.force_login(judge)
    body = {"match": "²", "player": -1, "infraction": "jaywalking", "game": "two", "notes": 5}
    response = post(client, f"/api/v1/events/{event.pk}/penalties/", body)
    assert response.status_code == 400
    assert sorted(fields_of(response)) == ["game", "infraction", "match", "notes", "player"]
    assert database_rows() == before


def test_a_swap_with_two_bad_ids_names_both_and_swaps_nothing(client, paired, organiser):
    event, round_ = paired
    before = database_rows()
    client.force_login(organiser)
    response = post(
        client,
        f"/api/v1/events/{event.pk}/rounds/{round_.number}/swap/",
        {"first": "²", "second": 10**30, "reason": "Seating"},
    )
    assert response.status_code == 400
    assert fields_of(response) == ["first", "second"]
    assert database_rows() == before


def test_a_score_that_is_not_a_score_names_the_score(client, paired, judge):
    _, round_ = paired
    match = round_.matches.filter(is_bye=False).first()
    before = database_rows()
    client.force_login(judge)
    response = post(client, f"/api/v1/matches/{match.pk}/result/", {"score": "2:1", "reason": 7})
    assert response.status_code == 400
    assert fields_of(response) == ["score", "reason"]
    assert "is not a score" in response.json()["errors"][0]["message"]
    assert database_rows() == before


def test_an_overlong_reason_is_refused_and_nothing_is_dropped(client, paired, organiser):
    event, _ = paired
    target = event.registrations.first()
    before = database_rows()
    client.force_login(organiser)
    response = post(
        client,
        f"/api/v1/events/{event.pk}/drop/",
        {"registration": target.pk, "reason": "x" * 2001},
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "reason", "message": "reason is 2,001 characters long; keep it to 2,000."}
    ]
    assert database_rows() == before


def test_a_well_formed_pin_still_pins(client, organiser):
    event = make_event(organiser, 2)
    registration = event.registrations.first()
    client.force_login(organiser)
    url = f"/api/v1/events/{event.pk}/players/"
    response = post(
        client, url, {"action": "pin", "registration": str(registration.pk), "table": 4}
    )
    assert response.json() == {"registration": registration.pk, "table_pin": 4}
    registration.refresh_from_db()
    assert registration.table_pin == 4
