"""Day 1 flights into a Day 2 by record, then a top cut seeded from the final Swiss."""

from __future__ import annotations

import random

import pytest

from pairing.gate import GateRule
from pairing.gate import apply_gate as decide_gate
from tests.conftest import make_user, refused
from tournaments.event import phases, services
from tournaments.models import Event, EventLog, Registration, Round
from tournaments.record.history import EventHistory
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def _play(round_: Round, organiser, rng: random.Random) -> None:
    for match in round_.matches.filter(is_bye=False):
        score = rng.choice(["2-0", "0-2", "2-1", "1-2"])
        results.enter_result(match, results.Score.parse(score), organiser)


def _run_rounds(event: Event, organiser, count: int, rng: random.Random) -> None:
    for _ in range(count):
        round_ = rounds.pair_next_round(event, organiser, confirm_not_checked_in=True)
        rounds.start_round(round_, organiser)
        _play(round_, organiser, rng)
        rounds.close_round(round_, organiser)


def _main_with_flights(organiser, sizes=(24, 20), rounds_each=4) -> Event:
    main = services.create_event(
        organiser,
        name="Regional",
        game="iacta",
        status=Event.Status.REGISTRATION,
        swiss_rounds=rounds_each + 3,
        top_cut=8,
    )
    phases.set_gate(main, organiser, points=9, top=16, ties="tiebreakers")
    for f, size in enumerate(sizes):
        flight = phases.add_flight(main, organiser, name="AB"[f], rounds=rounds_each)
        for i in range(size):
            services.register_player(flight, make_user(f"f{f}p{i:02d}"))
        services.check_in_everyone(flight, organiser)
    return main


def _opponents(event_ids) -> set[frozenset]:
    met = set()
    for round_ in Round.objects.filter(event_id__in=event_ids, kind=Round.Kind.SWISS):
        for m in round_.matches.filter(is_bye=False).select_related("player_a", "player_b"):
            met.add(frozenset((m.player_a.public_id, m.player_b.public_id)))
    return met


def test_two_flights_feed_day2_by_the_gate_and_the_cut_seeds_from_the_final_swiss(organiser):
    rng = random.Random(7)
    main = _main_with_flights(organiser)
    flights = list(main.flights.order_by("pk"))
    with refused("Day 2 starts after the gate"):
        rounds.pair_next_round(main, organiser)
    _run_rounds(flights[0], organiser, 4, rng)
    with refused("B has closed 0 of its 4 rounds"):
        phases.apply_gate(main, organiser)
    _run_rounds(flights[1], organiser, 4, rng)

    merged = EventHistory.read(main, plain=True).standings_rows()
    assert len(merged) == 44
    # Hand count: everyone on 9 or more, or the first 16 of the merged standings.
    by_points = {r["player"] for r in merged if r["match_points"] >= 9}
    top16 = {r["player"] for r in merged[:16]}
    expected = by_points | top16
    assert phases.apply_gate(main, organiser) == len(expected)
    carried = set(main.registrations.values_list("external_id", flat=True))
    assert carried == expected
    with refused("applied already"):
        phases.apply_gate(main, organiser)

    day1 = _opponents([f.pk for f in flights])
    round_ = rounds.pair_next_round(main, organiser)
    assert round_.number == 5
    for _ in range(3):
        for m in round_.matches.filter(is_bye=False).select_related("player_a", "player_b"):
            assert frozenset((m.player_a.public_id, m.player_b.public_id)) not in day1
        rounds.start_round(round_, organiser)
        _play(round_, organiser, rng)
        rounds.close_round(round_, organiser)
        if round_.number < 7:
            round_ = rounds.pair_next_round(main, organiser)
    main.refresh_from_db()
    final = EventHistory.read(main, plain=True).standings_rows()
    assert len(final) == 44
    assert [r["day2"] for r in final] == [True] * len(expected) + [False] * (44 - len(expected))
    # Day 2 players carry their Day 1 record: 7 rounds each.
    for row in final[: len(expected)]:
        assert sum(int(x) for x in row["record"].split("-")) == 7
    cut = rounds.start_top_cut(main, organiser)
    seeds = [m.player_a.public_id for m in cut.matches.order_by("table").select_related("player_a")]
    assert seeds[0] == final[0]["player"]


def test_the_gate_logs_each_players_reason_and_tells_them(organiser):
    rng = random.Random(3)
    main = _main_with_flights(organiser, sizes=(10, 8), rounds_each=3)
    flights = list(main.flights.order_by("pk"))
    for flight in flights:
        _run_rounds(flight, organiser, 3, rng)
    someone = Registration.objects.filter(event=flights[0]).first()
    row = next(
        r for r in EventHistory.read(flights[0]).standings_rows() if r["registration"] == someone.pk
    )
    before = phases.player_gate_status(flights[0], someone)
    assert before.startswith("Day 2: at least 9 match points or the top 16 of Day 1")
    assert f"You have {row['match_points']} point" in before
    phases.apply_gate(main, organiser)
    entry = EventLog.objects.get(event=main, action="gate")
    assert entry.data["rule"] == {"points": 9, "top": 16, "ties": "tiebreakers"}
    main.refresh_from_db()
    status = phases.player_gate_status(flights[0], someone)
    decision = phases.logged_decision(main, someone.public_id)
    assert status == phases.decision_text(decision, phases.gate_rule(main))
    assert ("you play on Day 2" in status) == decision.through


