"""The Swiss engine's worst cases, one named test each, plus determinism and explanations."""

from __future__ import annotations

import pytest

from pairing.simulator import simulate
from pairing.swiss import (
    ByeNote,
    DownNote,
    Pairing,
    SwissInputError,
    SwissPlayer,
    pair,
    pair_round,
    pair_state,
)
from tests.unit.pairing.test_swiss_optimal import check_pairing


def player(pid, points=0, opponents=(), had_bye=False, dropped=False, **extra):
    return {
        "id": pid,
        "points": points,
        "opponents": list(opponents),
        "had_bye": had_bye,
        "dropped": dropped,
        **extra,
    }


def state(players, round_number=9, seed=7):
    return {"round": round_number, "seed": seed, "players": players}


def paired(out):
    return {frozenset(pair) for pair in out["pairings"]}


def without_seconds(out):
    return {**out, "stats": {k: v for k, v in out["stats"].items() if k != "seconds"}}


def round_robin(ids):
    """Opponent lists for a group in which everyone has played everyone."""
    return {a: [b for b in ids if b != a] for a in ids}


# --- worst cases -------------------------------------------------------------------------


def test_top_group_has_all_played_each_other():
    """Late in an event the top tables have all met: all of them are paired down."""
    top = [f"t{i}" for i in range(6)]
    met = round_robin(top)
    players = [player(t, 15, met[t]) for t in top]
    players += [player(f"m{i}", 12, [f"z{i}"]) for i in range(40)]
    players += [player(f"z{i}", 9, [f"m{i}"]) for i in range(40)]
    s = state(players, round_number=6)
    out = pair_state(s)
    check_pairing(s, out)
    assert out["stats"]["pair_downs"] == 6
    assert out["stats"]["rematches"] == 0
    for pairing in out["pairings"][:6]:
        assert pairing[0] in top and pairing[1].startswith("m")
    reasons = [e["reason"] for e in out["explanations"]]
    assert all("has already played everyone else on 15 points" in r for r in reasons)


def test_single_undefeated_player():
    players = [player("champ", 12, ["a0", "a1", "a2", "a3"])]
    players += [player(f"a{i}", 9, ["champ"] if i < 4 else []) for i in range(9)]
    players += [player(f"b{i}", 6) for i in range(10)]
    s = state(players, round_number=5)
    out = pair_state(s)
    check_pairing(s, out)
    first = out["pairings"][0]
    assert first[0] == "champ" and first[1] in {f"a{i}" for i in range(4, 9)}
    (explanation, *_) = out["explanations"]
    assert explanation["pair"] == first
    assert explanation["reason"] == "paired down: champ is the only player on 12 points"
    assert explanation["notes"] == [
        {
            "kind": "pair_down",
            "why": "only_one",
            "player": "champ",
            "opponent": first[1],
            "points": 12,
            "pool": 1,
            "between": [],
        }
    ]
    # In Python the same note is typed.
    (typed, *_) = pair_round(s["players"], s["round"], s["seed"]).explanations
    assert list(typed.notes) == [DownNote("only_one", "champ", first[1], 12, 1, ())]


