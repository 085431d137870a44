"""The domain signals (tournaments.signals): each change announced once, after it commits,
by the service that makes it; live notices, Web Push and backups hear them as listeners,
and a listener that is gone or fails never undoes or blocks the change."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import transaction

from judging.penalties import issue_penalty, void_penalty
from live import listeners as live_listeners
from live import notify
from tournaments import signals
from tournaments.clock.extensions import grant_extension
from tournaments.event import services
from tournaments.models import Event, Match, ResultChange, Round
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db(transaction=True)

ALL = (
    signals.round_paired,
    signals.round_status_changed,
    signals.result_changed,
    signals.extension_changed,
    signals.penalty_changed,
    signals.entry_changed,
    signals.call_changed,
    signals.event_status_changed,
)


@contextmanager
def heard() -> Iterator[list[tuple[str, dict]]]:
    """Every domain signal sent inside the block: (its name, its keyword arguments)."""
    names = {id(s): name for name, s in vars(signals).items() if s in ALL}
    got: list[tuple[str, dict]] = []

    def listener(sender, signal, **kwargs):
        got.append((names[id(signal)], kwargs))

    for signal in ALL:
        signal.connect(listener, weak=False, dispatch_uid="test.heard")
    try:
        yield got
    finally:
        for signal in ALL:
            signal.disconnect(dispatch_uid="test.heard")


def kinds(got) -> list[str]:
    return [name for name, _ in got]


def test_pairing_round_one_announces_pairings_the_event_running_and_the_round(make_world):
    world = make_world(5, paired=False)
    with heard() as got:
        round_ = rounds.pair_next_round(world.event, world.organiser)
    assert kinds(got) == ["round_paired", "event_status_changed", "round_status_changed"]
    paired = got[0][1]
    assert paired["how"] == signals.PAIRED and paired["round_id"] == round_.pk
    assert sorted(paired["match_ids"]) == sorted(round_.matches.values_list("pk", flat=True))
    assert got[1][1]["status"] == Event.Status.RUNNING
    assert got[2][1]["status"] == Round.Status.PAIRED


def test_repair_swap_start_and_close_each_announce_once(make_world):
    world = make_world(8)
    one, two = world.table(1), world.table(2)
    with heard() as got:
        rounds.repair_round(world.round, world.organiser, "wrong seats")
    assert [(n, k["how"]) for n, k in got] == [("round_paired", signals.REPAIRED)]
    one, two = world.table(1), world.table(2)
    with heard() as got:
        rounds.swap_players(world.round, one.player_a, two.player_a, world.organiser, "swap")
    assert [(n, k["how"]) for n, k in got] == [("round_paired", signals.SWAPPED)]
    assert sorted(got[0][1]["match_ids"]) == sorted([one.pk, two.pk])
    with heard() as got:
        started = rounds.start_round(world.round, world.organiser)
    assert [(n, k["status"]) for n, k in got] == [("round_status_changed", Round.Status.RUNNING)]
    for match in started.matches.filter(is_bye=False):
        results.enter_result(match, Score.parse("2-0"), world.organiser)
    with heard() as got:
        rounds.close_round(started, world.organiser)
    assert [(n, k["status"]) for n, k in got] == [("round_status_changed", Round.Status.CLOSED)]


def test_a_result_is_announced_with_the_change_that_logs_it(make_world):
    world = make_world(4)
    match = world.table(1)
    with heard() as got:
        results.enter_result(match, Score.parse("2-1"), world.organiser)
    [(name, keys)] = got
    change = ResultChange.objects.get(match=match)
    assert name == "result_changed"
    assert keys == {
        "event_id": world.event.pk,
        "match_id": match.pk,
        "change_id": change.pk,
        "status_before": Match.Status.PENDING,
    }


def test_penalties_extensions_and_entries_are_announced(make_world):
    world = make_world(4)
    match = world.table(1)
    with heard() as got:
        penalty = issue_penalty(match.player_a, "slow_play", world.judge, match=match)
    assert ("penalty_changed", {"event_id": world.event.pk, "penalty_id": penalty.pk,
                                "voided": False}) in got  # fmt: skip
    with heard() as got:
        void_penalty(penalty, world.judge, "misread the clock")
    assert ("penalty_changed", {"event_id": world.event.pk, "penalty_id": penalty.pk,
                                "voided": True}) in got  # fmt: skip
    with heard() as got:
        grant_extension(match, 3, "deck check", world.judge)
    assert [(n, k["minutes"]) for n, k in got] == [("extension_changed", 3)]
    with heard() as got:
        late = services.add_late_entry(world.event, world.organiser, name="Late Comer")
        services.drop_player(world.event, late, world.organiser)
    entries = [(k["registration_id"], k["what"]) for n, k in got if n == "entry_changed"]
    assert entries == [(late.pk, signals.ENTERED), (late.pk, signals.DROPPED)]


def test_checking_in_announces_each_player_who_arrived(make_world):
    world = make_world(4, paired=False, checked_in=False)
    first, second = world.registrations[:2]
    with heard() as got:
        services.check_in(world.event, [first.pk, second.pk], world.organiser)
        services.check_in(world.event, [first.pk], world.organiser)  # already in: nothing
    assert [(k["registration_id"], k["what"]) for _, k in got] == [
        (first.pk, signals.CHECKED_IN),
        (second.pk, signals.CHECKED_IN),
    ]


def test_a_rolled_back_change_announces_nothing(make_world):
    world = make_world(4, paired=False)
    with heard() as got, pytest.raises(RuntimeError), transaction.atomic():
        rounds.pair_next_round(world.event, world.organiser)
        raise RuntimeError("the request failed after the service")
    assert got == []


def test_without_live_listening_the_change_still_commits_and_push_still_hears(
    make_world, monkeypatch
):
    """Remove live's listener: pairing commits, no notice leaves, Web Push is still told."""
    from push import listeners as push_listeners

    sent, pushed = [], []
    monkeypatch.setattr(notify, "deliver", lambda batch: sent.extend(batch))
    monkeypatch.setattr(push_listeners, "push_pairings", lambda r: pushed.append(r.pk))
    world = make_world(4, paired=False)
    assert signals.round_paired.disconnect(dispatch_uid="live.listeners.pairings_changed")
    try:
        round_ = rounds.pair_next_round(world.event, world.organiser)
    finally:
        live_listeners.connect()
    assert Round.objects.filter(pk=round_.pk, status=Round.Status.PAIRED).exists()
    assert pushed == [round_.pk]
    assert "pairings" not in [body["type"] for _, body in sent]
    assert "round" in [body["type"] for _, body in sent]  # the other listeners still hear


