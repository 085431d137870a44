"""The event simulator (``pairing.event_simulator``): a plan played out by the real engine
with seeded results, the schedule it gives, and how many players reach Day 2."""

from __future__ import annotations

import json
from datetime import time

import pytest

from pairing import event_simulator as sim
from pairing.plan import load_tables, recommend
from pairing.simulator import simulate
from tests.unit.pairing.test_plan import GATED, run


def settings(**changes) -> sim.Settings:
    return sim.Settings(**{"seeds": (1, 2, 3), **changes})


def times(simulation: sim.Simulation) -> list[tuple[int, str, int, str, str]]:
    """The schedule without the measured pairing seconds (which vary run to run)."""
    return [
        (s["round"], s["phase"], s["day"], s["start"], s["end"])
        for s in (slot.as_json() for slot in simulation.slots)
    ]


def test_day_one_is_the_pairing_simulators_event():
    """Without byes or a gate, the same seed gives the same results as pairing.simulator."""
    plan = recommend(100)  # 7 rounds
    run_ = sim.play_event(100, {}, plan, 42, sim.Settings())
    *_, after = simulate(100, plan.swiss_rounds + 1, seed=42)
    assert run_.points == {p["id"]: p["points"] for p in after["players"]}
    assert len(run_.pairing_seconds) == 7
    assert run_.day2_players is None


def test_a_plan_without_a_gate_runs_its_swiss_and_cut_in_one_day():
    got = sim.simulate_plan(recommend(300, {3: 10}), {3: 10}, settings())
    assert times(got) == [
        *[(n, "swiss", 1, f"{8 + n:02d}:00", f"{8 + n:02d}:50") for n in range(1, 10)],
        (10, "top_cut", 1, "18:00", "18:50"),
        (11, "top_cut", 1, "19:00", "19:50"),
        (12, "top_cut", 1, "20:00", "20:50"),
    ]
    assert got.as_json()["end"] == {"day": 1, "time": "20:50"}
    assert "day2" not in got.as_json()


def test_a_gate_sends_players_to_day_two_and_the_schedule_there():
    plan = recommend(300)
    got = sim.simulate_plan(
        plan, {}, settings(gate_points=19, gate_top=32, day2_rounds=5, start=time(10, 0))
    )
    rows = times(got)
    assert rows[8] == (9, "swiss", 1, "18:00", "18:50")
    assert rows[9] == (10, "day2", 2, "10:00", "10:50")
    assert rows[-1] == (17, "top_cut", 2, "17:00", "17:50")
    spread = got.day2_spread()
    assert 32 <= spread["min"] <= spread["median"] <= spread["max"] <= 300
    assert got.as_json()["day2"] == {"gate_points": 19, "gate_top": 32, **spread}


def test_the_same_seeds_give_the_same_answer():
    plan = recommend(150)
    chosen = settings(gate_points=15, day2_rounds=2)
    first, second = (sim.simulate_plan(plan, {1: 5}, chosen) for _ in range(2))
    assert [r.points for r in first.runs] == [r.points for r in second.runs]
    assert first.day2_spread() == second.day2_spread()
    assert times(first) == times(second)


def test_more_seeds_spread_the_day_two_field():
    got = sim.simulate_plan(recommend(300), {}, settings(gate_points=18, seeds=range(1, 8)))
    counts = sorted(r.day2_players for r in got.runs)
    assert got.day2_spread() == {"min": counts[0], "median": counts[3], "max": counts[-1]}
    assert counts[0] < counts[-1]  # the results differ by seed, so does the field


def test_the_tables_gate_is_used_when_the_settings_give_none():
    plan = recommend(120, table="two-day", tables=load_tables(override=GATED))
    got = sim.simulate_plan(plan, {}, settings())
    assert got.gate_points == 19
    assert got.gate_top == 32
    assert [s.phase for s in got.slots].count("day2") == 5
    assert got.day2_spread()["min"] >= 32


def test_players_with_awarded_byes_win_their_first_rounds_unpaired():
    plan = recommend(40)  # 6 rounds
    run_ = sim.play_event(40, {3: 2, 1: 3}, plan, 7, sim.Settings(drop_rate=0))
    three = {"p1", "p2"}
    one = {"p3", "p4", "p5"}
    state = sim._Event(40, {3: 2, 1: 3}, 7, sim.Settings(drop_rate=0))
    for number in (1, 2, 3):
        state.play(number)
        for pid in three:
            assert state.points[pid] == 3 * number
            assert state.opponents[pid] == []
    for pid in one:
        assert len(state.opponents[pid]) == 2
        assert state.points[pid] >= 3
    assert all(run_.points[pid] >= 9 for pid in three)