def test_gate_rule_is_fixed_once_day1_starts(organiser):
    main = _main_with_flights(organiser, sizes=(4,), rounds_each=2)
    rounds.pair_next_round(main.flights.get(), organiser)
    with refused("stated before the event"):
        phases.set_gate(main, organiser, points=3, top=None)


def test_awarded_byes_are_won_rounds_without_a_match(organiser):
    event = services.create_event(
        organiser, name="Byes", game="iacta", status=Event.Status.REGISTRATION, swiss_rounds=3
    )
    for i in range(9):
        services.register_player(event, make_user(f"b{i}"))
    services.check_in_everyone(event, organiser)
    ranked = event.registrations.order_by("pk").first()
    services.award_byes(event, ranked, 2, organiser)
    with refused("from 0 to 3"):
        services.award_byes(event, ranked, 4, organiser)
    rng = random.Random(1)
    first = rounds.pair_next_round(event, organiser)
    byes = first.matches.filter(is_bye=True)
    assert ranked.pk in set(byes.values_list("player_a_id", flat=True))
    assert byes.get(player_a=ranked).explanation == "Awarded bye (1 of 2)"
    # 8 others: even, so no other bye.
    assert byes.count() == 1
    with refused("round 1 is paired"):
        services.award_byes(event, ranked, 1, organiser)
    rounds.start_round(first, organiser)
    _play(first, organiser, rng)
    rounds.close_round(first, organiser)
    second = rounds.pair_next_round(event, organiser)
    assert second.matches.filter(is_bye=True, player_a=ranked).exists()
    row = next(
        r
        for r in EventHistory.read(event, plain=True).standings_rows(through_round=1)
        if r["registration"] == ranked.pk
    )
    assert row["match_points"] == 3 and row["record"] == "1-0-0"


def test_the_pure_gate_states_ties_at_the_line():
    rows = [
        {"rank": 1, "player": "a", "match_points": 9},
        {"rank": 2, "player": "b", "match_points": 6},
        {"rank": 3, "player": "c", "match_points": 6},
        {"rank": 4, "player": "d", "match_points": 6, "dropped": True},
        {"rank": 5, "player": "e", "match_points": 3},
    ]
    by_tb = decide_gate(rows, GateRule(top=2))
    assert [d.why for d in by_tb.decisions] == ["top", "top", "tiebreakers", "dropped", "below"]
    by_points = decide_gate(rows, GateRule(top=2, ties="points"))
    assert [d.through for d in by_points.decisions] == [True, True, True, False, False]
    either = decide_gate(rows, GateRule(points=6, top=1))
    assert either.through == 3


def test_day2_entries_keep_their_day1_decklists(organiser, django_capture_on_commit_callbacks):
    from decks.models import Decklist

    rng = random.Random(5)
    main = _main_with_flights(organiser, sizes=(6, 6), rounds_each=2)
    flights = list(main.flights.order_by("pk"))
    for flight in flights:
        _run_rounds(flight, organiser, 2, rng)
    listed = Registration.objects.filter(event__in=flights).order_by("pk")
    for entry in listed:
        Decklist.objects.create(
            registration=entry, main=[{"name": "Ember Tithe", "count": 4}], raw_text="4 Ember"
        )
    with django_capture_on_commit_callbacks(execute=True):
        phases.apply_gate(main, organiser)
    for entry in main.registrations.select_related("decklist", "carried_from__decklist"):
        assert entry.decklist.raw_text == entry.carried_from.decklist.raw_text == "4 Ember"


def test_the_printed_standings_of_the_main_event_mark_day1_players(organiser):
    import printing.documents  # noqa: F401  (registers the kinds)
    from printing.documents.registry import get

    rng = random.Random(11)
    main = _main_with_flights(organiser, sizes=(8, 8), rounds_each=2)
    main.gate_top, main.gate_points = 4, None
    main.save(update_fields=["gate_top", "gate_points"])
    for flight in main.flights.all():
        _run_rounds(flight, organiser, 2, rng)
    phases.apply_gate(main, organiser)
    main.refresh_from_db()
    kind = get("standings")
    html, _context = kind.document(main, None, kind.plan(main, None))
    assert html.count(">DAY 1<") == 12
    assert "B #" in html and "did not reach Day 2" in html


def test_a_flights_pairs_kept_apart_stay_apart_on_day2(organiser):
    from tournaments.event import avoid_pairs
    from tournaments.models import AvoidPair

    rng = random.Random(9)
    main = _main_with_flights(organiser, sizes=(8, 8), rounds_each=2)
    main.gate_points, main.gate_top = 0, None  # everyone plays on
    main.save(update_fields=["gate_points", "gate_top"])
    flight = main.flights.order_by("pk").first()
    a, b = flight.registrations.order_by("pk")[:2]
    avoid_pairs.add_pair(flight, a, b, organiser, reason="siblings")
    for each in main.flights.all():
        _run_rounds(each, organiser, 2, rng)
    phases.apply_gate(main, organiser)
    carried = AvoidPair.objects.get(event=main)
    assert {carried.first.carried_from_id, carried.second.carried_from_id} == {a.pk, b.pk}
    assert carried.reason == "siblings"
