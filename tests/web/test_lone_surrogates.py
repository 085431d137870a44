"""A lone UTF-16 surrogate ("\\ud800", half of a pair, which JSON can escape alone) is not
text: it used to pass the body parser and end in a 500 where the text was encoded (the
response, the database). Every JSON body is now refused on arrival, naming the field."""

import json

import pytest

from tests.conftest import database_rows, make_event
from tournaments.models import EventRole
from tournaments.rounds import services as rounds
from web.inputs import unusable_at

pytestmark = pytest.mark.django_db

LONE = "@lone@"  # written into the body as the JSON escape \ud800, alone


def body(fields: dict) -> str:
    return json.dumps(fields).replace(LONE, "\\ud800")


@pytest.fixture
def paired(organiser, judge):
    event = make_event(organiser, 4)
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    round_ = rounds.pair_next_round(event, organiser)
    return event, round_


def requests(event, round_) -> list[tuple[str, str, dict, str]]:
    """(who, url, fields, the field named): anonymous, player-facing and staff bodies."""
    match = round_.matches.filter(is_bye=False).first()
    player = match.player_a_id
    api = f"/api/v1/events/{event.pk}"
    penalty = {"player": player, "match": match.pk, "infraction": "slow_play", "notes": LONE}
    return [
        ("anonymous", "/api/v1/decklists/legality/", {"event": event.pk, "text": LONE}, "text"),
        ("organiser", f"{api}/players/", {"action": "late_entry", "name": f"x{LONE}"}, "name"),
        ("organiser", f"{api}/drop/", {"registration": player, "reason": LONE}, "reason"),
        ("judge", f"{api}/penalties/", penalty, "notes"),
        ("judge", f"{api}/calls/", {"question": f"a{LONE}b", "table": match.table}, "question"),
        ("anonymous", "/api/v1/rules/iacta/flush-score/", {"dice": [1], "note": LONE}, "note"),
        ("organiser", f"{api}/players/", {"action": "late_entry", LONE: 1}, "(body)"),
    ]


def test_every_json_body_with_a_lone_surrogate_is_a_400_naming_the_field(
    client, paired, organiser, judge
):
    event, round_ = paired
    people = {"anonymous": None, "organiser": organiser, "judge": judge}
    for who, url, fields, field in requests(event, round_):
        client.logout()
        if people[who] is not None:
            client.force_login(people[who])
        before = database_rows()
        response = client.post(url, body(fields), content_type="application/json")
        assert response.status_code == 400, (url, response.status_code)
        (error,) = response.json()["errors"]
        assert error["field"] == field, (url, error)
        assert "lone UTF-16 surrogate" in error["message"]
        assert database_rows() == before, url


def test_the_import_api_refuses_a_lone_surrogate_in_a_player_name(client, organiser):
    client.force_login(organiser)
    document = {
        "format": "arbiter-event/1",
        "event": {"name": "Cup", "game": "iacta"},
        "players": [{"id": "p1", "name": f"Ann{LONE}"}],
        "rounds": [],
    }
    before = database_rows()
    response = client.post(
        "/api/v1/events/import/", body(document), content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "players[0].name"
    assert database_rows() == before


def field_at_fault(value) -> str | None:
    problem = unusable_at(value)
    return None if problem is None else problem["field"]


def test_a_pair_of_surrogates_is_an_ordinary_character():
    assert field_at_fault({"name": "\U0001f3b2 die", "list": ["ok", {"deep": "fine"}]}) is None
    assert field_at_fault({"list": ["ok", {"deep": "\udc00"}]}) == "list[1].deep"
    assert field_at_fault("\ud800") == "(body)"
