"""The Swiss engine against an independent exact solver, on random and simulated events.

The reference here knows nothing of score groups: it runs one blossom matching
(rustworkx) on the full graph of the players to pair, rematch edges left out (or
heavily penalised when no rematch-free pairing exists), and checks every rule of the
contract on the engine's output. ``check_pairing`` is also used by the other Swiss
test modules. Pairs the organiser keeps apart (``avoid``) are rematch edges to the
reference, as the engine documents: one forbidden pair each, rematch or not.
"""

from __future__ import annotations

import random
from typing import Any

import rustworkx as rx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.simulator import simulate
from pairing.swiss import pair_state
from pairing.verify import verify

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


def _min_cost(
    points: list[Any], played: list[set[int]], rematch_penalty: bool
) -> tuple[int, Any, int] | None:
    """(rematches, cost, height) of the best perfect pairing, or None if there is none.

    ``height`` is the contract's tie-break: each pair-down counts the number of score
    levels below its higher player.
    """
    n = len(points)
    levels = sorted(set(points))
    below = {value: i for i, value in enumerate(levels)}
    spread = (max(points) - min(points)) if points else 0
    height_unit = n * len(levels) + 1
    rematch_unit = (spread * spread + 1) * height_unit * (n + 1)
    ceiling = rematch_unit + (spread * spread + 1) * height_unit
    edges = []
    for i in range(n):
        for j in range(i + 1, n):
            rematch = j in played[i]
            if rematch and not rematch_penalty:
                continue
            diff = points[i] - points[j]
            height = below[max(points[i], points[j])] if diff else 0
            cost = rematch * rematch_unit + diff * diff * height_unit + height
            edges.append((i, j, ceiling - cost))
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.extend_from_weighted_edge_list(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(matching) != n // 2:
        return None
    rematches = sum(1 for i, j in matching if j in played[i])
    cost = sum((points[i] - points[j]) ** 2 for i, j in matching)
    height = sum(below[max(points[i], points[j])] for i, j in matching if points[i] != points[j])
    return rematches, cost, height


def _solve_rest(active: list[dict], leave_out: Any, penalty: bool) -> tuple[int, Any, int] | None:
    rest = [p for p in active if p["id"] != leave_out]
    index = {p["id"]: i for i, p in enumerate(rest)}
    played: list[set[int]] = [set() for _ in rest]
    for i, p in enumerate(rest):
        for opponent in [*p["opponents"], *p.get("avoid", ())]:
            j = index.get(opponent)
            if j is not None and j != i:
                played[i].add(j)
                played[j].add(i)
    return _min_cost([p["points"] for p in rest], played, penalty)


def _key(value: Any) -> tuple[str, Any]:
    return (type(value).__name__, value)


def check_pairing(state: dict, out: dict) -> None:
    """Assert every rule of the contract, optimality included, on one engine output, and
    have the standard-library checker prove the same cost (asking the engine for the
    certificate where the output has none: the pairing must not change with it)."""
    if "certificate" not in out:
        proven = pair_state(state, certificate=True)
        assert (proven["pairings"], proven["bye"]) == (out["pairings"], out["bye"])
        out = {**out, "certificate": proven["certificate"]}
    assert verify(state, out)["cost"] == out["stats"]["cost"]
    players = state["players"]
    rank = {}
    for position, p in sorted(enumerate(players), key=lambda item: -item[1]["points"]):
        rank[_key(p["id"])] = len(rank), position
    active = [p for p in players if not p.get("dropped", False)]
    active.sort(key=lambda p: rank[_key(p["id"])])
    by_id = {_key(p["id"]): p for p in active}
    opponents: dict[Any, set] = {}
    avoided: dict[Any, set] = {}
    for p in active:
        for seen, listed in ((opponents, p["opponents"]), (avoided, p.get("avoid", ()))):
            seen.setdefault(_key(p["id"]), set()).update(_key(o) for o in listed)
            for o in listed:
                seen.setdefault(_key(o), set()).add(_key(p["id"]))

    def forbidden(a: Any, b: Any) -> bool:
        return _key(b) in opponents[_key(a)] or _key(b) in avoided.get(_key(a), ())

    # Every active player exactly once (or the bye), ids back exactly as given.
    seen = [_key(x) for pair in out["pairings"] for x in pair]
    if out["bye"] is not None:
        seen.append(_key(out["bye"]))
    assert sorted(seen, key=repr) == sorted(by_id, key=repr)
    assert (out["bye"] is None) == (len(active) % 2 == 0)

    # Higher-ranked first; tables by best records first.
    def points_of(x: Any) -> Any:
        return by_id[_key(x)]["points"]

    for a, b in out["pairings"]:
        assert rank[_key(a)] < rank[_key(b)]
    table_keys = [(-points_of(a), -points_of(b), rank[_key(a)]) for a, b in out["pairings"]]
    assert table_keys == sorted(table_keys)

    assert out["stats"]["rematches"] == sum(
        1 for a, b in out["pairings"] if _key(b) in opponents[_key(a)]
    )
    together = sum(1 for a, b in out["pairings"] if _key(b) in avoided.get(_key(a), ()))
    if any("avoid" in p and p["avoid"] for p in players):
        assert out["stats"]["avoided"] == together
    else:
        assert "avoided" not in out["stats"]
    # Rematches and avoided pairs weigh the same: one forbidden pair each.
    rematches = sum(1 for a, b in out["pairings"] if forbidden(a, b))
    cost = sum((points_of(a) - points_of(b)) ** 2 for a, b in out["pairings"])
    assert out["stats"]["cost"] == cost
    downs = sum(1 for a, b in out["pairings"] if points_of(a) != points_of(b))
    assert out["stats"]["pair_downs"] == downs

    # Explanations: one for every pair-down, rematch and avoided pair; a reason for the bye.
    explained = {tuple(map(_key, e["pair"])): e for e in out["explanations"]}
    for a, b in out["pairings"]:
        needs = points_of(a) != points_of(b) or forbidden(a, b)
        assert ((_key(a), _key(b)) in explained) == needs
        kinds = [n["kind"] for n in explained.get((_key(a), _key(b)), {"notes": []})["notes"]]
        assert ("avoid" in kinds) == (_key(b) in avoided.get(_key(a), ()))
    assert all(e["reason"] for e in out["explanations"])
    assert (out["bye_reason"] is not None) == (out["bye"] is not None)

    # The bye rule and optimality, against the full-graph blossom.
    if out["bye"] is None:
        best = _solve_rest(active, object(), penalty=False)
        if best is None:
            best = _solve_rest(active, object(), penalty=True)
        assert best is not None
        assert (rematches, cost, _height(out, points_of)) == best
        return
    lowest_first = list(reversed(active))
    order = [p for p in lowest_first if not p.get("had_bye", False)]
    order += [p for p in lowest_first if p.get("had_bye", False)]
    bye_at = [_key(p["id"]) for p in order].index(_key(out["bye"]))
    if rematches == 0:
        # Everyone preferred to the bye would have left the rest unpairable.
        for p in order[:bye_at]:
            assert _solve_rest(active, p["id"], penalty=False) is None, p["id"]
        best = _solve_rest(active, out["bye"], penalty=False)
        assert best == (0, cost, _height(out, points_of))
    else:
        results = [_solve_rest(active, p["id"], penalty=True) for p in order]
        assert all(r is not None and r[0] > 0 for r in results)
        fewest = min(r[0] for r in results)
        assert bye_at == [r[0] for r in results].index(fewest)
        assert results[bye_at][:2] == (rematches, cost)


def _height(out: dict, points_of: Any) -> int:
    paired = {points_of(x) for pair in out["pairings"] for x in pair}
    below = {value: i for i, value in enumerate(sorted(paired))}
    return sum(
        below[max(points_of(a), points_of(b))]
        for a, b in out["pairings"]
        if points_of(a) != points_of(b)
    )


def check_event(players: int, rounds: int, seed: int, **options: Any) -> None:
    for state in simulate(players, rounds, seed, **options):
        check_pairing(state, pair_state(state, certificate=True))


@settings(max_examples=25, **SETTINGS)
@given(
    players=st.integers(2, 160),
    rounds=st.integers(1, 9),
    seed=st.integers(0, 2**31),
    draw_rate=st.sampled_from([0.0, 0.05, 0.3]),
    drop_rate=st.sampled_from([0.0, 0.03, 0.1]),
    int_ids=st.booleans(),
)
def test_simulated_events_are_optimal(players, rounds, seed, draw_rate, drop_rate, int_ids):
    check_event(players, rounds, seed, draw_rate=draw_rate, drop_rate=drop_rate, int_ids=int_ids)


@settings(max_examples=60, **SETTINGS)
@given(
    players=st.integers(1, 12),
    rounds=st.integers(1, 14),
    seed=st.integers(0, 2**31),
    draw_rate=st.sampled_from([0.0, 0.3]),
    drop_rate=st.sampled_from([0.0, 0.1]),
)
def test_small_events_run_out_of_fresh_opponents(players, rounds, seed, draw_rate, drop_rate):
    """Small events played past the point where rematch-free pairings exist."""
    check_event(players, rounds, seed, draw_rate=draw_rate, drop_rate=drop_rate)


@st.composite
def crafted_states(draw: st.DrawFn) -> dict:
    """Random states with hard structure: few score levels, and histories made of
    pairings between neighbours in the standings, so that groups hold near-cliques of
    players who have all met (the situation at the top tables late in an event)."""
    n = draw(st.integers(2, 130))
    r = draw(st.integers(0, 5))
    levels = draw(st.integers(1, 5))
    rng = random.Random(draw(st.integers(0, 2**31)))
    points = sorted((rng.randrange(levels) * 3 for _ in range(n)), reverse=True)
    played: list[set[int]] = [set() for _ in range(n)]
    for _ in range(r):
        window = rng.choice([2, 4, 8, n])
        order = list(range(n))
        for start in range(0, n, window):  # shuffle within windows: neighbours meet
            chunk = order[start : start + window]
            rng.shuffle(chunk)
            order[start : start + window] = chunk
        for i in range(0, n - 1, 2):
            played[order[i]].add(order[i + 1])
            played[order[i + 1]].add(order[i])
    ids: list[Any] = (
        rng.sample(range(1000), n) if rng.random() < 0.5 else [f"x{i}" for i in range(n)]
    )
    return {
        "round": r + 1,
        "seed": rng.randrange(2**31),
        "players": [
            {
                "id": ids[v],
                "points": points[v],
                "opponents": [ids[w] for w in sorted(played[v])],
                # A bye took one of the r rounds: only for who has met fewer than r.
                "had_bye": len(played[v]) < r and rng.random() < 0.3,
                "dropped": rng.random() < 0.05,
                "rating": 1500,
            }
            for v in range(n)
        ],
    }


@settings(max_examples=80, **SETTINGS)
@given(crafted_states())
def test_crafted_states_are_optimal(state):
    check_pairing(state, pair_state(state, certificate=True))


@st.composite
def veteran_states(draw: st.DrawFn) -> dict:
    """Fields whose histories differ wildly between players: most have met a few
    neighbours, a few veterans (a league's regulars, an open entry's early starters)
    have met dozens, anywhere in the standings or near their own score. The solver
    sizes its decomposition by each player's own history, which these states test."""
    n = draw(st.integers(20, 220))
    r = draw(st.integers(0, 3))
    levels = draw(st.integers(2, 6))
    rng = random.Random(draw(st.integers(0, 2**31)))
    points = sorted((rng.randrange(levels) * 3 for _ in range(n)), reverse=True)
    played: list[set[int]] = [set() for _ in range(n)]
    for _ in range(r):
        order = list(range(n))
        rng.shuffle(order)
        for i in range(0, n - 1, 2):
            played[order[i]].add(order[i + 1])
            played[order[i + 1]].add(order[i])
    veterans = rng.sample(range(n), draw(st.integers(1, 3)))
    for v in veterans:
        near = rng.random() < 0.5  # met their own score's regulars, or anyone
        pool = [w for w in range(n) if w != v and (not near or abs(points[w] - points[v]) <= 3)]
        for w in rng.sample(pool, min(len(pool), draw(st.integers(5, 80)))):
            played[v].add(w)
            played[w].add(v)
    byes = {v for v in range(n) if rng.random() < 0.2}
    rounds_played = max(len(played[v]) + (v in byes) for v in range(n))
    ids = [f"p{i}" for i in range(n)]
    return {
        "round": rounds_played + 1,
        "seed": rng.randrange(2**31),
        "players": [
            {
                "id": ids[v],
                "points": points[v],
                "opponents": [ids[w] for w in sorted(played[v])],
                "had_bye": v in byes,
                "dropped": rng.random() < 0.03,
                "rating": 1500,
            }
            for v in range(n)
        ],
    }


@settings(max_examples=120, **SETTINGS)
@given(veteran_states())
def test_veterans_among_newcomers_are_paired_optimally(state):
    check_pairing(state, pair_state(state, certificate=True))
