"""Standings on small events computed by hand: byes, drops, draws, floors, ties."""

from __future__ import annotations

import pytest

from pairing.standings import (
    StandingsInputError,
    _shown,
    compute_standings,
    standings_from_event,
)


def players(*ids, **flags):
    return [{"id": pid, "name": f"Player {pid}", **flags.get(pid, {})} for pid in ids]


def match(round_number, a, b, *games):
    return {"round": round_number, "players": [a, b], "games": list(games)}


def bye(round_number, pid):
    return {"round": round_number, "players": [pid], "bye": True}


# Round 1: A beats B 2-0, C and D draw 1-1 with a drawn game, E has the bye.
# Round 2: A beats E 2-1, B beats C 2-0, D has the bye, then drops.
FIVE = players("A", "B", "C", "D", "E", D={"dropped": True})
FIVE_MATCHES = [
    match(1, "A", "B", "A", "A"),
    match(1, "C", "D", "C", "D", None),
    bye(1, "E"),
    match(2, "A", "E", "E", "A", "A"),
    match(2, "B", "C", "B", "B"),
    bye(2, "D"),
]


def test_hand_computed_event():
    """MW%: A 1, B 1/2, C 1/6 -> 1/3, D 2/3, E 1/2. GW%: A 12/15, B 6/12, C 4/15 -> 1/3,
    D 10/15, E 9/15 (byes are 2-0 wins). Byes are not opponents; D, dropped, still is one."""
    rows = compute_standings(FIVE, FIVE_MATCHES)
    assert rows == [
        {"rank": 1, "player": "A", "name": "Player A", "match_points": 6, "record": "2-0-0",
         "omw": 0.5, "gw": 0.8, "ogw": 0.55},
        {"rank": 2, "player": "D", "name": "Player D", "match_points": 4, "record": "1-0-1",
         "omw": 0.3333, "gw": 0.6667, "ogw": 0.3333, "dropped": True},
        # E and B tie on 3 points; E's only opponent (A) has the better record.
        {"rank": 3, "player": "E", "name": "Player E", "match_points": 3, "record": "1-1-0",
         "omw": 1.0, "gw": 0.6, "ogw": 0.8},
        {"rank": 4, "player": "B", "name": "Player B", "match_points": 3, "record": "1-1-0",
         "omw": 0.6667, "gw": 0.5, "ogw": 0.5667},
        {"rank": 5, "player": "C", "name": "Player C", "match_points": 1, "record": "0-1-1",
         "omw": 0.5833, "gw": 0.3333, "ogw": 0.5833},
    ]  # fmt: skip


def test_only_byes_means_no_opponents():
    rows = compute_standings(players("A", "B", "C"), [bye(1, "A"), match(1, "B", "C", "B", "B")])
    # A and B both won; B's opponent counts (floored at 1/3), A has none: OMW 0.
    assert [r["player"] for r in rows] == ["B", "A", "C"]
    assert (rows[1]["omw"], rows[1]["gw"], rows[1]["ogw"]) == (0.0, 1.0, 0.0)


def test_each_opponent_is_floored_at_a_third():
    # B loses every game of three matches: MW 0 and GW 0, both count as 1/3 for A.
    ms = [match(1, "A", "B", "A", "A"), match(2, "C", "B", "C", "C"), match(3, "D", "B", "D", "D")]
    rows = {r["player"]: r for r in compute_standings(players("A", "B", "C", "D"), ms)}
    assert rows["A"]["omw"] == rows["A"]["ogw"] == 0.3333
    assert rows["B"]["gw"] == 0.3333  # own GW floored too
    assert rows["B"]["record"] == "0-3-0"


def test_a_match_drawn_on_games_and_an_empty_match():
    ms = [match(1, "A", "B", "A", "B"), match(2, "A", "B")]
    rows = compute_standings(players("A", "B"), ms)
    assert [r["record"] for r in rows] == ["0-0-2", "0-0-2"]
    assert [r["match_points"] for r in rows] == [2, 2]
    assert rows[0]["gw"] == 0.5


def test_players_tied_on_everything_keep_input_order():
    ms = [match(1, "A", "B", "A", "A"), match(1, "C", "D", "C", "C")]
    assert [r["player"] for r in compute_standings(players("C", "A", "B", "D"), ms)] == [
        "C", "A", "B", "D"
    ]  # fmt: skip
    assert [r["rank"] for r in compute_standings(players("C", "A", "B", "D"), ms)] == [1, 2, 3, 4]


def test_disqualified_players_are_marked_and_ranked_last():
    ms = [match(1, "A", "B", "A", "A"), match(2, "A", "C", "C", "C")]
    rows = compute_standings(players("A", "B", "C", C={"disqualified": True}), ms)
    assert [r["player"] for r in rows] == ["A", "B", "C"]
    assert rows[2]["disqualified"] is True and "disqualified" not in rows[0]


