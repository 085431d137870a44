"""The metagame report on a hand-built event, every figure worked out by hand below.

The event: twelve players in four archetypes (A x4, B x3, C x3, D x2), two Swiss rounds
of Day 1 (d2 drops after round 1, so c3 has a bye), a Day 2 of four, a top cut of two.
Round 1 holds a mirror (a3-a4), round 2 an intentional draw (a2-b2, 0-0-0, unmarked),
Day 2 an unintentional draw (c1-a4, 1-1).

Intervals are the literal 95% Wilson bounds, taken from scipy.stats.binomtest's
``proportion_ci(method="wilson")`` (another implementation than ours), to six places.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metagame.report import MIN_CELL, OTHER, OTHER_NAME, Proportion, metagame_report

WILSON = {
    (4, 12): (0.138120, 0.609378),
    (3, 12): (0.088942, 0.532305),
    (2, 12): (0.046965, 0.448031),
    (2, 4): (0.150039, 0.849961),
    (1, 4): (0.045587, 0.699358),
    (0, 4): (0.000000, 0.489891),
    (1, 3): (0.061492, 0.792340),
    (0, 2): (0.000000, 0.657620),
    (1, 2): (0.094531, 0.905469),
    (0, 3): (0.000000, 0.561497),
    (4, 8): (0.215216, 0.784784),
    (2, 7): (0.082219, 0.641066),
    (2, 6): (0.096771, 0.700007),
    (2, 3): (0.207660, 0.938508),
    (11, 21): (0.323695, 0.716560),
    (8, 20): (0.218807, 0.613418),
    (7, 15): (0.248095, 0.698830),
    (5, 8): (0.305742, 0.863156),
    (3, 4): (0.300642, 0.954413),
    (0, 1): (0.000000, 0.793451),
    (1, 1): (0.206549, 1.000000),
    (3, 5): (0.230724, 0.882379),
}

PLAYERS = {
    **{p: "A" for p in ("a1", "a2", "a3", "a4")},
    **{p: "B" for p in ("b1", "b2", "b3")},
    **{p: "C" for p in ("c1", "c2", "c3")},
    **{p: "D" for p in ("d1", "d2")},
}


def m(a, b, winner, ga, gb, gd=0, phase="day1", **extra):
    return {
        "a": a,
        "b": b,
        "winner": winner,
        "games_a": ga,
        "games_b": gb,
        "games_drawn": gd,
        "phase": phase,
        **extra,
    }


MATCHES = [
    # Day 1, round 1
    m("a1", "b1", "a1", 2, 1),  # 1  A beats B
    m("a2", "c1", "c1", 0, 2),  # 2  C beats A
    m("a3", "a4", "a3", 2, 0),  # 3  mirror: left out
    m("b2", "c2", None, 1, 1, 1),  # 4  B draws C, a drawn game
    m("b3", "d1", "b3", 2, 1),  # 5  B beats D
    m("c3", "d2", "d2", 1, 2),  # 6  D beats C
    # Day 1, round 2 (d2 dropped)
    m("a1", "c1", "a1", 2, 0),  # 7  A beats C
    m("b1", "d1", "d1", 0, 2),  # 8  D beats B
    m("a2", "b2", None, 0, 0),  # 9  0-0-0 draw: intentional, left out
    m("a3", "c2", "c2", 1, 2),  # 10 C beats A
    m("a4", "b3", "a4", 2, 1),  # 11 A beats B
    m("c3", None, "c3", 2, 0),  # 12 bye: left out
    # Day 2
    m("a1", "b3", "b3", 1, 2, phase="day2"),  # 13 B beats A
    m("c1", "a4", None, 1, 1, phase="day2"),  # 14 C draws A (played)
    # Top cut
    m("b3", "a1", "a1", 1, 2, phase="top"),  # 15 A beats B
]
REACHED = {"day2": {"a1", "c1", "b3", "a4"}, "top": {"b3", "a1"}}


def prop(got: Proportion, k: int, n: int) -> None:
    """``got`` is k of n with the literal Wilson bounds."""
    low, high = WILSON[(k, n)]
    assert (got.k, got.n) == (k, n)
    assert got.value == pytest.approx(k / n)
    assert got.low == pytest.approx(low, abs=1e-6)
    assert got.high == pytest.approx(high, abs=1e-6)


@pytest.fixture(scope="module")
def report():
    return metagame_report(PLAYERS, MATCHES, REACHED, names={"A": "Alpha"})


def rows(report):
    return {row.key: row for row in report.rows}


def test_the_field_and_what_was_left_out(report):
    assert (report.players, report.with_archetype, report.folded) == (12, 12, 0)
    assert [row.key for row in report.rows] == ["A", "B", "C", "D"]
    assert [row.name for row in report.rows] == ["Alpha", "B", "C", "D"]
    ex = report.excluded
    assert (ex.byes, ex.intentional_draws, ex.mirrors, ex.without_archetype) == (1, 1, 1, 0)
    assert rows(report)["A"].mirrors == 1
    assert report.min_cell == MIN_CELL == 10


def test_shares(report):
    r = rows(report)
    assert [r[k].players for k in "ABCD"] == [4, 3, 3, 2]
    prop(r["A"].share, 4, 12)
    prop(r["B"].share, 3, 12)
    prop(r["C"].share, 3, 12)
    prop(r["D"].share, 2, 12)


def test_day_two_share_and_conversion(report):
    # Day 2: a1, a4 (A), b3 (B), c1 (C); none of D.
    day2 = {k: row.stages["day2"] for k, row in rows(report).items()}
    assert [day2[k].reached for k in "ABCD"] == [2, 1, 1, 0]
    prop(day2["A"].share, 2, 4)
    prop(day2["B"].share, 1, 4)
    prop(day2["C"].share, 1, 4)
    prop(day2["D"].share, 0, 4)
    prop(day2["A"].conversion, 2, 4)
    prop(day2["B"].conversion, 1, 3)
    prop(day2["C"].conversion, 1, 3)
    prop(day2["D"].conversion, 0, 2)


def test_top_cut_share_and_conversion(report):
    top = {k: row.stages["top"] for k, row in rows(report).items()}
    assert [top[k].reached for k in "ABCD"] == [1, 1, 0, 0]
    prop(top["A"].share, 1, 2)
    prop(top["B"].share, 1, 2)
    prop(top["C"].share, 0, 2)
    prop(top["A"].conversion, 1, 4)
    prop(top["B"].conversion, 1, 3)
    prop(top["C"].conversion, 0, 3)
    prop(top["D"].conversion, 0, 2)


def test_match_win_rates(report):
    r = rows(report)
    # A: wins 1, 7, 11, 15; losses 2, 10, 13; draw 14 -> 4-3-1.
    # B: wins 5, 13; losses 1, 8, 11, 15; draw 4 -> 2-4-1.
    # C: wins 2, 10; losses 6, 7; draws 4, 14 -> 2-2-2.  D: wins 6, 8; loss 5 -> 2-1-0.
    expected = {"A": (4, 3, 1), "B": (2, 4, 1), "C": (2, 2, 2), "D": (2, 1, 0)}
    for key, (w, lost, d) in expected.items():
        record = r[key].matches
        assert (record.wins, record.losses, record.draws, record.n) == (w, lost, d, w + lost + d)
        prop(record.rate, w, w + lost + d)
        assert record.small


def test_game_win_rates(report):
    r = rows(report)
    # A won 2+0+2+1+2+1+1+2 = 11, lost 1+2+0+2+1+2+1+1 = 10 (matches 1 2 7 10 11 13 14 15).
    # B won 1+1+2+0+1+2+1 = 8, lost 2+1+1+2+2+1+2 = 11, drew 1 (matches 1 4 5 8 11 13 15).
    # C won 2+1+1+0+2+1 = 7, lost 0+1+2+2+1+1 = 7, drew 1 (matches 2 4 6 7 10 14).
    # D won 1+2+2 = 5, lost 2+1+0 = 3 (matches 5 6 8).
    expected = {"A": (11, 10, 0), "B": (8, 11, 1), "C": (7, 7, 1), "D": (5, 3, 0)}
    for key, (w, lost, d) in expected.items():
        games = r[key].games
        assert (games.wins, games.losses, games.draws) == (w, lost, d)
        prop(games.rate, w, w + lost + d)
    assert not r["A"].games.small  # 21 games


def test_matchup_matrix(report):
    cells = {(c.key, c.opponent): c.record for c in report.matrix}
    assert len(cells) == 12  # 4 x 3 ordered pairs, no diagonal
    expected = {
        ("A", "B"): (3, 1, 0),  # 1 W, 11 W, 13 L, 15 W
        ("A", "C"): (1, 2, 1),  # 2 L, 7 W, 10 L, 14 D
        ("A", "D"): (0, 0, 0),
        ("B", "A"): (1, 3, 0),
        ("B", "C"): (0, 0, 1),  # 4 D
        ("B", "D"): (1, 1, 0),  # 5 W, 8 L
        ("C", "A"): (2, 1, 1),
        ("C", "B"): (0, 0, 1),
        ("C", "D"): (0, 1, 0),  # 6 L
        ("D", "A"): (0, 0, 0),
        ("D", "B"): (1, 1, 0),
        ("D", "C"): (1, 0, 0),
    }
    for pair, (w, lost, d) in expected.items():
        cell = cells[pair]
        assert (cell.wins, cell.losses, cell.draws, cell.n) == (w, lost, d, w + lost + d), pair
        assert cell.small
        if cell.n:
            prop(cell.rate, w, cell.n)
        else:
            assert (cell.rate.value, cell.rate.low, cell.rate.high) == (None, 0.0, 1.0)


def test_one_phase_only():
    day1 = metagame_report(PLAYERS, MATCHES, REACHED, phases={"day1"})
    a = rows(day1)["A"].matches
    # A on Day 1: 1 W, 2 L, 7 W, 10 L, 11 W.
    assert (a.wins, a.losses, a.draws) == (3, 2, 0)
    prop(a.rate, 3, 5)
    assert day1.phases == ("day1",)
    assert day1.excluded.byes == 1


def test_an_intentional_draw_is_left_out_when_marked_and_a_played_draw_counts():
    players = {"p": "X", "q": "X", "r": "Y", "s": "Y"}
    marked = m("p", "r", None, 0, 0, 3, intentional_draw=True)
    played = m("q", "s", None, 0, 0, 1, intentional_draw=False)
    unmarked_played = m("p", "s", None, 1, 1)
    got = metagame_report(players, [marked, played, unmarked_played])
    x = rows(got)["X"].matches
    assert (x.wins, x.losses, x.draws) == (0, 0, 2)
    assert got.excluded.intentional_draws == 1


def test_a_cell_of_one_is_folded_into_other_everywhere():
    players = {
        "p1": "XRAY",
        "p2": "XRAY",
        "q1": "YANKEE",
        "q2": "YANKEE",
        "z1": "ZEBRA",
        "w1": "WHISKEY",
        "n1": None,
    }
    matches = [
        m("z1", "p1", "z1", 2, 0),
        m("w1", "z1", "w1", 2, 1),  # Other against Other: a mirror now
        m("q1", "n1", "q1", 2, 0),  # against no list: the row counts it, no cell
        m("p2", "q2", "q2", 0, 2),
    ]
    got = metagame_report(players, matches, {"top": {"z1", "q1"}})
    text = json.dumps(got.as_dict())
    assert "ZEBRA" not in text and "WHISKEY" not in text
    r = rows(got)
    assert [row.key for row in got.rows] == ["XRAY", "YANKEE", OTHER]
    assert r[OTHER].name == OTHER_NAME
    assert (r[OTHER].players, got.folded, got.with_archetype, got.players) == (2, 2, 6, 7)
    assert r[OTHER].stages["top"].reached == 1
    assert (r[OTHER].matches.wins, r[OTHER].mirrors) == (1, 1)
    assert (r["YANKEE"].matches.wins, r["YANKEE"].matches.n) == (2, 2)
    cells = {(c.key, c.opponent): c.record for c in got.matrix}
    assert (cells[(OTHER, "XRAY")].wins, cells[("XRAY", OTHER)].losses) == (1, 1)
    assert (cells[("YANKEE", "XRAY")].wins, cells[("YANKEE", "XRAY")].n) == (1, 1)
    assert got.excluded.without_archetype == 1


def test_only_the_most_played_keep_their_names_when_asked():
    got = metagame_report(PLAYERS, MATCHES, REACHED, most=2)
    r = rows(got)
    # A (4) first; B and C tie on 3, B comes first by key; C and D join Other.
    assert [row.key for row in got.rows] == ["A", "B", OTHER]
    assert (r[OTHER].players, got.folded) == (5, 2)
    # Other's mirrors: c3-d2 (match 6); A against Other: 2 L, 7 W, 10 L, 14 D.
    assert r[OTHER].mirrors == 1
    cell = next(c.record for c in got.matrix if (c.key, c.opponent) == ("A", OTHER))
    assert (cell.wins, cell.losses, cell.draws) == (1, 2, 1)


def test_a_winner_outside_the_match_is_refused():
    with pytest.raises(ValueError, match="not a player of the match"):
        metagame_report({"p": "X", "q": "Y"}, [m("p", "q", "r", 2, 0)])


def test_the_report_is_json_ready(report):
    again = json.loads(json.dumps(report.as_dict()))
    assert again["rows"][0]["share"] == {
        "k": 4,
        "n": 12,
        "value": pytest.approx(1 / 3),
        "low": pytest.approx(0.138120, abs=1e-6),
        "high": pytest.approx(0.609378, abs=1e-6),
    }


# --- Properties over random events ----------------------------------------------------

KEYS = ["A", "B", "C", "D", "E", None]


@st.composite
def events(draw):
    size = draw(st.integers(2, 24))
    players = {p: draw(st.sampled_from(KEYS)) for p in range(size)}
    matches = []
    for _ in range(draw(st.integers(0, 40))):
        a = draw(st.integers(0, size - 1))
        b = draw(st.one_of(st.none(), st.integers(0, size - 1).filter(lambda x, a=a: x != a)))
        winner = draw(st.sampled_from([a, b, None])) if b is not None else a
        games = [draw(st.integers(0, 2)) for _ in range(3)]
        matches.append(
            m(a, b, winner, *games, phase=draw(st.sampled_from(["day1", "day2", "top"])))
        )
    top = draw(st.sets(st.integers(0, size - 1)))
    return players, matches, {"top": top}


@settings(max_examples=150, deadline=None)
@given(events())
def test_the_matrix_is_antisymmetric_and_the_rows_hold_it(event):
    players, matches, reached = event
    got = metagame_report(players, matches, reached)
    cells = {(c.key, c.opponent): c.record for c in got.matrix}
    for (key, opponent), record in cells.items():
        other = cells[(opponent, key)]
        assert (record.wins, record.losses, record.draws) == (
            other.losses,
            other.wins,
            other.draws,
        )
        assert record.small == (record.n < MIN_CELL)
        if record.n:
            assert record.rate.low <= record.rate.value <= record.rate.high
    for row in got.rows:
        assert sum(c.record.n for c in got.matrix if c.key == row.key) <= row.matches.n
        assert row.players >= 2 or row.key == OTHER
    assert sum(row.players for row in got.rows) == got.with_archetype


@settings(max_examples=50, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_the_order_of_the_input_changes_nothing(event, rng: random.Random):
    players, matches, reached = event
    shuffled_players = list(players.items())
    rng.shuffle(shuffled_players)
    shuffled_matches = list(matches)
    rng.shuffle(shuffled_matches)
    assert metagame_report(dict(shuffled_players), shuffled_matches, reached) == (
        metagame_report(players, matches, reached)
    )


def test_a_phase_names_what_the_whole_event_names():
    """The top cut holds one player of A: A keeps its name there, because two players
    played it in the event; B, one player's deck in the whole event, stays Other."""
    event = {1: "A", 2: "A", 3: "B", 4: "C", 5: "C"}
    top = {1: "A", 3: "B", 4: "C"}
    matches = [{"a": 1, "b": 3, "winner": 1, "games_a": 2, "games_b": 0, "phase": "top_cut"}]
    phase = metagame_report(top, matches, phases=["top_cut"], field=event).as_dict()
    assert [row["key"] for row in phase["rows"]] == ["A", "C", OTHER]
    assert [row["players"] for row in phase["rows"]] == [1, 1, 1]
    alone = metagame_report(top, matches, phases=["top_cut"]).as_dict()
    assert [row["key"] for row in alone["rows"]] == [OTHER]
