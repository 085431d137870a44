"""The round lifecycle's notices (live-updates.md): pairings, round, my_match, event."""

import pytest
from django.db import transaction

from live import notify
from tournaments.models import Event
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db(transaction=True)


def _seats(round_) -> dict[int, int | None]:
    """Registration pk -> table, every seated player (a bye's table is None)."""
    seats = {}
    for match in round_.matches.all():
        for player in (match.player_a_id, match.player_b_id):
            if player is not None:
                seats[player] = match.table
    return seats


def test_pairing_a_round_tells_the_public_and_each_player_their_own_table(make_world, sent):
    world = make_world(5, paired=False)
    round_ = rounds.pair_next_round(world.event, world.organiser)
    event_id = world.event.pk
    public = notify.public_group(event_id)
    assert (public, "event", {"status": "running"}) in sent.summary()
    assert (public, "round", {"round": 1, "status": "paired", "ends_at": None}) in sent.summary()
    assert (public, "pairings", {"round": 1}) in sent.summary()
    own = {g: keys for g, kind, keys in sent.summary() if kind == "my_match"}
    assert own == {
        notify.player_group(event_id, player): {"round": 1, "table": table}
        for player, table in _seats(round_).items()
    }
    assert len(own) == 5  # the bye's player is told too
    assert all(n["event"] == event_id and n["at"] for _, n in sent.messages)


def test_starting_and_closing_say_the_status_and_when_time_is_up(make_world, sent):
    world = make_world(4)
    sent.clear()
    started = rounds.start_round(world.round, world.organiser)
    assert sent.summary() == [
        (
            notify.public_group(world.event.pk),
            "round",
            {"round": 1, "status": "started", "ends_at": started.ends_at.isoformat()},
        )
    ]
    for match in started.matches.filter(is_bye=False):
        results.enter_result(match, Score.parse("2-0"), world.organiser)
    sent.clear()
    rounds.close_round(started, world.organiser)
    public = notify.public_group(world.event.pk)
    assert sent.summary() == [
        (public, "round", {"round": 1, "status": "closed", "ends_at": started.ends_at.isoformat()}),
        (public, "standings", {"round": 1}),
    ]


def test_a_swap_tells_the_four_players_whose_tables_changed(make_world, sent):
    world = make_world(8)
    one, two = world.table(1), world.table(2)
    sent.clear()
    rounds.swap_players(world.round, one.player_a, two.player_a, world.organiser, "mistake")
    event_id = world.event.pk
    assert (notify.public_group(event_id), "pairings", {"round": 1}) in sent.summary()
    own = {g: keys for g, kind, keys in sent.summary() if kind == "my_match"}
    assert own == {
        notify.player_group(event_id, one.player_a_id): {"round": 1, "table": 2},
        notify.player_group(event_id, two.player_a_id): {"round": 1, "table": 1},
        notify.player_group(event_id, one.player_b_id): {"round": 1, "table": 1},
        notify.player_group(event_id, two.player_b_id): {"round": 1, "table": 2},
    }


def test_a_repair_publishes_the_pairings_again(make_world, sent):
    world = make_world(8)
    sent.clear()
    rounds.repair_round(world.round, world.organiser, "wrong players checked in")
    kinds = [kind for _, kind, _ in sent.summary()]
    assert kinds.count("pairings") == 1 and kinds.count("my_match") == 8


def test_a_refused_or_rolled_back_change_sends_nothing(make_world, sent):
    world = make_world(4)
    sent.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        rounds.start_round(world.round, world.organiser)
        raise RuntimeError("the request failed after the service")
    assert sent.messages == []
    with pytest.raises(ServiceError):
        rounds.pair_next_round(world.event, world.organiser)  # round 1 is not closed
    assert sent.messages == []
    assert Event.objects.get(pk=world.event.pk).rounds.get().status == "paired"


def test_the_pairing_is_handed_to_web_push_where_it_is_installed(make_world, sent, monkeypatch):
    from push import listeners

    pushed = []
    monkeypatch.setattr(listeners, "push_pairings", lambda round_: pushed.append(round_.pk))
    world = make_world(4, paired=False)
    round_ = rounds.pair_next_round(world.event, world.organiser)
    assert pushed == [round_.pk]
