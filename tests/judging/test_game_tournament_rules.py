"""Judging asks the event's game for its tournament rules (rules_engine.rules_for).

Superjack and Dataclysm events get the escalation their packages declare (Iacta's
900-series, adopted, and said so); a game registered with rules of its own gets its own
infractions and escalation everywhere a judge meets them, so nothing says "iacta".
"""

from __future__ import annotations

import html

import pytest

from decks import services as decks
from decks.models import Decklist
from judging.models import Penalty
from judging.penalties import adopted_rules, issue_penalty, preview_penalty
from rules_engine import TournamentRules, rules_for
from rules_engine import tournament as tournament_rules
from rules_engine.tournament import GAME_LOSS
from tests.conftest import refused
from tournaments.models import Event

pytestmark = pytest.mark.django_db

IACTA_LEAD = "events follow the Iacta comprehensive rules, 900-series"


def _table(make_world, game: str):
    world = make_world(4, game=game)
    return world.event, world.table(1)


@pytest.mark.parametrize(
    ("game", "why"),
    [
        ("superjack", "the Superjack rules text has no penalty rules of its own (§8 Match Play"),
        ("dataclysm", "the Dataclysm rules text has no penalty rules of its own"),
    ],
)
def test_a_judge_at_an_adopting_games_event_gets_that_packages_escalation(
    make_world, judge, game, why
):
    _event, table = _table(make_world, game)
    a = table.player_a
    issue_penalty(a, "slow_play", judge, game=1, match=table)
    issue_penalty(a, "slow_play", judge, game=1, match=table)
    preview = preview_penalty(a, "slow_play", 1, table)
    assert [(c["result"], c["game"], c["rule"]) for c in preview.consequences] == [
        (GAME_LOSS, 1, "905.1")
    ]
    assert preview.explanation.startswith(f"{game.capitalize()} {IACTA_LEAD}: {why}")
    assert adopted_rules(game) == rules_for(game).applies
    third = issue_penalty(a, "slow_play", judge, game=1, match=table)
    assert third.consequences[0]["rule"] == "905.1"
    assert third.rule == "904.4"


def test_an_iacta_event_reads_as_before(make_world, judge, client):
    event, table = _table(make_world, "iacta")
    preview = preview_penalty(table.player_a, "slow_play", 1, table)
    assert IACTA_LEAD not in preview.explanation
    assert adopted_rules("iacta") == ""
    client.force_login(judge)
    page = client.get(f"/events/{event.pk}/penalties/new/").content.decode()
    assert 'id="tournament-rules"' not in page
    assert "Slow Play Warning (904.4)" in page


@pytest.mark.parametrize("game", ["superjack", "dataclysm"])
def test_the_penalty_form_says_whose_rules_an_adopting_game_follows(
    make_world, judge, client, game
):
    event, _match = _table(make_world, game)
    client.force_login(judge)
    page = html.unescape(client.get(f"/events/{event.pk}/penalties/new/").content.decode())
    assert f"{game.capitalize()} {IACTA_LEAD}" in page
    assert "Slow Play Warning (904.4)" in page


# --- a game with rules of its own: judging follows the event's game, not Iacta ------------


@pytest.fixture
def fake_game(monkeypatch):
    """A game "fakegame" registered in the dispatch with one infraction, "tardiness" (F1),
    a Game Loss by itself; its escalation records what it was asked."""
    asked: list[list[dict]] = []

    def escalation(payload: dict) -> dict:
        asked.append(payload["penalties"])
        consequences = [
            {"player": p["player"], "result": GAME_LOSS, "game": p["game"], "at": at, "rule": "F1"}
            for at, p in enumerate(payload["penalties"])
        ]
        return {"consequences": consequences, "explanation": "Fake ruling.", "citations": ["F1"]}

    rules = TournamentRules(
        game="fakegame",
        source="Fake tournament rules",
        infractions={"tardiness": ("F1", (GAME_LOSS,))},
        escalation=escalation,
    )
    monkeypatch.setitem(tournament_rules._RULES, "fakegame", rules)
    return asked


