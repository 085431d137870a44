"""The one event-history adapter: what pairing and standings read, and what it costs."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import make_user
from tournaments.event import services
from tournaments.models import Event, Match, Registration, Round
from tournaments.record.history import EventHistory, is_active_in, standings_rows
from tournaments.record.match_games import Score
from tournaments.record.rounds import latest_round
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

SCORES = ("2-0", "1-2", "1-1", "2-1", "0-2")  # first player wins, loses, draws...


def open_event(organiser, players: int, prefix: str, **fields) -> Event:
    """``players`` registered and checked in; no round paired yet."""
    defaults = {"name": f"{prefix} Open", "status": Event.Status.REGISTRATION, "swiss_rounds": 6}
    event = services.create_event(organiser, **{**defaults, **fields})
    for i in range(1, players + 1):
        services.register_player(event, make_user(f"{prefix}{i:02d}", first_name=f"{prefix}{i}"))
    services.check_in(event, list(event.registrations.values_list("pk", flat=True)), organiser)
    return event


def play_and_close(round_: Round, organiser) -> None:
    """Every table gets a result from SCORES in turn (some draws), then the round closes."""
    for k, match in enumerate(round_.matches.filter(is_bye=False).order_by("table")):
        results.enter_result(
            match, Score.parse(SCORES[(k + round_.number) % len(SCORES)]), organiser
        )
    rounds.close_round(round_, organiser)


def event_after(organiser, players: int, played: int, prefix: str, **fields) -> Event:
    """An event with ``played`` Swiss rounds closed, one drop after round 1."""
    event = open_event(organiser, players, prefix, **fields)
    for number in range(1, played + 1):
        round_ = rounds.pair_next_round(event, organiser)
        if number == 1:
            leaver = round_.matches.filter(is_bye=False).order_by("table").last().player_b
            services.drop_player(event, leaver, organiser)
        play_and_close(round_, organiser)
    return event


def queries_to_pair(event: Event, organiser) -> int:
    with CaptureQueriesContext(connection) as captured:
        rounds.pair_next_round(event, organiser)
    return len(captured.captured_queries)


def queries_to_repair(event: Event, organiser) -> int:
    round_ = latest_round(event)
    with CaptureQueriesContext(connection) as captured:
        rounds.repair_round(round_, organiser, "a player was missing from the list")
    return len(captured.captured_queries)


def test_pairing_a_round_costs_the_same_queries_whatever_the_size(organiser):
    small = event_after(organiser, players=7, played=1, prefix="s")
    large = event_after(organiser, players=41, played=4, prefix="l")
    # Round 1 had a bye in both; after the drop both are even, so the work is alike.
    assert len(EventHistory.read(small).active_in(2)) == 6
    assert len(EventHistory.read(large).active_in(5)) == 40

    assert queries_to_pair(small, organiser) == queries_to_pair(large, organiser)
    assert queries_to_repair(small, organiser) == queries_to_repair(large, organiser)


def test_a_pair_or_repair_press_reads_the_history_once(organiser, monkeypatch):
    event = event_after(organiser, players=8, played=1, prefix="o")
    reads = []
    read = EventHistory.read.__func__

    def counted(cls, event):
        reads.append(event.pk)
        return read(cls, event)

    monkeypatch.setattr(EventHistory, "read", classmethod(counted))
    two = rounds.pair_next_round(event, organiser)
    assert reads == [event.pk]
    rounds.repair_round(two, organiser, "wrong list")
    assert reads == [event.pk, event.pk]


def test_the_history_is_four_queries_and_the_rows_none_more(organiser, django_assert_num_queries):
    event = event_after(organiser, players=9, played=2, prefix="q")
    with django_assert_num_queries(3):
        EventHistory.read(event, plain=True)  # the standings' read: no must-not-meet pairs
    with django_assert_num_queries(4):  # registrations, rounds, matches, must-not-meet pairs
        history = EventHistory.read(event)
    with django_assert_num_queries(0):
        rows = history.standings_rows()
        players = history.swiss_players(3)
    assert len(rows) == 9 and len(players) == 8  # the dropped player keeps a row


def test_a_late_entrys_missed_rounds_count_the_same_in_pairing_and_standings(organiser):
    # A loss worth a point, so a missed round that is not counted would show.
    event = open_event(organiser, 6, "m", points_loss=1)
    one = rounds.pair_next_round(event, organiser)
    early = services.add_late_entry(event, organiser, name="Early Late")
    play_and_close(one, organiser)
    two = rounds.pair_next_round(event, organiser)
    later = services.add_late_entry(event, organiser, name="Later Late")
    play_and_close(two, organiser)
    assert (early.joined_round, later.joined_round) == (2, 3)

    history = EventHistory.read(event)
    pairing_points = {p.id: p.points for p in history.swiss_players(3)}
    rows = {row["player"]: row for row in history.standings_rows(through_round=2)}
    for registration in event.registrations.all():
        pid = registration.public_id
        assert pairing_points[pid] == rows[pid]["match_points"], registration.display_name
    assert rows[later.public_id]["record"] == "0-2-0"
    assert rows[later.public_id]["gw"] == pytest.approx(1 / 3, abs=1e-4)  # 0-4 in games, floored
    assert pairing_points[later.public_id] == 2 * event.points_loss
    missed = [(e["round"], e["players"][0]) for e in history.results if e.get("missed")]
    assert missed == [(1, early.public_id), (1, later.public_id), (2, later.public_id)]
    before_two = {p.id: p.points for p in history.swiss_players(2)}
    assert before_two[early.public_id] == event.points_loss
    assert later.public_id not in before_two  # not active before they joined


def test_the_pairing_input_follows_the_rows_and_the_standings(organiser):
    """The engine's input, rebuilt straight from the rows by the rule the site always used:
    game wins decide the match, a bye is a win, each round before ``joined_round`` a loss."""
    event = event_after(organiser, players=9, played=3, prefix="r", points_loss=1)
    late = services.add_late_entry(event, organiser, name="Late Lou")
    history = EventHistory.read(event)
    # Round 4 has not been paired: Late Lou joins at 4 and missed 1-3.
    assert late.joined_round == 4

    players = history.swiss_players(4)
    expected = _points_and_opponents_from_rows(event, before_round=4)
    assert {p.id: (p.points, sorted(p.opponents), p.had_bye) for p in players} == expected
    assert [p.dropped for p in players] == [False] * len(players)

    order = [row["player"] for row in standings_rows(event, through_round=3)]
    ranked = [p.id for p in players]
    assert ranked == sorted(ranked, key=lambda pid: (-expected[pid][0], order.index(pid)))


def test_a_round_without_results_yet_counts_only_its_byes(organiser):
    event = open_event(organiser, 5, "b")
    one = rounds.pair_next_round(event, organiser)
    rows = standings_rows(event)
    bye = one.matches.get(is_bye=True).player_a
    assert [(row["registration"], row["record"]) for row in rows] == [(bye.pk, "1-0-0")]


def test_is_active_in_follows_check_in_joins_drops_and_disqualifications(organiser):
    event = open_event(organiser, 4, "a")
    first, second, third, fourth = event.registrations.order_by("pk")
    Registration.objects.filter(pk=second.pk).update(joined_round=3)
    Registration.objects.filter(pk=third.pk).update(dropped_after_round=2)
    Registration.objects.filter(pk=fourth.pk).update(disqualified=True)
    history = EventHistory.read(event)
    active = {n: {r.pk for r in history.active_in(n)} for n in (1, 2, 3)}
    assert active == {1: {first.pk, third.pk}, 2: {first.pk, third.pk}, 3: {first.pk, second.pk}}
    assert all(is_active_in(r, 3) == (r.pk in active[3]) for r in history.registrations)


def _points_and_opponents_from_rows(event: Event, before_round: int) -> dict:
    """{public id: (points, opponents, had a bye)} of the players active in ``before_round``."""
    by_pk = {r.pk: r for r in event.registrations.all()}
    points = {pk: 0 for pk in by_pk}
    opponents: dict[int, list[str]] = {pk: [] for pk in by_pk}
    byes = set()
    swiss = Match.objects.filter(
        round__event=event, round__kind=Round.Kind.SWISS, round__number__lt=before_round
    )
    for match in swiss:
        if match.is_bye:
            points[match.player_a_id] += event.points_win
            byes.add(match.player_a_id)
            continue
        a, b = match.player_a_id, match.player_b_id
        wins_a, wins_b = match.games.count(a), match.games.count(b)
        for me, other, mine, theirs in ((a, b, wins_a, wins_b), (b, a, wins_b, wins_a)):
            opponents[me].append(by_pk[other].public_id)
            if mine == theirs:
                points[me] += event.points_draw
            else:
                points[me] += event.points_win if mine > theirs else event.points_loss
    for pk, registration in by_pk.items():
        points[pk] += (min(registration.joined_round, before_round) - 1) * event.points_loss
    return {
        r.public_id: (points[pk], sorted(opponents[pk]), pk in byes)
        for pk, r in by_pk.items()
        if is_active_in(r, before_round)
    }
