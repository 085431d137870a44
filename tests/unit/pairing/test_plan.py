"""The plan for the field (``pairing.plan``): every row of each source table, byes counted
as the tables say, the CLI's exact answer for issue 33's example, and its refusals.

The expected numbers are typed here from the sources (MTR Appendix E, DTR Appendix C), not
read from the data file, so a wrong or lost row in the file fails a test.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from pairing import plan
from pairing.plan import PlanInputError, load_tables, recommend

ROOT = pathlib.Path(__file__).resolve().parents[3]

# (first players, last players or None, swiss rounds, top cut) as the source prints them.
MTR_APPENDIX_E = [
    (9, 16, 5, 4),  # "All Other Formats"; the booster-draft alternative is 4 rounds, top 8
    (17, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 226, 8, 8),
    (227, 409, 9, 8),
    (410, None, 10, 8),
]
DTR_APPENDIX_C = [
    (17, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 216, 8, 8),
    (217, 256, 8, 16),
    (257, 512, 9, 16),
    (513, None, 10, 16),
]
SOURCES = (("mtr-appendix-e", MTR_APPENDIX_E), ("mtg-dtr-appendix-c", DTR_APPENDIX_C))


def boundaries(table: str, rows: list) -> list:
    """Each row's first and last field size, and one past the open-ended last row."""
    cases = []
    for first, last, rounds, cut in rows:
        for players in (first, last if last is not None else first * 4):
            cases.append(pytest.param(table, players, rounds, cut, id=f"{table}-{players}"))
    return cases


@pytest.mark.parametrize(
    ("table", "players", "rounds", "cut"),
    boundaries("mtr-appendix-e", MTR_APPENDIX_E) + boundaries("mtg-dtr-appendix-c", DTR_APPENDIX_C),
)
def test_each_row_holds_at_both_of_its_boundaries(table, players, rounds, cut):
    got = recommend(players, table=table)
    assert got.as_json() == {"swiss_rounds": rounds, "top_cut": cut}
    assert got.counted == players


@pytest.mark.parametrize(
    ("table", "below", "rounds", "cut"),
    [
        (name, first - 1, rounds, cut)
        for name, rows in SOURCES
        for first, _, rounds, cut in rows[1:]
    ],
)
def test_one_player_fewer_falls_in_the_row_below(table, below, rounds, cut):
    assert recommend(below, table=table).as_json() != {"swiss_rounds": rounds, "top_cut": cut}


def test_appendix_e_runs_five_to_eight_players_as_three_elimination_rounds():
    for players in (5, 8):
        got = recommend(players)
        assert got.as_json() == {"swiss_rounds": 0, "top_cut": 0, "elimination_rounds": 3}
        assert not got.runs_swiss


def test_appendix_e_four_is_a_team_row_only():
    assert recommend(4, teams=True).as_json() == {
        "swiss_rounds": 0,
        "top_cut": 0,
        "elimination_rounds": 2,
    }
    with pytest.raises(PlanInputError) as refused:
        recommend(4)
    assert refused.value.argument == "players"
    assert "starts at 5" in refused.value.message


def test_appendix_e_keeps_the_booster_draft_alternative_for_nine_to_sixteen():
    got = recommend(12)
    assert got.alternative["swiss_rounds"] == 4
    assert got.alternative["top_cut"] == 8
    assert "booster draft" in got.alternative["when"]


def test_the_dtr_table_leaves_out_the_rows_its_source_lost():
    with pytest.raises(PlanInputError, match="starts at 17"):
        recommend(16, table="mtg-dtr-appendix-c")


def test_every_game_defaults_to_appendix_e():
    for game in ("iacta", "superjack", "dataclysm", "a-new-game"):
        assert plan.table_for_game(game) == "mtr-appendix-e"


# --- byes ---------------------------------------------------------------------------------


def test_issue_example_ten_players_with_three_byes_count_as_seventy_more():
    got = recommend(300, {3: 10})
    assert got.counted == 370
    assert got.as_json() == {"swiss_rounds": 9, "top_cut": 8}


@pytest.mark.parametrize(("level", "weight"), [(1, 2), (2, 4), (3, 8)])
def test_a_player_with_byes_counts_as_two_four_or_eight(level, weight):
    assert recommend(200, {level: 1}).counted == 200 - 1 + weight


def test_byes_move_a_field_across_a_row_boundary():
    assert recommend(226).swiss_rounds == 8
    assert recommend(226, {1: 1}).swiss_rounds == 9  # 227 counted
    assert recommend(222, {2: 1}).swiss_rounds == 8  # 225 counted
    assert recommend(220, {3: 1}).swiss_rounds == 9  # 227 counted