def test_registered_players_without_a_match_have_no_row():
    rows = compute_standings(players("A", "B", "ghost"), [match(1, "A", "B", "A", "A")])
    assert [r["player"] for r in rows] == ["A", "B"]


def test_custom_points_and_tiebreakers():
    ms = [match(1, "A", "B", "A", "B", "A"), match(1, "C", "D", "C", "C")]
    rows = compute_standings(
        players("A", "B", "C", "D"),
        ms,
        points={"win": 2, "draw": 1},
        tiebreakers=["match_points", "gw", "oomw"],
    )
    assert [r["player"] for r in rows] == ["C", "A", "B", "D"]
    assert rows[0]["match_points"] == 2
    assert "oomw" in rows[0] and rows[0]["oomw"] == 1.0  # C's opponent D met only C (MW 1)
    by_gw = compute_standings(players("A", "B", "C", "D"), ms, tiebreakers=["gw"])
    assert [r["player"] for r in by_gw] == ["C", "A", "B", "D"]


def test_integer_ids():
    rows = compute_standings([{"id": 1, "name": "One"}, {"id": 2}], [match(1, 1, 2, 1, 1)])
    assert rows[0]["player"] == 1 and rows[1]["name"] == "2"


def test_rounding_is_half_to_even_on_the_exact_value():
    assert _shown(1, 20000) == 0.0  # 0.00005 -> 0.0000
    assert _shown(3, 20000) == 0.0002  # 0.00015 -> 0.0002
    assert _shown(2, 3) == 0.6667
    assert _shown(5, 8) == 0.625


def test_contract_event_document():
    """The arbiter-event/1 example of section 2 gives rows of the section-3 shape."""
    event = {
        "format": "arbiter-event/1",
        "event": {"name": "Iacta Regional Qualifier", "game": "iacta", "swiss_rounds": 5,
                  "points": {"win": 3, "draw": 1, "loss": 0}},
        "players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 6)],
        "rounds": [
            {"number": 1, "kind": "swiss", "matches": [
                {"table": 1, "players": ["p1", "p2"], "games": ["p1", "p2", "p1"]},
                {"table": 2, "players": ["p3", "p4"], "games": ["p3", None, "p3"]},
                {"table": None, "players": ["p5"], "bye": True}]},
            {"number": 2, "kind": "swiss", "matches": [
                {"table": 1, "players": ["p1", "p3"], "games": ["p1", "p1"]},
                {"table": 2, "players": ["p5", "p2"], "games": ["p2", "p2"]},
                {"table": None, "players": ["p4"], "bye": True}]},
            {"number": 3, "kind": "top8", "matches": [
                {"table": 1, "players": ["p1", "p2"], "games": ["p2", "p2"]}]},
        ],
        "drops": [{"player": "p4", "after_round": 2}],
    }  # fmt: skip
    rows = standings_from_event(event)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    first = rows[0]
    assert first["player"] == "p1" and first["name"] == "Player 1"
    assert first["match_points"] == 6 and first["record"] == "2-0-0"
    for row in rows:
        assert {"rank", "player", "name", "match_points", "record", "omw", "gw", "ogw"} <= set(row)
        assert all(isinstance(row[k], float) for k in ("omw", "gw", "ogw"))
        assert all(round(row[k], 4) == row[k] for k in ("omw", "gw", "ogw"))
    assert next(r for r in rows if r["player"] == "p4")["dropped"] is True


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"matches": [match(1, "A", "Z", "A")]},
            "matches[0]: \"players\" names unknown player 'Z'",
        ),
        ({"matches": [match(1, "A", "B", "C")]}, "matches[0]: game winner 'C' is not a player"),
        ({"matches": [match(1, "A", "A")]}, "matches[0]: a match has two different players"),
        ({"matches": [{"round": 1, "players": ["A", "B"], "bye": True}]}, "exactly one player"),
        (
            {"matches": [{"round": 1, "players": ["A", "B"], "games": "AA"}]},
            '"games" must be a list',
        ),
        ({"matches": ["x"]}, "matches[0] must be an object"),
        ({"matches": [bye(1, "A"), match(1, "A", "B")]}, "'A' has two matches in round 1"),
        ({"matches": [], "tiebreakers": ["omw", "coin"]}, "unknown tiebreaker 'coin'"),
        ({"matches": [], "points": {"win": -3}}, '"win" must be a whole number'),
    ],
)
def test_bad_input_names_the_match_and_field(kwargs, message):
    with pytest.raises(StandingsInputError) as error:
        compute_standings(players("A", "B"), **kwargs)
    assert message in str(error.value)


def test_duplicate_player_ids():
    with pytest.raises(StandingsInputError, match="duplicate id"):
        compute_standings(players("A", "A"), [])
