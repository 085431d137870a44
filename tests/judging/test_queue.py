"""The judge console's queue: what waits, since when, in which order."""

import datetime

import pytest

from judging import queue
from judging.models import JudgeCall
from tests.judging.floor import ago, busy_floor
from tournaments.models import Match, MatchClaim, Round
from tournaments.record.rounds import latest_round

NOW = datetime.datetime(2026, 12, 1, 15, 0, tzinfo=datetime.UTC)


def item(kind, table, minutes_ago, now=NOW):
    since = None if minutes_ago is None else ago(now, minutes_ago)
    return queue.make_item(kind, table=table, match_id=table, since=since, words="", now=now)


# --- the pure part ------------------------------------------------------------------------


def test_minutes_since_counts_whole_minutes_and_never_goes_negative():
    assert queue.minutes_since(ago(NOW, 12.9), NOW) == 12
    assert queue.minutes_since(ago(NOW, 0.5), NOW) == 0
    assert queue.minutes_since(ago(NOW, -3), NOW) == 0  # a clock a little ahead
    assert queue.minutes_since(None, NOW) is None


def test_an_item_says_its_minutes_as_the_console_shows_them():
    assert item("call", 3, 12).waited == "12 min"
    assert item("call", 3, 0.2).waited == "<1 min"
    assert item("dispute", 3, None).waited == "since an unknown time"
    assert item("time", 3, 1).label == "Time is up, still playing"


def test_waiting_items_are_listed_longest_wait_first():
    items = [
        item("extension", 5, 2),
        item("call", 2, 9),
        item("time", 4, 30),
        item("dispute", 1, 9),  # same moment as the call: a dispute first
        item("dispute", 6, None),  # unknown start: last
    ]
    ordered = [(i.kind, i.table) for i in queue.waiting_first(items)]
    assert ordered == [("time", 4), ("dispute", 1), ("call", 2), ("extension", 5), ("dispute", 6)]


def test_penalties_are_listed_newest_first():
    items = [item("penalty", 1, 10), item("penalty", 2, 1), item("penalty", 3, 5)]
    assert [i.table for i in queue.newest_first(items)] == [2, 3, 1]


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="Unknown queue item kind"):
        item("coffee", 1, 1)


# --- read from the event ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_queue_lists_each_kind_since_it_began(make_world):
    floor = busy_floor(make_world)
    built = queue.build_queue(floor.event, floor.now)
    waiting = [(i.kind, i.table, i.minutes) for i in built.waiting]
    assert waiting == [
        ("extension", 3, 20),  # granted 20 min ago, 5 min of it left
        ("dispute", 1, 15),
        ("call", 2, 7),
        ("time", 2, 5),  # round time up 5 min ago, no report at table 2 or 4
        ("time", 4, 5),
    ]
    assert [(i.kind, i.table, i.minutes) for i in built.penalties] == [
        ("penalty", 4, 1),
        ("penalty", 2, 3),
    ]
    by_kind = {i.kind: i for i in built.waiting}
    assert by_kind["call"].call_id == floor.call.pk
    assert by_kind["call"].match_id == floor.tables[2].pk
    # The removed extension is left out; the clock has 5 minutes of the 10 left.
    assert by_kind["extension"].words == "+10 min: Deck check · 5 min left"
    assert "the players disagree" in by_kind["dispute"].words
    assert "Slow Play Warning" in built.penalties[0].words


@pytest.mark.django_db
def test_a_dispute_counts_from_the_latest_dispute_claim(make_world):
    floor = busy_floor(make_world)
    disputed = floor.tables[1]
    MatchClaim.objects.filter(match=disputed).delete()
    MatchClaim.objects.create(
        match=disputed, player=disputed.player_b, kind="dispute", at=ago(floor.now, 40)
    )
    MatchClaim.objects.create(
        match=disputed, player=disputed.player_b, kind="dispute", at=ago(floor.now, 11)
    )
    dispute = next(i for i in queue.build_queue(floor.event, floor.now).waiting if i.table == 1)
    assert dispute.minutes == 11  # not the logged change 15 min ago, nor the first claim


@pytest.mark.django_db
def test_a_table_whose_extended_time_is_up_is_time_called_not_an_extension(make_world):
    floor = busy_floor(make_world)
    extended = floor.tables[3]
    Round.objects.filter(pk=extended.round_id).update(
        started_at=ago(floor.now, floor.event.round_minutes + 12)
    )
    kinds = {(i.kind, i.table): i for i in queue.build_queue(floor.event, floor.now).waiting}
    assert ("extension", 3) not in kinds
    assert kinds[("time", 3)].minutes == 2  # round + 10 min extension ended 2 min ago
    assert "after a 10 min extension" in kinds[("time", 3)].words


@pytest.mark.django_db
def test_finished_tables_and_answered_calls_leave_the_queue(make_world):
    floor = busy_floor(make_world)
    Match.objects.filter(pk__in=[m.pk for m in floor.tables.values()]).update(
        status=Match.Status.CONFIRMED
    )
    JudgeCall.objects.update(resolved_at=floor.now)
    built = queue.build_queue(floor.event, floor.now)
    assert built.waiting == []
    assert len(built.penalties) == 2  # the record stays


@pytest.mark.django_db
def test_no_time_is_called_before_the_round_runs(make_world):
    world = make_world(4)  # paired, not started
    assert latest_round(world.event).status == Round.Status.PAIRED
    built = queue.build_queue(world.event, ago(NOW, -10_000))
    assert built.waiting == [] and built.penalties == []


@pytest.mark.django_db
def test_an_event_without_a_round_has_an_empty_queue(make_world):
    world = make_world(4, paired=False)
    built = queue.build_queue(world.event, NOW)
    assert built.waiting == [] and built.penalties == []


@pytest.mark.django_db
def test_the_queue_costs_the_same_queries_however_long_it_is(make_world):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from judging.penalties import issue_penalty
    from tournaments.models import TimeExtension

    floor = busy_floor(make_world)

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            queue.build_queue(floor.event, floor.now)
        return len(seen)

    before = queries()
    for match in floor.tables.values():
        JudgeCall.objects.create(event=floor.event, match=match, table=match.table, question="?")
        TimeExtension.objects.create(match=match, minutes=2)
        issue_penalty(match.player_b, "slow_play", None, game=1, match=match)
    assert queries() == before
