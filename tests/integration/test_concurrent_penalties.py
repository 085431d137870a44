"""Two judges penalising the same match at the same moment, on PostgreSQL.

Each judge's request runs in its own thread with its own database connection; a
barrier releases them together. The match row lock must serialise them: both
penalties are kept and the escalation is applied exactly once.
"""

import threading

import pytest
from django.db import connection, connections

from judging.models import Penalty
from judging.penalties import issue_penalty
from tests.conftest import make_event, make_user
from tournaments.models import EventLog, Match, ResultChange
from tournaments.rounds import services as rounds

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (scripts/test's second pass)"
    ),
]


def at_once(*calls) -> list[BaseException]:
    """Run each call in its own thread, released together; return what they raised."""
    barrier = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            call()
        except BaseException as exc:  # collected for the assertion, not swallowed
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors


@pytest.fixture
def table():
    organiser = make_user("olive")
    event = make_event(organiser, 4)
    return rounds.pair_next_round(event, organiser).matches.order_by("table").first()


def test_two_judges_at_once_never_lose_a_penalty_nor_double_a_game_loss(table):
    judges = [make_user("judge1"), make_user("judge2")]
    player = table.player_a
    for _ in range(2):
        issue_penalty(player, "slow_play", judges[0], game=1, match=table)
    errors = at_once(
        *[(lambda j=j: issue_penalty(player, "slow_play", j, game=1, match=table)) for j in judges]
    )
    assert errors == []
    assert Penalty.objects.filter(match=table).count() == 4
    table.refresh_from_db()
    assert len(table.forced_games) == 1  # the third warning's game loss, once
    caused = [c for p in Penalty.objects.filter(match=table) for c in p.consequences]
    assert [c["result"] for c in caused] == ["game_loss"]
    assert EventLog.objects.filter(action="game_loss").count() == 1  # and logged once


def test_simultaneous_fifth_warnings_make_one_match_loss(table):
    judges = [make_user("judge1"), make_user("judge2")]
    player = table.player_b
    for game in (1, 1, 2, 2):
        issue_penalty(player, "slow_play", judges[0], game=game, match=table)
    errors = at_once(
        *[(lambda j=j: issue_penalty(player, "slow_play", j, game=3, match=table)) for j in judges]
    )
    assert errors == []
    caused = [c["result"] for p in Penalty.objects.filter(match=table) for c in p.consequences]
    assert caused.count("match_loss") == 1
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL
    assert [c.action for c in ResultChange.objects.filter(match=table)] == ["match_loss"]
