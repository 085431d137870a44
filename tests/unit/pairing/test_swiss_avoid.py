"""Pairs that must not meet (``avoid``): the engine against the full-graph optimum.

The organiser lists pairs of players who must not meet (family, teammates). The engine
treats each such pair as a rematch, inside the same exact optimisation; here every
output is checked by ``check_pairing`` against one blossom matching on the full graph,
where avoided pairs are rematch edges, and an avoided pair only ever meets when no
pairing free of rematches and avoided pairs exists.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.simulator import simulate
from pairing.swiss import (
    AvoidNote,
    SwissInputError,
    SwissPlayer,
    note_from_dict,
    pair,
    pair_state,
)
from tests.unit.pairing.test_swiss_optimal import SETTINGS, _solve_rest, check_pairing

# The digest of the engine's outputs on simulated events (``seconds`` left out),
# recorded with the engine as it was before ``avoid`` existed (commit 54c636b): inputs
# without an avoid list must give byte-identical pairings, stats and explanations.
BEFORE_AVOID = "9fc3938442882e390981facdb87d760d79567547ab59765ca89c230975ba8ad2"


def _with_avoid(state: dict, count: int, rng: random.Random, *, one_sided: bool = True) -> dict:
    """The state plus ``count`` random avoided pairs, each listed by one side or both."""
    players = [dict(p, avoid=list(p.get("avoid", []))) for p in state["players"]]
    if len(players) < 2:
        return {**state, "players": players}
    for _ in range(count):
        a, b = rng.sample(range(len(players)), 2)
        players[a]["avoid"].append(players[b]["id"])
        if not one_sided or rng.random() < 0.3:
            players[b]["avoid"].append(players[a]["id"])
    return {**state, "players": players}


def _check_avoid_kept(state: dict, out: dict) -> None:
    """An avoided pair meets only when no pairing free of forbidden pairs exists."""
    if out["stats"].get("avoided", 0) == 0:
        return
    active = [p for p in state["players"] if not p.get("dropped", False)]
    if out["bye"] is None:
        assert _solve_rest(active, object(), penalty=False) is None
    else:
        for p in active:
            assert _solve_rest(active, p["id"], penalty=False) is None, p["id"]


@st.composite
def small_fields(draw: st.DrawFn) -> dict:
    """Small fields with a rematch history and avoid lists, often too many to avoid."""
    n = draw(st.integers(2, 14))
    r = draw(st.integers(0, 4))
    rng = random.Random(draw(st.integers(0, 2**31)))
    levels = draw(st.integers(1, 4))
    points = sorted((rng.randrange(levels) * 3 for _ in range(n)), reverse=True)
    played: list[set[int]] = [set() for _ in range(n)]
    for _ in range(r):
        order = list(range(n))
        rng.shuffle(order)
        for i in range(0, n - 1, 2):
            played[order[i]].add(order[i + 1])
            played[order[i + 1]].add(order[i])
    ids: list[Any] = (
        rng.sample(range(100), n) if rng.random() < 0.5 else [f"a{i}" for i in range(n)]
    )
    avoid: list[list[Any]] = [[] for _ in range(n)]
    for _ in range(draw(st.integers(0, n * 2))):
        a, b = rng.sample(range(n), 2)
        avoid[a].append(ids[b])
    if n and rng.random() < 0.2:
        avoid[0].append(ids[0])  # avoiding oneself is ignored
    if n and rng.random() < 0.2:
        avoid[-1].append("nobody-here")  # unknown ids are ignored, as in "opponents"
    return {
        "round": r + 1,
        "seed": rng.randrange(2**31),
        "players": [
            {
                "id": ids[v],
                "points": points[v],
                "opponents": [ids[w] for w in sorted(played[v])],
                "had_bye": len(played[v]) < r and rng.random() < 0.3,
                "dropped": rng.random() < 0.05,
                "avoid": avoid[v],
            }
            for v in range(n)
        ],
    }


@settings(max_examples=200, **SETTINGS)
@given(small_fields())
def test_small_fields_with_avoided_pairs_are_optimal(state):
    out = pair_state(state)
    check_pairing(state, out)
    _check_avoid_kept(state, out)


@settings(max_examples=25, **SETTINGS)
@given(
    players=st.integers(8, 140),
    rounds=st.integers(1, 8),
    pairs=st.integers(1, 40),
    seed=st.integers(0, 2**31),
)
def test_simulated_events_with_avoided_pairs_are_optimal(players, rounds, pairs, seed):
    rng = random.Random(seed)
    for state in simulate(players, rounds, seed, draw_rate=0.05, drop_rate=0.03):
        state = _with_avoid(state, pairs, rng)
        out = pair_state(state)
        check_pairing(state, out)
        _check_avoid_kept(state, out)


def test_inputs_without_avoid_lists_pair_exactly_as_before():
    digest = hashlib.sha256()
    for players, rounds, seed, ints in ((7, 8, 1, False), (64, 7, 2, True), (301, 9, 3, False)):
        for state in simulate(players, rounds, seed, int_ids=ints, draw_rate=0.1, drop_rate=0.05):
            out = pair_state(state)
            out["stats"].pop("seconds")
            digest.update(json.dumps(state, sort_keys=True).encode())
            digest.update(json.dumps(out).encode())
    assert digest.hexdigest() == BEFORE_AVOID


def test_empty_avoid_lists_change_nothing_but_the_count():
    state = next(s for i, s in enumerate(simulate(40, 3, 7)) if i == 2)
    plain = pair_state(state)
    listed = pair_state({**state, "players": [dict(p, avoid=[]) for p in state["players"]]})
    for out in (plain, listed):
        out["stats"].pop("seconds")
    assert "avoided" not in plain["stats"]
    assert listed["stats"].pop("avoided", None) is None  # empty lists: no avoid at all
    assert listed == plain


def test_same_input_and_seed_give_the_same_pairing():
    state = _with_avoid(next(iter(simulate(64, 1, 3))), 20, random.Random(1))
    first, second = pair_state(state), pair_state(state)
    for out in (first, second):
        out["stats"].pop("seconds")
    assert first == second


def test_forced_avoided_pair_is_explained():
    out = pair_state(
        {
            "round": 1,
            "seed": 5,
            "players": [
                {"id": "ann", "points": 0, "opponents": [], "avoid": ["bob"]},
                {"id": "bob", "points": 0, "opponents": []},
            ],
        }
    )
    assert out["pairings"] == [["ann", "bob"]]
    assert out["stats"]["avoided"] == 1
    (explanation,) = out["explanations"]
    assert explanation["notes"] == [{"kind": "avoid", "forced": True}]
    assert "kept apart by the organiser" in explanation["reason"]
    assert note_from_dict(explanation["notes"][0]) == AvoidNote(forced=True)


def test_bye_goes_past_a_player_whose_removal_would_force_an_avoided_pair():
    # A bye for c would make a and b (kept apart) meet, one for b a rematch of a and c.
    players = [
        SwissPlayer("a", 3, ("c",), avoid=("b",)),
        SwissPlayer("b", 3, ()),
        SwissPlayer("c", 0, ("a",)),
    ]
    result = pair(players, 2, seed=1)
    assert result.bye == "a"
    assert result.pairings == [("b", "c")]
    assert result.bye_note is not None and result.bye_note.skipped == ("c", "b")
    assert result.stats["avoided"] == result.stats["rematches"] == 0


def test_typed_players_take_avoid_as_a_tuple():
    players = [SwissPlayer(i, 0, (), avoid=(i ^ 1,)) for i in range(6)]
    result = pair(players, 1, seed=3)
    assert all(b != a ^ 1 for a, b in result.pairings)
    assert result.stats["avoided"] == 0


@pytest.mark.parametrize(
    ("avoid", "message"),
    [
        ("b", '"avoid" must be a list, got "b"'),
        ([None], '"avoid" must list player ids (strings or integers), got null'),
        ([1.5], '"avoid" must list player ids (strings or integers), got 1.5'),
        ([False], '"avoid" must list player ids (strings or integers), got false'),
    ],
)
def test_malformed_avoid_lists_are_refused_naming_the_player(avoid, message):
    state = {
        "round": 1,
        "players": [
            {"id": "a", "points": 0, "opponents": []},
            {"id": "b", "points": 0, "opponents": [], "avoid": avoid},
        ],
    }
    with pytest.raises(SwissInputError) as error:
        pair_state(state)
    assert str(error.value) == f'players[1] (id "b"): {message}'


def test_malformed_typed_avoid_is_refused():
    with pytest.raises(SwissInputError, match=r'players\[0\] \(id "a"\): "avoid" must list'):
        pair([SwissPlayer("a", 0, (), avoid=(None,)), SwissPlayer("b", 0, ())], 1, seed=1)
