"""Dataclysm: Winning, Winning and losing at once, Conceding, Both players lose."""

import pytest

from rules_engine import PayloadError, adjudicate


def result(a, b):
    return adjudicate("dataclysm", "game-result", {"A": a, "B": b})


def p(wins=False, loses=False, **extra):
    return {"wins": wins, "loses": loses, **extra}


def test_both_players_lose_contract_example_is_a_draw():
    r = result(p(loses=True), p(loses=True))
    assert r["result"] == "draw"
    assert "Dataclysm: Both players lose" in r["citations"]


def test_winning_a_player_wins_when_the_opponent_loses():
    r = result(p(), p(loses=True))
    assert (r["result"], r["winner"], r["loser"]) == ("win", "A", "B")


def test_winning_an_effect_says_a_player_wins():
    assert result(p(), p(wins=True))["winner"] == "B"


def test_winning_and_losing_at_once_is_a_loss():
    r = result(p(wins=True, loses=True), p())
    assert (r["result"], r["winner"]) == ("win", "B")
    assert "Dataclysm: Winning and losing at once" in r["citations"]


def test_conceding_is_a_loss_even_for_a_winning_player():
    r = result(p(wins=True, concedes=True), p())
    assert r["winner"] == "B" and "A concedes" in r["explanation"]
    assert "Dataclysm: Conceding" in r["citations"]


def test_both_concede_is_a_draw():
    assert result(p(concedes=True), p(concedes=True))["result"] == "draw"


def test_both_win_with_no_loss_is_ruled_a_draw():
    r = result(p(wins=True), p(wins=True))
    assert r["result"] == "draw" and "does not cover" in r["explanation"]


def test_ongoing_when_nobody_has_won_or_lost():
    assert result(p(), p())["result"] == "ongoing"


def test_payload_error_names_missing_player_and_flags():
    with pytest.raises(PayloadError) as caught:
        adjudicate("dataclysm", "game-result", {"A": {"wins": "yes", "loses": False}})
    assert {e["field"] for e in caught.value.errors} == {"A.wins", "B"}
