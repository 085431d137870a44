"""Public standings are computed once per state of the event's results, not per request.

The page (``/events/<id>/standings/``) and the API (``/api/v1/events/<id>/standings/``)
share one cached computation keyed on the event's results version. Whatever changes a
result, a drop, a late entry, a bye or a penalty's outcome (and its undo) moves the
version, so the next request shows the new standings; nothing else recomputes them.
"""

from __future__ import annotations

import pytest
from django.test import Client

from judging.penalties import issue_penalty, void_penalty
from tests.conftest import make_user, play_out
from tournaments.event import services
from tournaments.models import Event, Match
from tournaments.pages.standings_table import render_standings_table
from tournaments.record import history
from tournaments.record.history import EventHistory
from tournaments.record.match_games import GameWinner, Score
from tournaments.results import services as results
from tournaments.results.penalties import JudgeSays
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def computations(monkeypatch) -> list[int]:
    """One entry per standings computation (``pairing.standings.compute_standings``)."""
    calls: list[int] = []
    real = history.compute_standings

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(history, "compute_standings", counting)
    return calls


@pytest.fixture
def world(make_world):
    """Seven players (a bye), round 1 played and closed, round 2 paired and started."""
    return make_world(7, rounds_played=1, started=True)


def api_rows(event: Event) -> list[dict]:
    response = Client().get(f"/api/v1/events/{event.pk}/standings/")
    assert response.status_code == 200, response.content
    return response.json()


def fresh_rows(event: Event) -> list[dict]:
    """The standings computed now from the rows, past any cache."""
    return EventHistory.read(Event.objects.get(pk=event.pk)).public_rows()


def pending(event: Event) -> Match:
    return (
        Match.objects.filter(round__event=event, is_bye=False, status=Match.Status.PENDING)
        .order_by("round__number", "table")
        .first()
    )


def test_two_anonymous_requests_compute_the_standings_once(world, computations):
    event = world.event
    first = api_rows(event)
    assert Client().get(f"/events/{event.pk}/standings/").status_code == 200
    second = api_rows(event)
    assert first == second == fresh_rows(event)
    assert len(computations) == 2  # the requests: one; fresh_rows: one


def test_the_page_and_the_api_share_one_computation(world, computations):
    event = world.event
    Client().get(f"/events/{event.pk}/standings/")
    Client().get(f"/events/{event.pk}/standings/")
    api_rows(event)
    assert len(computations) == 1


def test_a_confirmed_result_recomputes_them_once(world, computations):
    event = world.event
    api_rows(event)
    match = pending(event)
    a, b = match.player_a, match.player_b
    results.report_result(match, a, Score(2, 0), a.user)
    reported = api_rows(event)
    results.confirm_result(match, b, b.user)
    confirmed = api_rows(event)
    api_rows(event)
    assert confirmed == fresh_rows(event)
    assert confirmed != reported  # the confirmation counts the win
    assert len(computations) == 3 + 1  # first, after the report, after the confirmation


def _enter(world):
    results.enter_result(pending(world.event), Score(2, 1), world.organiser)


def _correct(world):
    results.enter_result(_played(world), Score(0, 2), world.organiser, reason="slip misread")


def _drop(world):
    player = world.event.registrations.order_by("pk").last()
    services.drop_player(world.event, player, world.organiser, "went home")


def _late_entry(world):
    services.add_late_entry(world.event, world.organiser, name="Latecomer")


def _played(world) -> Match:
    return Match.objects.filter(round__event=world.event, round__number=1, is_bye=False).first()


def _game_loss(world):
    match = _played(world)
    # the judge's answers (issue 30): not in the result yet; the penalised player won game 1
    won_game_1 = GameWinner(known=True, winner=match.player_a_id)
    not_in_the_result = JudgeSays(in_result=False, winner=won_game_1)
    issue_penalty(
        match.player_a, "illegal_deck", world.judge, game=1, match=match, says=not_in_the_result
    )


