"""Eight judges settling one dispute at once: one decides, the others are told what.

And a request retried while its first copy is still being answered (the same
``Idempotency-Key``, sent four times at once) writes once, every copy getting the first
answer. On PostgreSQL, each request runs in its own thread with its own connection,
through the whole stack (the test client, the API view, the services).
"""

import threading

import pytest
from django.db import connection
from django.test import Client

from accounts import tokens
from tests.conftest import make_event, make_user
from tests.integration.test_concurrent_penalties import at_once
from tournaments.models import AnsweredRequest, EventRole, Match, MatchClaim, ResultChange
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (scripts/test's second pass)"
    ),
]


@pytest.fixture
def table() -> Match:
    organiser = make_user("olive")
    event = make_event(organiser, 4)
    round_ = rounds.pair_next_round(event, organiser)
    rounds.start_round(round_, organiser)
    return round_.matches.select_related("player_a__user", "player_b__user").get(table=1)


_api_keys: dict[int, str] = {}
_api_keys_lock = threading.Lock()


@pytest.fixture(autouse=True)
def _fresh_api_keys():
    _api_keys.clear()


def api_key(user) -> str:
    """One key per user for the whole test: a key is shown once, so it is kept here, and
    requests sent at once by one user must not rotate each other's key away."""
    with _api_keys_lock:
        if user.pk not in _api_keys:
            _api_keys[user.pk] = tokens.issue_token(user, rotate=True).key
        return _api_keys[user.pk]


def post(user, path: str, body: dict, key: str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Token {api_key(user)}"}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return Client().post(path, body, content_type="application/json", **headers)


def test_eight_judges_settling_one_dispute_one_wins_the_others_see_the_decision(table):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, results.Score(2, 1), a.user)
    results.dispute_result(table, b, b.user, "I won game 3", results.Score(2, 1))
    version = results.result_version(table)
    judges = [make_user(f"judge{n}") for n in range(8)]
    for judge in judges:
        EventRole.objects.create(event=table.round.event, user=judge, role=EventRole.Role.JUDGE)
    path = f"/api/v1/matches/{table.pk}/result/"
    answers: dict[str, object] = {}

    def settle(judge, n: int):
        score = "2-1" if n % 2 else "1-2"
        body = {"score": score, "reason": f"decided by {judge.username}", "version": version}
        return lambda: answers.__setitem__(judge.username, post(judge, path, body))

    errors = at_once(*[settle(judge, n) for n, judge in enumerate(judges)])
    assert errors == []
    codes = sorted(r.status_code for r in answers.values())
    assert codes == [200] + [409] * 7
    winner = next(name for name, r in answers.items() if r.status_code == 200)
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL
    settles = ResultChange.objects.filter(match=table, action="settle")
    assert settles.count() == 1 and settles.get().changed_by.username == winner
    for name, response in answers.items():
        if name == winner:
            continue
        body = response.json()
        assert body["errors"][0]["field"] == "version"
        assert f"settled by {winner}" in body["errors"][0]["message"]
        assert f"decided by {winner}" in body["errors"][0]["message"]
        assert body["match"]["score"] == answers[winner].json()["score"]


def test_one_report_sent_four_times_at_once_with_one_key_is_written_once(table):
    a = table.player_a
    path = f"/api/v1/matches/{table.pk}/report/"
    answers = []

    def report():
        answers.append(post(a.user, path, {"score": "2-1"}, key="retry-after-a-dead-worker"))

    errors = at_once(report, report, report, report)
    assert errors == []
    assert [r.status_code for r in answers] == [200] * 4
    assert all(r.json() == answers[0].json() for r in answers)
    assert sum(r.has_header("Idempotent-Replayed") for r in answers) == 3
    assert ResultChange.objects.filter(match=table).count() == 1
    assert MatchClaim.objects.filter(match=table).count() == 1
    assert AnsweredRequest.objects.count() == 1
