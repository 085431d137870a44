"""The adjudication contract over HTTP: 200 rulings, 400 naming the problem, 404, never 500."""

import json

import pytest

from rules_engine import GAMES, catalogue, questions
from rules_engine.reference import locate

ALL_QUESTIONS = [(q.game, q.slug) for game in GAMES for q in questions(game)]


def post(client, game, question, body, content_type="application/json"):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(f"/api/v1/rules/{game}/{question}/", data, content_type=content_type)


def test_catalogue_lists_every_game_with_questions_and_schemas(client):
    response = client.get("/api/v1/rules/")
    assert response.status_code == 200
    games = {g["game"]: g for g in response.json()["games"]}
    assert set(games) == {"iacta", "superjack", "dataclysm"}
    iacta = {q["question"] for q in games["iacta"]["questions"]}
    assert {"flush-score", "pay-cost", "penalties", "deck-legality"} <= iacta
    for game in games.values():
        for q in game["questions"]:
            assert q["schema"]["type"] == "object"


def test_flush_score_full_house_over_http(client):
    """Quick-start Scoring Combinations: 4 4 4 2 2 is a Full House, +15."""
    response = post(client, "iacta", "flush-score", {"dice": [4, 4, 4, 2, 2]})
    assert response.status_code == 200
    body = response.json()
    assert (body["sum"], body["combo"], body["bonus"], body["score"]) == (16, "full_house", 15, 31)
    assert body["citations"] and body["explanation"]


@pytest.mark.parametrize(("game", "question"), ALL_QUESTIONS)
def test_every_example_is_answered_and_every_citation_links_to_the_rules(client, game, question):
    example = next(
        q["example"]
        for g in catalogue()["games"]
        for q in g["questions"]
        if g["game"] == game and q["question"] == question
    )
    response = post(client, game, question, example)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert isinstance(body["explanation"], str) and body["explanation"]
    unlinked = [c for c in body["citations"] if locate(c) is None]
    assert unlinked == []


def test_wrongly_typed_payload_names_each_field(client):
    response = post(client, "iacta", "flush-score", {"dice": [4, "four", -1]})
    assert response.status_code == 400
    fields = [e["field"] for e in response.json()["errors"]]
    assert "dice[1]" in fields and "dice[2]" in fields


def test_missing_field_is_named(client):
    response = post(client, "iacta", "flush-score", {})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "dice"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{not json", "not valid JSON"),
        (b"", "empty"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b'{"dice": [NaN]}', "finite"),
        (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
        (b'{"dice": [' + b"9" * 5000 + b"]}", "not a usable JSON value"),
    ],
)
def test_malformed_bodies_get_400_naming_the_problem(client, body, words):
    response = post(client, "iacta", "flush-score", body)
    assert response.status_code == 400
    assert words in response.json()["errors"][0]["message"]


def test_non_object_payload_is_400(client):
    response = post(client, "iacta", "flush-score", [1, 2, 3])
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "(payload)" and "is not of type 'object'" in error["message"]


def test_oversized_body_is_refused(client):
    body = json.dumps({"dice": [1] * 40000})
    assert len(body) > 64 * 1024
    response = post(client, "iacta", "flush-score", body)
    assert response.status_code == 400
    assert "limit is 65536 bytes" in response.json()["errors"][0]["message"]


def test_unknown_game_or_question_is_404(client):
    chess = post(client, "chess", "flush-score", {})
    assert chess.status_code == 404 and "no game 'chess'" in chess.json()["errors"][0]["message"]
    response = post(client, "iacta", "checkmate", {})
    assert response.status_code == 404
    assert "checkmate" in response.json()["errors"][0]["message"]


def test_get_on_a_question_is_405_not_500(client):
    response = client.get("/api/v1/rules/iacta/flush-score/")
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    assert 'Method "GET" not allowed' in response.json()["errors"][0]["message"]


@pytest.mark.django_db
def test_deck_legality_without_cards_uses_the_card_database(client):
    from decks.cardpool import load_demo_pools

    load_demo_pools()
    main = [{"name": "ember tithe", "count": 4}]  # case as a player types it
    body = post(client, "iacta", "deck-legality", {"main": main, "sideboard": []}).json()
    assert body["legal"] is False
    unknown = [v for v in body["violations"] if v["rule"] == "101.4"]
    assert unknown == []  # the card was found in the database
    body = post(
        client,
        "iacta",
        "deck-legality",
        {"main": [{"name": "No Such Card", "count": 4}], "sideboard": []},
    )
    assert any(v["rule"] == "101.4" for v in body.json()["violations"])
