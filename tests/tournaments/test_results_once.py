"""Result writes happen once, and never over a decision the writer has not seen.

A client retrying after a web worker was killed mid-answer wrote a second identical
report; two judges settling one dispute both got 200 and the last silently won. Now an
``Idempotency-Key`` makes a retry get the first answer and write nothing, and a staff
entry names the version of the result it was made on: a stale one is refused with
what changed.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import tokens
from judging.models import Penalty
from tests.conftest import database_rows
from tournaments import once
from tournaments.models import AnsweredRequest, Match, ResultChange
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_world):
    return make_world(8)


@pytest.fixture
def table(world) -> Match:
    return world.table(1)


def post(client, user, path: str, data: dict, key: str | None = None):
    key_made = tokens.issue_token(user, rotate=True).key  # a key is shown once: a fresh one
    headers = {"HTTP_AUTHORIZATION": f"Token {key_made}"}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(path, data, content_type="application/json", **headers)


def act(table: Match, action: str) -> str:
    return f"/api/v1/matches/{table.pk}/{action}/"


def disputed(table: Match) -> Match:
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 1), a.user)
    return results.dispute_result(table, b, b.user, "I won game 3", Score(2, 1))


def test_a_retried_report_with_the_same_key_writes_once_and_answers_the_same(client, table):
    a = table.player_a.user
    first = post(client, a, act(table, "report"), {"score": "2-1"}, key="rep-7f3a")
    retry = post(client, a, act(table, "report"), {"score": "2-1"}, key="rep-7f3a")
    assert first.status_code == retry.status_code == 200
    assert retry.json() == first.json()
    assert retry[once.REPLAY_HEADER] == "true"
    assert ResultChange.objects.filter(match=table, action="report").count() == 1
    assert table.claims.count() == 1


def test_the_same_key_with_another_request_is_refused_and_writes_nothing(client, table):
    a = table.player_a.user
    post(client, a, act(table, "report"), {"score": "2-1"}, key="k1")
    before = database_rows()
    other = post(client, a, act(table, "report"), {"score": "2-0"}, key="k1")
    assert other.status_code == 422
    assert other.json()["errors"][0]["message"].startswith("This key already answered")
    assert database_rows() == before


def test_a_refusal_is_not_kept_so_the_key_may_be_sent_again(client, table):
    a = table.player_a.user
    refused = post(client, a, act(table, "report"), {"score": "7-1"}, key="k2")
    assert refused.status_code == 400
    assert not AnsweredRequest.objects.exists()
    assert post(client, a, act(table, "report"), {"score": "2-1"}, key="k2").status_code == 200


def test_keys_are_each_callers_own(client, table):
    a, b = table.player_a.user, table.player_b.user
    post(client, a, act(table, "report"), {"score": "2-1"}, key="same")
    confirmed = post(client, b, act(table, "confirm"), {}, key="same")
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed"
    assert once.REPLAY_HEADER not in confirmed


def test_a_key_older_than_a_day_is_forgotten(client, table, monkeypatch):
    a = table.player_a.user
    post(client, a, act(table, "report"), {"score": "2-1"}, key="old")
    AnsweredRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    monkeypatch.setattr(once, "_next_sweep", 0.0)  # the minute's sweep is due
    again = post(client, a, act(table, "report"), {"score": "2-1"}, key="other")
    assert again.status_code == 200
    assert list(AnsweredRequest.objects.values_list("key", flat=True)) == ["other"]


def test_a_day_old_key_not_yet_swept_is_not_replayed_but_answered_afresh(
    client, table, monkeypatch
):
    """Sweeps come once a minute, not with every write: meanwhile a key past its day is
    free, so the same key for another request is done, not refused as reused."""
    a = table.player_a.user
    day_old = timezone.now() - timedelta(hours=25)
    AnsweredRequest.objects.create(
        user=a, key="k", fingerprint="another request", status=200, created_at=day_old
    )
    monkeypatch.setattr(once, "_next_sweep", float("inf"))  # no sweep in this test
    reported = post(client, a, act(table, "report"), {"score": "2-1"}, key="k")
    assert reported.status_code == 200, reported.json()
    assert once.REPLAY_HEADER not in reported
    assert ResultChange.objects.filter(match=table).count() == 1
    kept = AnsweredRequest.objects.get(user=a, key="k")
    assert kept.created_at > timezone.now() - timedelta(minutes=1)
    assert kept.status == 200


@pytest.mark.parametrize("key", ["", "x" * 201, "naïve", "tab\there"])
def test_a_key_that_is_no_key_is_refused_naming_the_header(client, table, key):
    response = post(client, table.player_a.user, act(table, "report"), {"score": "2-1"}, key=key)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "Idempotency-Key"
    assert not ResultChange.objects.exists()


def test_a_retried_penalty_is_issued_once(client, world, table):
    path = f"/api/v1/events/{world.event.pk}/penalties/"
    body = {"player": table.player_a.pk, "infraction": "slow_play", "match": table.pk}
    first = post(client, world.judge, path, body, key="pen-1")
    retry = post(client, world.judge, path, body, key="pen-1")
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert Penalty.objects.count() == 1


def test_the_match_says_its_version_and_a_settle_names_it(client, world, table):
    disputed(table)
    seen = client.get(f"/api/v1/events/{world.event.pk}/rounds/1/")
    version = next(m for m in seen.json()["matches"] if m["id"] == table.pk)["version"]
    assert version == ResultChange.objects.filter(match=table).latest("pk").pk
    body = {"score": "2-1", "reason": "seen the games", "version": version}
    settled = post(client, world.judge, act(table, "result"), body)
    assert settled.status_code == 200, settled.content
    assert settled.json()["version"] > version


def test_a_second_judge_settling_the_same_dispute_is_refused_with_the_first_decision(
    client, world, table
):
    disputed(table)
    version = results.result_version(table)
    first = {"score": "2-1", "reason": "Ada won game 3", "version": version}
    assert post(client, world.judge, act(table, "result"), first).status_code == 200
    before = database_rows()
    second = {"score": "1-2", "reason": "Bea won game 3", "version": version}
    late = post(client, world.organiser, act(table, "result"), second)
    assert late.status_code == 409
    error = late.json()["errors"][0]
    assert error["field"] == "version"
    assert "settled by jude" in error["message"]
    assert "Ada won game 3" in error["message"]
    assert (
        f"It is now {table.player_a.display_name} 2-1 {table.player_b.display_name}"
        in error["message"]
    )
    assert late.json()["match"]["score"] == "2-1"
    assert late.json()["match"]["status"] == "final"
    assert database_rows() == before


def test_a_settle_without_a_version_is_a_clear_400_once_the_result_has_changed(
    client, world, table
):
    disputed(table)
    before = database_rows()
    body = {"score": "2-1", "reason": "no version"}
    response = post(client, world.judge, act(table, "result"), body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "version"
    assert database_rows() == before


def test_a_first_entry_needs_no_version(client, world, table):
    response = post(client, world.judge, act(table, "result"), {"score": "2-0"})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "final"


def test_a_version_that_is_not_a_number_names_the_field(client, world, table):
    body = {"score": "2-0", "version": "latest"}
    response = post(client, world.judge, act(table, "result"), body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "version"


def test_a_penalty_since_the_version_was_read_makes_an_entry_stale(world, table):
    from tournaments.results.penalties import Cause, force_match_loss

    seen = results.result_version(table)
    force_match_loss(table, table.player_a, world.judge, Cause(1, "Drew extra cards", "906"))
    before = database_rows()
    with pytest.raises(results.StaleResult) as refused:
        results.enter_result(table, Score(2, 0), world.organiser, "typo", seen_version=seen)
    assert "Match Loss given by jude" in refused.value.message
    assert "(Drew extra cards)" in refused.value.message
    assert database_rows() == before


def test_a_retried_void_gets_the_first_answer_not_already_void(client, world, table):
    path = f"/api/v1/events/{world.event.pk}/penalties/"
    body = {"player": table.player_a.pk, "infraction": "slow_play", "match": table.pk}
    penalty = post(client, world.judge, path, body).json()["id"]
    void = f"/api/v1/penalties/{penalty}/void/"
    first = post(client, world.judge, void, {"reason": "wrong player"}, key="void-1")
    retry = post(client, world.judge, void, {"reason": "wrong player"}, key="void-1")
    assert first.status_code == retry.status_code == 200
    assert retry.json() == first.json()