@pytest.mark.parametrize(
    ("players", "byes", "argument", "words"),
    [
        (0, {}, "players", "at least 1"),
        (5, {4: 1}, "byes", "1, 2 or 3"),
        (5, {0: 1}, "byes", "1, 2 or 3"),
        (5, {1: -1}, "byes", "negative"),
        (5, {1: 3, 2: 3}, "byes", "more than the 5 players"),
    ],
)
def test_impossible_fields_are_refused_naming_the_argument(players, byes, argument, words):
    with pytest.raises(PlanInputError) as refused:
        recommend(players, byes)
    assert refused.value.argument == argument
    assert words in refused.value.message


def test_an_unknown_table_is_refused_with_the_known_ones():
    with pytest.raises(PlanInputError) as refused:
        recommend(30, table="pokemon")
    assert refused.value.argument == "table"
    assert "mtr-appendix-e" in refused.value.message
    assert "mtg-dtr-appendix-c" in refused.value.message


# --- tables as game data ------------------------------------------------------------------

GATED = {
    "tables": {
        "two-day": {
            "title": "A two-day test table",
            "source": "this test",
            "byes": {"1": 2},
            "rows": [
                {"min": 8, "max": 99, "swiss_rounds": 5, "top_cut": 8},
                {
                    "min": 100,
                    "swiss_rounds": 9,
                    "top_cut": 8,
                    "gate_points": 19,
                    "gate_top": 32,
                    "day2_rounds": 5,
                },
            ],
        }
    },
    "games": {"iacta": "two-day"},
}


def test_a_row_with_a_day_two_gate_adds_its_keys_and_only_then():
    tables = load_tables(override=GATED)
    assert recommend(99, table="two-day", tables=tables).as_json() == {
        "swiss_rounds": 5,
        "top_cut": 8,
    }
    got = recommend(100, table="two-day", tables=tables)
    assert list(got.as_json().items()) == [
        ("swiss_rounds", 9),
        ("top_cut", 8),
        ("gate_points", 19),
        ("gate_top", 32),
        ("day2_rounds", 5),
    ]
    assert got.has_gate
    assert plan.table_for_game("iacta", tables) == "two-day"
    assert plan.table_for_game("superjack", tables) == "mtr-appendix-e"


def test_a_table_with_overlapping_rows_is_refused():
    bad = {"tables": {"bad": {"rows": [{"min": 1, "max": 10, "swiss_rounds": 3, "top_cut": 0},
                                       {"min": 10, "swiss_rounds": 4, "top_cut": 0}]}}}  # fmt: skip
    with pytest.raises(ValueError, match="overlap"):
        load_tables(override=bad)


def test_a_top_cut_that_is_no_power_of_two_is_refused():
    bad = {"tables": {"bad": {"rows": [{"min": 1, "swiss_rounds": 3, "top_cut": 6}]}}}
    with pytest.raises(ValueError, match="power of two"):
        load_tables(override=bad)


def test_the_environment_adds_an_organisers_tables(tmp_path, monkeypatch):
    extra = tmp_path / "tables.toml"
    extra.write_text(
        '[tables.club]\nsource = "our club"\n'
        "[[tables.club.rows]]\nmin = 2\nswiss_rounds = 4\ntop_cut = 2\n",
        encoding="utf-8",
    )
    monkeypatch.setenv(plan.ENV_VAR, str(extra))
    assert recommend(300, table="club").as_json() == {"swiss_rounds": 4, "top_cut": 2}
    assert recommend(300).as_json() == {"swiss_rounds": 9, "top_cut": 8}


# --- the command line ---------------------------------------------------------------------


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "ARBITER"))}
    return subprocess.run(
        [sys.executable, "-m", "pairing.plan", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**clean, **(env or {})},
        timeout=120,
    )


def test_cli_prints_exactly_the_issues_answer():
    done = run("--players", "300", "--byes", "3:10")
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"swiss_rounds": 9, "top_cut": 8}\n'


def test_cli_takes_every_bye_level_and_a_table():
    done = run("--players", "250", "--byes", "1:3,2:2,3:1", "--table", "mtg-dtr-appendix-c")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"swiss_rounds": 9, "top_cut": 16}  # 250+3+6+7 = 266


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "10", "--byes", "4:1"], "--byes: a player has 1, 2 or 3 awarded byes"),
        (["--players", "10", "--byes", "3:11"], "--byes: 11 players with byes"),
        (["--players", "10", "--byes", "three"], "--byes: 'three' is not LEVEL:COUNT"),
        (["--players", "10", "--table", "pokemon"], "--table: no table 'pokemon'; the tables"),
        (["--players", "0"], "--players must be"),
        (["--players", "3"], "--players: table 'mtr-appendix-e' has no row for 3"),
        (["--players", "ten"], "argument --players: invalid int value"),
        (["--byes", "3:1"], "--players"),
        (["--players", "30", "--tables", "/nonexistent.toml"], "argument --tables"),
    ],
)
def test_cli_refuses_bad_input_with_status_2_naming_the_argument(args, words):
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert words in done.stderr


def test_cli_lists_the_known_tables_when_one_is_unknown():
    done = run("--players", "30", "--table", "nope")
    assert "mtg-dtr-appendix-c, mtr-appendix-e" in done.stderr