def test_a_failing_listener_is_logged_and_the_others_still_hear(make_world, caplog):
    world = make_world(4)
    match = world.table(1)
    later = []

    def broken(sender, **kwargs):
        raise RuntimeError("webhook endpoint down")

    def after(sender, **kwargs):
        later.append(kwargs["match_id"])

    signals.result_changed.connect(broken, weak=False, dispatch_uid="test.broken")
    signals.result_changed.connect(after, weak=False, dispatch_uid="test.after")
    try:
        with caplog.at_level(logging.ERROR, logger="tournaments.signals"):
            results.enter_result(match, Score.parse("2-0"), world.organiser)
    finally:
        signals.result_changed.disconnect(dispatch_uid="test.broken")
        signals.result_changed.disconnect(dispatch_uid="test.after")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINAL
    assert later == [match.pk]
    assert "webhook endpoint down" in caplog.text


def test_each_side_effect_app_connects_its_own_listener():
    """Live, Web Push and backups listen from their own ``ready()``: tournaments wires none."""
    connected = {
        entry[0][0]  # each receiver's lookup key starts with its dispatch_uid
        for signal in (signals.round_paired, signals.round_status_changed)
        for entry in signal.receivers
    }
    assert {
        "live.listeners.pairings_changed",
        "push.listeners.round_paired",
        "live.listeners.round_status_changed",
        "backups.listeners.round_closed",
    } <= connected


def test_a_disqualification_drops_the_player_and_voiding_it_enters_them_again(make_world):
    world = make_world(4)
    match = world.table(1)
    player = match.player_a
    with heard() as got:
        penalty = issue_penalty(player, "cheating", world.judge, match=match)
    assert [(k["registration_id"], k["what"]) for n, k in got if n == "entry_changed"] == [
        (player.pk, signals.DROPPED)
    ]
    with heard() as got:
        void_penalty(penalty, world.judge, "the wrong player")
    assert [(k["registration_id"], k["what"]) for n, k in got if n == "entry_changed"] == [
        (player.pk, signals.ENTERED)
    ]