def _match_loss(world):
    match = pending(world.event)
    issue_penalty(match.player_a, "unsporting_conduct_warning", world.judge, match=match)


def _match_loss_voided(world):
    match = pending(world.event)
    penalty = issue_penalty(match.player_a, "unsporting_conduct_warning", world.judge, match=match)
    assert api_rows(world.event) == fresh_rows(world.event)  # the match loss, cached
    void_penalty(penalty, world.judge, "wrong player")


def _disqualified_then_reinstated(world):
    match = pending(world.event)
    penalty = issue_penalty(match.player_a, "cheating", world.judge, match=match)
    assert api_rows(world.event) == fresh_rows(world.event)  # disqualified, cached
    void_penalty(penalty, world.judge, "it was the other player")


def _disqualified_between_matches(world):
    """No match changes: only the player's row (disqualified, dropped) does."""
    player = world.event.registrations.order_by("pk").first()
    issue_penalty(player, "cheating", world.judge)


def _reinstated_between_matches(world):
    player = world.event.registrations.order_by("pk").first()
    penalty = issue_penalty(player, "cheating", world.judge)
    assert api_rows(world.event) == fresh_rows(world.event)  # disqualified, cached
    void_penalty(penalty, world.judge, "mistaken identity")


def _next_round(world):
    """Pairing round 3 gives a bye: a win no result service writes."""
    play_out(world.round, world.organiser)
    rounds.close_round(world.round, world.organiser)
    assert api_rows(world.event) == fresh_rows(world.event)  # round 2's standings, cached
    rounds.pair_next_round(world.event, world.organiser)


def fresh_table(event: Event) -> str:
    """The page's table rendered now from the rows, past any cache."""
    rows = EventHistory.read(Event.objects.get(pk=event.pk)).standings_rows()
    return render_standings_table(rows)


def page(event: Event) -> str:
    response = Client().get(f"/events/{event.pk}/standings/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    "change",
    [
        _enter,
        _correct,
        _drop,
        _late_entry,
        _game_loss,
        _match_loss,
        _match_loss_voided,
        _disqualified_then_reinstated,
        _disqualified_between_matches,
        _reinstated_between_matches,
        _next_round,
    ],
)
def test_every_change_that_moves_the_standings_shows_at_once(world, change):
    event = world.event
    before = api_rows(event)
    before_page = page(event)
    change(world)
    after = api_rows(event)
    assert after == fresh_rows(event)
    assert fresh_table(event) in page(event)
    if change not in (
        _match_loss_voided,
        _disqualified_then_reinstated,
        _reinstated_between_matches,
    ):
        assert fresh_table(event) not in before_page
    if change not in (
        _match_loss_voided,
        _disqualified_then_reinstated,
        _reinstated_between_matches,
    ):
        assert after != before, "the change should have moved the standings"


def test_a_draft_is_not_served_from_the_cache_to_anyone_else(make_world, organiser):
    """The cache holds numbers, not permissions: every request checks the event first."""
    world = make_world(4, rounds_played=1)
    event = world.event
    assert len(api_rows(event)) == 4  # cached while public
    services.update_event(event, organiser, status=Event.Status.DRAFT)
    assert Client().get(f"/api/v1/events/{event.pk}/standings/").status_code in (403, 404)
    assert Client().get(f"/events/{event.pk}/standings/").status_code == 404
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.get(f"/events/{event.pk}/standings/").status_code == 404
    owner = Client()
    owner.force_login(organiser)
    assert owner.get(f"/events/{event.pk}/standings/").status_code == 200


def test_an_event_saved_whole_keeps_its_results_version(world):
    """A full save (the admin's) cannot put back an older version, and with it old standings."""
    event = Event.objects.get(pk=world.event.pk)  # loaded before the result
    api_rows(event)
    results.enter_result(pending(event), Score(2, 0), world.organiser)
    event.venue = "Hall B"
    event.save()  # a stale copy, saved whole
    assert api_rows(event) == fresh_rows(event)
