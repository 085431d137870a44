"""Results, extensions, judge calls, time up and the event's status, told live
(live-updates.md): each to its audience, once the change is committed."""

import datetime

import pytest
from django.utils import timezone

from judging import calls
from live import notify
from tests.conftest import play_out
from tournaments.clock import extensions as clock
from tournaments.clock import time_up
from tournaments.event import services
from tournaments.models import Event, Round
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds
from tournaments.tasks import announce_time_up

pytestmark = pytest.mark.django_db(transaction=True)


def _players(event_id, match) -> list[str]:
    return [notify.player_group(event_id, p) for p in (match.player_a_id, match.player_b_id)]


def test_a_report_a_dispute_and_a_settlement_each_tell_the_table_and_both_players(make_world, sent):
    world = make_world(4)
    match = world.table(1)
    a, b = match.player_a, match.player_b
    event_id = world.event.pk
    public, staff = notify.public_group(event_id), notify.staff_group(event_id)
    own = [(g, "my_match", {"round": 1, "table": 1}) for g in _players(event_id, match)]
    sent.clear()
    results.report_result(match, a, Score.parse("2-1"), a.user)
    reported = (public, "result", {"round": 1, "table": 1, "status": "reported"})
    assert sent.summary() == [reported, *own]
    sent.clear()
    results.dispute_result(match, b, b.user, "it was 1-2")
    queue = (staff, "queue", {"kind": "dispute", "round": 1, "table": 1})
    assert sent.summary() == [
        (public, "result", {"round": 1, "table": 1, "status": "disputed"}),
        *own,
        queue,
    ]
    sent.clear()
    results.enter_result(match, Score.parse("1-2"), world.judge, "settled at the table")
    assert sent.summary() == [
        (public, "result", {"round": 1, "table": 1, "status": "final"}),
        *own,
        queue,  # it left the judges' queue
    ]


def test_a_correction_in_a_closed_round_changes_the_standings(make_world, sent):
    world = make_world(4, rounds_played=1, paired=False)
    closed = Round.objects.get(event=world.event, number=1)
    match = closed.matches.get(table=1)
    sent.clear()
    results.enter_result(match, Score.parse("0-2"), world.organiser, "slip read wrong")
    public = notify.public_group(world.event.pk)
    assert sent.summary()[-1] == (public, "standings", {"round": 1})
    open_match = rounds.pair_next_round(world.event, world.organiser).matches.get(table=1)
    sent.clear()
    results.enter_result(open_match, Score.parse("2-0"), world.organiser)
    assert sent.of_type("standings") == []  # an open round's standings are not final yet


def test_an_extension_tells_the_tables_standing_total_and_zero_when_removed(make_world, sent):
    world = make_world(4, started=True)
    match = world.table(2)
    public = notify.public_group(world.event.pk)
    sent.clear()
    first = clock.grant_extension(match, 3, "deck check", world.judge)
    clock.grant_extension(match, 2, "ruling", world.judge)
    clock.remove_extension(first, world.judge, "granted twice")
    assert sent.summary() == [
        (public, "extension", {"round": 1, "table": 2, "minutes": minutes}) for minutes in (3, 5, 2)
    ]
    sent.clear()
    clock.remove_extension(match.extensions.get(removed_at__isnull=True), world.judge, "mistake")
    assert sent.summary() == [(public, "extension", {"round": 1, "table": 2, "minutes": 0})]


def test_a_judge_call_made_and_answered_is_told_to_staff_only(make_world, sent):
    world = make_world(4, started=True)
    staff = notify.staff_group(world.event.pk)
    sent.clear()
    call = calls.open_call(world.event, world.judge, question="Does it trigger?", table=1)
    assert sent.summary() == [(staff, "queue", {"kind": "call", "round": 1, "table": 1})]
    sent.clear()
    calls.resolve_call(call, world.judge, resolution="It does.", minutes=2, grant_extension=True)
    assert sent.summary() == [
        (notify.public_group(world.event.pk), "extension", {"round": 1, "table": 1, "minutes": 2}),
        (staff, "queue", {"kind": "call", "round": 1, "table": 1}),
    ]


def test_time_up_is_told_once_per_table_still_playing_and_again_after_an_extension(
    make_world, sent
):
    world = make_world(6, started=True)
    round_ = world.round
    results.enter_result(world.table(3), Score.parse("2-0"), world.organiser)
    clock.grant_extension(world.table(2), 5, "deck check", world.judge)
    staff = notify.staff_group(world.event.pk)
    sent.clear()
    assert time_up.tell_time_up(round_.ends_at - datetime.timedelta(seconds=1)) == 0
    assert time_up.tell_time_up(round_.ends_at) == 1  # table 2 has 5 more minutes, 3 is done
    assert sent.summary() == [(staff, "queue", {"kind": "time", "round": 1, "table": 1})]
    sent.clear()
    assert time_up.tell_time_up(round_.ends_at + datetime.timedelta(minutes=1)) == 0
    assert time_up.tell_time_up(round_.ends_at + datetime.timedelta(minutes=5)) == 1
    assert sent.summary() == [(staff, "queue", {"kind": "time", "round": 1, "table": 2})]
    clock.grant_extension(world.table(2), 1, "another ruling", world.judge)
    sent.clear()
    assert time_up.tell_time_up(round_.ends_at + datetime.timedelta(minutes=6)) == 1
    assert sent.summary() == [(staff, "queue", {"kind": "time", "round": 1, "table": 2})]


def test_the_beat_task_finds_tables_out_of_time_now(make_world, sent, settings, eager_tasks):
    world = make_world(4, started=True)
    Round.objects.filter(pk=world.round.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=world.event.round_minutes + 1)
    )
    sent.clear()
    assert announce_time_up.delay().get() == 2
    assert {n["table"] for _, n in sent.of_type("queue")} == {1, 2}
    assert settings.CELERY_BEAT_SCHEDULE["live-time-up"]["task"] == announce_time_up.name


def test_the_event_status_is_told_from_registration_to_finished(make_world, sent):
    world = make_world(4, paired=False, top_cut=2, swiss_rounds=1)
    Event.objects.filter(pk=world.event.pk).update(status=Event.Status.DRAFT)
    world.event.refresh_from_db()
    public = notify.public_group(world.event.pk)
    sent.clear()
    services.update_event(world.event, world.organiser, status=Event.Status.REGISTRATION)
    assert sent.summary() == [(public, "event", {"status": "registration"})]
    round_ = rounds.pair_next_round(world.event, world.organiser)
    assert (public, "event", {"status": "running"}) in sent.summary()
    play_out(round_, world.organiser)
    rounds.close_round(round_, world.organiser)
    sent.clear()
    final = rounds.start_top_cut(world.event, world.organiser)
    assert sent.summary()[0] == (public, "pairings", {"round": 2})  # the pairings first
    assert (public, "event", {"status": "top_cut"}) in sent.summary()
    play_out(final, world.organiser)
    rounds.close_round(final, world.organiser)
    sent.clear()
    assert rounds.advance_top_cut(world.event, world.organiser) is None
    assert sent.summary() == [(public, "event", {"status": "finished"})]


def test_nothing_is_said_of_a_draft(make_world, sent):
    world = make_world(4, paired=False)
    sent.clear()
    services.update_event(world.event, world.organiser, status=Event.Status.DRAFT)
    services.update_event(world.event, world.organiser, name="Loop Open II")
    assert sent.messages == []
