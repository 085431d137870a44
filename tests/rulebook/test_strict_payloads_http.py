"""Over HTTP a payload missing a field the contract requires is a 400 naming that field."""

import json

import pytest

from tests.unit.rules_engine.strict_cases import REQUIRED_CASES, case_id, field_name, without


def post(client, game, question, body):
    return client.post(
        f"/api/v1/rules/{game}/{question}/", json.dumps(body), content_type="application/json"
    )


@pytest.mark.parametrize("case", REQUIRED_CASES, ids=case_id)
def test_a_missing_required_field_is_a_400_naming_it(client, case):
    game, slug, payload, path = case
    assert post(client, game, slug, payload).status_code == 200
    response = post(client, game, slug, without(payload, path))
    assert response.status_code == 400
    assert response.json() == {
        "errors": [{"field": field_name(path), "message": "This field is required."}]
    }


def test_maintenance_without_is_first_turn_is_a_400_not_a_discard(client):
    response = post(client, "iacta", "maintenance", {"hand": 5, "deck": 30, "reserve": 0})
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["is_first_turn"]