@pytest.mark.parametrize(
    ("points", "gate_points", "gate_top", "through"),
    [
        ([21, 19, 19, 18, 12, 9], 19, 2, 3),  # the points let more through
        ([21, 19, 19, 18, 12, 9], 19, 5, 5),  # the top 5 let more through
        ([21, 19, 19, 18, 12, 9], None, 4, 4),
        ([21, 19, 19, 18, 12, 9], 18, None, 4),
        ([9, 6], 19, 32, 2),  # a top N past the field: everyone
    ],
)
def test_the_gate_lets_through_whichever_is_more(points, gate_points, gate_top, through):
    assert sim.gate_count(points, gate_points, gate_top) == through


def test_with_ties_on_points_everyone_on_the_last_places_points_goes_through():
    points = [21, 19, 18, 18, 18, 12]
    assert sim.gate_count(points, None, 3) == 3
    assert sim.gate_count(points, None, 3, ties="points") == 5
    assert sim.gate_count(points, 21, 1, ties="points") == 1


def test_the_gates_tie_rule_reaches_the_simulated_field():
    plan = recommend(64)
    by_tiebreakers, by_points = (
        sim.simulate_plan(plan, {}, settings(gate_top=10, gate_ties=ties)).day2_spread()
        for ties in ("tiebreakers", "points")
    )
    assert by_tiebreakers == {"min": 10, "median": 10, "max": 10}
    assert by_points["max"] > 10


def test_a_pairing_slower_than_the_break_delays_the_round():
    from datetime import datetime

    end = datetime(2000, 1, 1, 10, 0)
    assert sim._next_start(end, sim.Settings(break_minutes=10), 0.4) == datetime(2000, 1, 1, 10, 10)
    assert sim._next_start(end, sim.Settings(break_minutes=0), 0.4) == datetime(2000, 1, 1, 10, 1)
    assert sim._next_start(end, sim.Settings(break_minutes=10), 700) == datetime(2000, 1, 1, 10, 12)


def test_an_elimination_plan_is_scheduled_without_swiss():
    got = sim.simulate_plan(recommend(6), {}, settings())
    assert times(got) == [
        (1, "elimination", 1, "09:00", "09:50"),
        (2, "elimination", 1, "10:00", "10:50"),
        (3, "elimination", 1, "11:00", "11:50"),
    ]


def test_cli_simulates_with_a_gate():
    done = run(
        "--players", "300", "--byes", "3:10", "--simulate", "--round-minutes", "50",
        "--break-minutes", "10", "--start", "09:00", "--gate-points", "19", "--gate-top", "32",
        "--day2-rounds", "4", "--runs", "3",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["swiss_rounds"] == 9
    assert out["top_cut"] == 8
    assert out["runs"] == 3
    assert out["day2"]["gate_points"] == 19
    assert out["day2"]["min"] >= 32
    assert [s["phase"] for s in out["schedule"]].count("day2") == 4
    assert out["end"] == {"day": 2, "time": "15:50"}


def test_cli_gives_the_same_day_two_field_for_the_same_seed():
    args = ("--players", "120", "--simulate", "--gate-points", "12", "--runs", "2", "--seed", "9")
    first, second = (json.loads(run(*args).stdout) for _ in range(2))
    assert first["day2"] == second["day2"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--start", "9am"], "--start: '9am' is not a time of day"),
        (["--start", "25:00"], "--start"),
        (["--round-minutes", "0"], "--round-minutes must be at least 1"),
        (["--break-minutes", "-5"], "--break-minutes must be 0 or more"),
        (["--gate-top", "0"], "--gate-top must be at least 1"),
        (["--runs", "0"], "--runs must be at least 1"),
        (["--gate-ties", "coin"], "--gate-ties must be tiebreakers or points"),
    ],
)
def test_cli_refuses_bad_simulation_settings(args, words):
    done = run("--players", "40", "--simulate", *args)
    assert done.returncode == 2
    assert words in done.stderr