def test_every_player_already_had_a_bye_but_one():
    """The only player without a bye gets it, even ranked first."""
    players = [player("leader", 9)] + [player(f"p{i}", 9 - i % 4, had_bye=True) for i in range(20)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    assert out["bye"] == "leader"
    assert out["bye_reason"] == "bye: lowest-ranked player who has not had a bye"


def test_everyone_had_a_bye():
    players = [player(f"p{i}", 6 - i % 3, had_bye=True) for i in range(7)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    assert out["bye"] == "p5"  # lowest-ranked: 4 points, the later of p2 and p5
    assert out["bye_reason"].startswith("bye: every player has had a bye")
    note = pair_round(s["players"], s["round"], s["seed"]).bye_note
    assert note is not None and note.why == "everyone_had_one" and note.player == "p5"
    assert out["bye_note"] == note.as_dict()


def test_bye_skips_a_player_whose_removal_forces_a_rematch():
    """If e sits out, a (who has met b, c and d) has no one left: d takes the bye."""
    players = [
        player("a", 6, ["b", "c", "d"]),
        player("b", 3, ["a"]),
        player("c", 3, ["a"]),
        player("d", 3, ["a"]),
        player("e", 0, []),
    ]
    s = state(players, round_number=4)
    out = pair_state(s)
    check_pairing(s, out)
    assert out["bye"] == "d"
    assert "(e could not)" in out["bye_reason"]
    assert ["a", "e"] in out["pairings"]
    # The same as data, for callers that word it with names rather than ids.
    assert out["bye_note"] == {"why": "lowest", "player": "d", "had_bye": False, "skipped": ["e"]}
    typed = pair_round(s["players"], s["round"], s["seed"]).bye_note
    assert typed == ByeNote(why="lowest", player="d", had_bye=False, skipped=("e",))


@pytest.mark.parametrize("count", [0, 1, 3, 5, 31])
def test_odd_and_tiny_counts(count):
    players = [player(i, (i * 7) % 4) for i in range(count)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    assert len(out["pairings"]) == count // 2


def test_dropped_players_are_not_paired_but_still_count_as_opponents():
    players = [player("a", 3, ["x"]), player("x", 3, ["a"], dropped=True)]
    players += [player(f"p{i}", 3 * (i % 2)) for i in range(9)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    assert "x" not in {p for pair in out["pairings"] for p in pair}
    assert out["bye"] != "x"


def test_no_rematch_free_pairing_minimises_rematches():
    ids = ["a", "b", "c", "d"]
    met = round_robin(ids)
    s = state([player(i, 3, met[i]) for i in ids], round_number=4)
    out = pair_state(s)
    check_pairing(s, out)
    assert out["stats"]["rematches"] == 2
    assert all(e["reason"].startswith("rematch") for e in out["explanations"])


def test_round_one_with_16384_players_pairs_everyone_at_random():
    """Speed is measured in benchmarks/swiss.py, not asserted here."""
    players = [player(f"p{i}") for i in range(16384)]
    one = pair_round(players, 1, seed=1)
    assert len(one.pairings) == 8192 and one.bye is None
    assert len({p for pair in one.pairings for p in pair}) == 16384
    other = pair_round(players, 1, seed=2)
    assert set(one.pairings) != set(other.pairings)


def test_a_late_round_of_a_big_event_keeps_the_contract():
    *_, s = simulate(4000, 7, seed=11)
    out = pair_state(s)
    assert out["stats"]["rematches"] == 0
    active = {p["id"] for p in s["players"] if not p["dropped"]}
    seen = [p for pair in out["pairings"] for p in pair] + [out["bye"]]
    assert sorted(x for x in seen if x is not None) == sorted(active)


def test_segments_and_linear_part_match_the_full_blossom_at_400_players():
    """Large groups, cores and small groups all in play, against the full-graph optimum."""
    for s in simulate(400, 8, seed=5, draw_rate=0.1):
        if s["round"] in (3, 8):
            check_pairing(s, pair_state(s))


# --- ids, ranks, points ------------------------------------------------------------------


def test_ids_come_back_as_given_including_integers():
    players = [player(1, 3), player("1", 3), player(2, 0), player("two", 0)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    returned = {(type(x), x) for pair in out["pairings"] for x in pair}
    assert returned == {(int, 1), (str, "1"), (int, 2), (str, "two")}


def test_rank_is_points_then_input_order():
    players = [player("low", 0), player("b", 3), player("a", 3), player("mid", 1)]
    out = pair_state(state(players, round_number=1))
    # Points first (low is listed first but ranks last); on equal points b, listed
    # before a, ranks higher and comes first in the pair.
    assert out["pairings"] == [["b", "a"], ["mid", "low"]]


def test_half_points_and_unknown_keys():
    players = [player(f"p{i}", 1.5 * (i % 3), rating=1800, note="x") for i in range(10)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    assert isinstance(out["stats"]["cost"], float)


def test_unknown_opponent_ids_are_ignored():
    s = state([player("a", 0, ["ghost", "b"]), player("b", 0, ["a"]), player("c", 0)])
    out = pair_state(s)
    check_pairing(s, out)


# --- determinism -------------------------------------------------------------------------


def test_same_input_and_seed_give_the_same_pairing():
    for s in simulate(300, 6, seed=3):
        first, second = pair_state(s), pair_state(s)
        assert without_seconds(first) == without_seconds(second)


def test_different_seeds_vary_round_one():
    players = [player(f"p{i}") for i in range(40)]
    pairings = {
        tuple(map(tuple, pair_state(state(players, 1, seed))["pairings"])) for seed in range(6)
    }
    assert len(pairings) == 6


def test_no_seed_draws_one_and_echoes_it_for_replay():
    players = [player(f"p{i}", i % 3) for i in range(21)]
    out = pair_state({"round": 3, "players": players})
    assert isinstance(out["seed"], int)
    replay = pair_state({"round": 3, "players": players, "seed": out["seed"]})
    assert without_seconds(replay) == without_seconds(out)


# --- explanations ------------------------------------------------------------------------


def test_odd_group_explains_its_pair_down():
    players = [player(f"a{i}", 6) for i in range(3)] + [player(f"b{i}", 3) for i in range(3)]
    out = pair_state(state(players))
    (explanation,) = out["explanations"]
    assert explanation["reason"] == "paired down: 3 players to pair on 6 points, an odd number"
    assert out["bye"] is None


def test_everyone_left_has_played_the_floater():
    # a0..a3 on 6 points; a0 has met a1, a2 and a3: a0 must float, and so must one more.
    players = [player("a0", 6, ["a1", "a2", "a3"])]
    players += [player(f"a{i}", 6, ["a0"]) for i in range(1, 4)]
    players += [player(f"b{i}", 3) for i in range(4)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    reasons = {tuple(e["pair"]): e["reason"] for e in out["explanations"]}
    a0_pair = next(pair for pair in out["pairings"] if "a0" in pair)
    assert reasons[tuple(a0_pair)] == "paired down: a0 has already played everyone else on 6 points"
    assert len(reasons) == 2


def test_everyone_left_on_the_points_has_played_the_floater():
    # a0, a1, a2 have all met: one of them pairs with a3, the other two float.
    met = round_robin(["a0", "a1", "a2"])
    players = [player(f"a{i}", 6, met.get(f"a{i}", [])) for i in range(4)]
    players += [player(f"b{i}", 3) for i in range(4)]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    assert len(out["explanations"]) == 2
    for explanation in out["explanations"]:
        floater = explanation["pair"][0]
        assert explanation["reason"] == (
            f"paired down: everyone left on 6 points has already played {floater}"
        )


def test_skipping_a_score_group_says_so():
    players = [player("a", 9, ["b"]), player("b", 6, ["a"])]
    players += [player(x, 3) for x in "cdef"]
    s = state(players)
    out = pair_state(s)
    check_pairing(s, out)
    assert out["explanations"][0]["reason"] == (
        "paired down: a is the only player on 9 points; no one on 6 points was free to play them"
    )


# --- the Python API ----------------------------------------------------------------------


def test_pair_round_returns_plain_data():
    result = pair_round([player("a", 3), player("b", 0), player("c", 0)], 2, seed=5)
    assert isinstance(result, Pairing)
    assert result.bye == "c" and result.pairings == [("a", "b")]
    assert result.as_json()["pairings"] == [["a", "b"]]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("nope", '"players" must be a list'),
        ([player("a"), player("a")], 'players[1] (id "a"): duplicate id'),
        ([{"id": "a", "opponents": []}], 'players[0] (id "a") has no "points"'),
        ([player("a", "9")], 'players[0] (id "a"): "points" must be a number, got "9"'),
        ([player("a", True)], '"points" must be a number, got true'),
        ([player("a", float("nan"))], '"points" must be finite'),
        ([{"id": "a", "points": 1, "opponents": "b"}], '"opponents" must be a list'),
        ([player("a", 0, [["b"]])], '"opponents" must list player ids'),
        ([player("a", had_bye="no")], '"had_bye" must be true or false'),
        ([player(1.5)], '"id" must be a string or an integer, got 1.5'),
        ([{"points": 1}], 'players[0] has no "id"'),
        ([7], "players[0] must be an object, got 7"),
        (
            [player("a", 0, ["b", "c"]), player("b"), player("c")],
            'players[0] (id "a"): impossible history: 2 different opponents need 2 rounds, '
            "but 1 round was played before round 2",
        ),
        (
            [player("b"), player("a", 0, ["b"], had_bye=True)],
            'players[1] (id "a"): impossible history: 1 different opponent and a bye need 2 '
            "rounds, but 1 round was played before round 2",
        ),
    ],
)
def test_bad_input_names_the_player_and_field(players, message):
    with pytest.raises(SwissInputError) as error:
        pair_round(players, 2, seed=1)
    assert message in str(error.value)


def test_bad_round_and_seed():
    with pytest.raises(SwissInputError, match='"round" must be a positive integer'):
        pair_round([], 0)
    with pytest.raises(SwissInputError, match='"seed" must be an integer'):
        pair_round([], 1, seed="x")  # type: ignore[arg-type]
    with pytest.raises(SwissInputError, match='the input has no "players"'):
        pair_state({"round": 1})


def test_the_typed_entry_point_pairs_as_the_contract_dicts_do():
    *_, state = simulate(300, 6, seed=42, draw_rate=0.1, drop_rate=0.05)  # odd: a bye
    typed = [
        SwissPlayer(p["id"], p["points"], tuple(p["opponents"]), p["had_bye"], p["dropped"])
        for p in state["players"]
    ]
    from_typed = pair(typed, state["round"], state["seed"]).as_json()
    from_dicts = pair_state(state)
    from_typed["stats"].pop("seconds")
    from_dicts["stats"].pop("seconds")
    assert from_typed == from_dicts
    assert from_typed["bye"] is not None and from_typed["explanations"]


def test_swiss_player_defaults_and_is_immutable():
    player = SwissPlayer("a", 3, ("b",))
    assert (player.had_bye, player.dropped) == (False, False)
    with pytest.raises(AttributeError):
        player.points = 6  # type: ignore[misc]


def test_the_first_bad_player_is_the_one_named():
    with pytest.raises(SwissInputError, match=r'^players\[0\] \(id "a"\): "points"'):
        pair_round([player("a", "9"), 7, {"points": 1}], 2, seed=1)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("nope", '"players" must be a list'),
        ([{"id": "a", "points": 1, "opponents": []}], "players[0] must be a SwissPlayer"),
        ([SwissPlayer("a", 0, ()), SwissPlayer("a", 0, ())], 'players[1] (id "a"): duplicate id'),
        ([SwissPlayer("a", "9", ())], 'players[0] (id "a"): "points" must be a number, got "9"'),
        ([SwissPlayer("a", float("inf"), ())], '"points" must be finite'),
        ([SwissPlayer("a", 0, "bc")], '"opponents" must be a list'),
        ([SwissPlayer("a", 0, (None,))], '"opponents" must list player ids'),
        ([SwissPlayer("a", 0, (), dropped=1)], '"dropped" must be true or false'),
        ([SwissPlayer(None, 0, ())], '"id" must be a string or an integer, got null'),
        (
            [SwissPlayer("a", 0, ("b", "c")), SwissPlayer("b", 0, ()), SwissPlayer("c", 0, ())],
            'players[0] (id "a"): impossible history: 2 different opponents need 2 rounds',
        ),
        (
            [SwissPlayer("a", 0, ("b",), had_bye=True), SwissPlayer("b", 0, ())],
            'players[0] (id "a"): impossible history: 1 different opponent and a bye need 2',
        ),
    ],
)
def test_typed_bad_input_names_the_player_and_field(players, message):
    with pytest.raises(SwissInputError) as error:
        pair(players, 2, seed=1)
    assert message in str(error.value)


def test_typed_bad_round_and_seed():
    with pytest.raises(SwissInputError, match='"round" must be a positive integer, got true'):
        pair([], True)
    with pytest.raises(SwissInputError, match=r'"seed" must be an integer or null, got 1\.5'):
        pair([], 1, seed=1.5)  # type: ignore[arg-type]