def _fake_event(make_world):
    event, table = _table(make_world, "iacta")
    Event.objects.filter(pk=event.pk).update(game="fakegame")
    table.refresh_from_db()
    table.player_a.refresh_from_db()
    return Event.objects.get(pk=event.pk), table


def test_judging_asks_the_events_game_for_infractions_and_escalation(make_world, judge, fake_game):
    _event, table = _fake_event(make_world)
    a = table.player_a
    preview = preview_penalty(a, "tardiness", 1, table)
    assert fake_game == [
        [{"player": f"{a.display_name} (#{a.pk})", "infraction": "tardiness", "game": 1}]
    ]
    assert preview.explanation == "Fake ruling."
    assert [(c["result"], c["rule"]) for c in preview.consequences] == [(GAME_LOSS, "F1")]
    penalty = issue_penalty(a, "tardiness", judge, game=1, match=table)
    assert penalty.rule == "F1"
    assert [c["rule"] for c in penalty.consequences] == ["F1"]
    with refused("Unknown infraction 'slow_play'"):
        preview_penalty(a, "slow_play", 1, table)
    assert Penalty.objects.filter(infraction="slow_play").count() == 0


def test_the_form_and_the_api_offer_the_events_games_infractions(
    make_world, judge, client, fake_game
):
    event, table = _fake_event(make_world)
    client.force_login(judge)
    page = client.get(f"/events/{event.pk}/penalties/new/").content.decode()
    assert '<option value="tardiness"' in page
    assert "tardiness (F1)" in page
    assert 'value="slow_play"' not in page
    body = {"match": table.pk, "player": table.player_a_id, "infraction": "slow_play", "game": 1}
    response = client.post(
        f"/api/v1/events/{event.pk}/penalties/preview/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "Unknown infraction; one of: tardiness." in response.content.decode()
    body["infraction"] = "tardiness"
    response = client.post(
        f"/api/v1/events/{event.pk}/penalties/preview/", body, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json()["explanation"] == "Fake ruling."


def test_an_iacta_event_does_not_take_another_games_infraction(make_world, fake_game):
    _event, table = _table(make_world, "iacta")
    with refused("Unknown infraction 'tardiness'"):
        preview_penalty(table.player_a, "tardiness", 1, table)
    assert fake_game == []


# --- decks: the sideboard rule is the event's game's too ------------------------------------


def _dataclysm_list(make_world) -> Decklist:
    _event, table = _table(make_world, "dataclysm")
    return Decklist.objects.create(registration=table.player_a, main=[], sideboard=[])


def test_a_dataclysm_event_has_no_sideboard_check(make_world, judge, client):
    decklist = _dataclysm_list(make_world)
    assert not decks.has_sideboard_rules(decklist.registration.event)
    with refused("Sideboard checks follow Iacta's 902 rules."):
        decks.check_sideboard_swap(decklist, "", new_match=False)
    client.force_login(judge)
    event = decklist.registration.event
    page = client.get(f"/events/{event.pk}/decklists/{decklist.registration_id}/")
    assert page.status_code == 200
    assert "/sideboard/" not in page.content.decode()


def test_the_sideboard_check_asks_the_events_game(make_world, monkeypatch):
    decklist = _dataclysm_list(make_world)
    asked: list[dict] = []

    def sideboard(payload: dict) -> dict:
        asked.append(payload)
        return {"legal": True, "violations": [], "explanation": "Fake 902.", "citations": []}

    with_sideboard = TournamentRules(
        game="dataclysm",
        source="Fake tournament rules",
        infractions=rules_for("dataclysm").infractions,
        escalation=rules_for("dataclysm").escalation,
        sideboard=sideboard,
    )
    monkeypatch.setitem(tournament_rules._RULES, "dataclysm", with_sideboard)
    ruling = decks.check_sideboard_swap(decklist, "", new_match=True)
    assert ruling["explanation"] == "Fake 902."
    assert asked[0]["new_match"] is True
    assert asked[0]["registered"] == {"main": [], "sideboard": []}
