"""Proofs of optimality: the blossom search's dual values, the engine's certificate, and
the standard-library checker that accepts the engine's rounds and refuses anything else.

The search is compared with rustworkx (an independent matching library) and its dual
values are checked here by brute force over every edge, not by ``pairing.verify``; the
checker is then shown to refuse a costlier pairing, a rematch, a wrong bye and a
certificate changed in any one value.
"""

from __future__ import annotations

import ast
import copy
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import rustworkx as rx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing import solver, verify
from pairing.blossom import NoPerfectMatching, min_cost_perfect_matching
from pairing.simulator import simulate
from pairing.swiss import pair_state
from tests.unit.pairing.test_swiss_optimal import check_pairing

ROOT = Path(__file__).resolve().parents[3]
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


# --- the search ----------------------------------------------------------------------


def _reference_cost(n: int, edges: list[tuple[int, int, int]]) -> int | None:
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    top = max((c for *_, c in edges), default=0) + 1
    graph.extend_from_weighted_edge_list([(a, b, top - c) for a, b, c in edges])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != n:
        return None
    cost = {(min(a, b), max(a, b)): c for a, b, c in edges}
    return sum(cost[(min(a, b), max(a, b))] for a, b in matching)


def _members(solution) -> list[set[int]]:
    """Per blossom, the vertices it holds (children's included)."""
    out: list[set[int]] = [set() for _ in solution.blossoms]

    def collect(i: int) -> set[int]:
        if not out[i]:
            out[i] = set(solution.blossoms[i].vertices)
            for j in solution.blossoms[i].blossoms:
                out[i] |= collect(j)
        return out[i]

    for i in range(len(solution.blossoms)):
        collect(i)
    return out


def _components_after(n, edges, removed) -> list[int]:
    parent = list(range(n))

    def find(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for a, b, _ in edges:
        if a not in removed and b not in removed:
            parent[find(a)] = find(b)
    sizes: dict[int, int] = {}
    for v in range(n):
        if v not in removed:
            sizes[find(v)] = sizes.get(find(v), 0) + 1
    return list(sizes.values())


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 18))
    density = draw(st.floats(0.15, 1.0))
    costs = st.sampled_from([0, 0, 0, 1, 2, 4, 9, 16, 25, 37])
    edges = []
    for a in range(n):
        for b in range(a + 1, n):
            if draw(st.floats(0, 1)) < density:
                edges.append((a, b, draw(costs)))
    free_pairs, used = [], set()
    for a, b, c in edges:
        if c == 0 and a not in used and b not in used and draw(st.booleans()):
            free_pairs.append((a, b))
            used |= {a, b}
    return n, edges, free_pairs


@settings(max_examples=400, **SETTINGS)
@given(graphs())
def test_the_search_is_as_cheap_as_a_matching_library_and_proves_it(graph):
    n, edges, start = graph
    reference = _reference_cost(n, edges)
    try:
        solution = min_cost_perfect_matching(n, edges, start)
    except NoPerfectMatching as failed:
        assert reference is None
        odd = sum(1 for size in _components_after(n, edges, set(failed.barrier)) if size % 2)
        assert odd > len(failed.barrier), "the barrier must prove there is no perfect matching"
        return
    assert reference is not None
    mate = solution.mate
    assert all(mate[mate[v]] == v and mate[v] != v for v in range(n))
    cost = {(min(a, b), max(a, b)): c for a, b, c in edges}
    total = sum(cost[(min(v, mate[v]), max(v, mate[v]))] for v in range(n)) // 2
    assert total == reference
    members = _members(solution)
    for blossom, held in zip(solution.blossoms, members, strict=True):
        assert blossom.z > 0 and len(held) % 2 == 1
    held_by = list(zip(solution.blossoms, members, strict=True))
    for a, b, c in edges:
        shared = sum(bl.z for bl, held in held_by if {a, b} <= held)
        assert solution.y[a] + solution.y[b] - shared <= 2 * c
    bound = sum(solution.y) - sum(
        bl.z * (len(held) - 1) // 2 for bl, held in zip(solution.blossoms, members, strict=True)
    )
    assert bound == 2 * total


def test_a_start_pair_must_be_a_free_edge():
    with pytest.raises(ValueError, match="not a free edge"):
        min_cost_perfect_matching(2, [(0, 1, 3)], [(0, 1)])


# --- the engine's certificate, checked ------------------------------------------------


def _event_states(players: int, rounds: int, seed: int, **options) -> list[dict]:
    return list(simulate(players, rounds, seed, **options))


@pytest.mark.parametrize(
    ("players", "rounds", "options"),
    [
        (64, 6, {}),
        (65, 7, {"int_ids": True}),
        (40, 12, {"draw_rate": 0.2}),
        (120, 9, {"drop_rate": 0.108}),
        (30, 20, {}),
    ],
)
def test_every_round_of_an_event_verifies(players, rounds, options):
    for state in _event_states(players, rounds, 7, **options):
        out = pair_state(state, certificate=True)
        proven = verify.verify(state, out)
        assert proven["cost"] == out["stats"]["cost"]
        assert proven["bye"] == out["bye"]


@settings(max_examples=25, **SETTINGS)
@given(
    players=st.integers(6, 90),
    rounds=st.integers(1, 14),
    seed=st.integers(0, 2**31),
    draw_rate=st.sampled_from([0.0, 0.05, 0.3]),
)
def test_fields_the_decomposition_hands_over_are_paired_optimally(players, rounds, seed, draw_rate):
    """Every segment counts as large, so the search over score groups pairs the round;
    the checker proves it and the full-graph blossom agrees."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "LARGE_SEGMENT", 0)
        for state in simulate(players, rounds, seed, draw_rate=draw_rate):
            check_pairing(state, pair_state(state, certificate=True))


def _paired(players=24, rounds=5, seed=3, **options) -> tuple[dict, dict]:
    state = list(simulate(players, rounds, seed, **options))[-1]
    return state, pair_state(state, certificate=True)


def _refused(state: dict, out: dict) -> str:
    with pytest.raises(verify.Refused) as refused:
        verify.verify(state, out)
    return str(refused.value)


def test_a_valid_but_costlier_pairing_is_refused():
    """Two pairs from different score groups crossed: still everyone once, no rematch,
    but a bigger pair-down; the certificate cannot prove it."""
    state, out = _paired(40, 5, 11)
    points = {p["id"]: p["points"] for p in state["players"]}
    met = {p["id"]: set(p["opponents"]) for p in state["players"]}
    pairs = out["pairings"]
    for i, (a, b) in enumerate(pairs):
        for j in range(i + 1, len(pairs)):
            c, d = pairs[j]
            if points[a] == points[b] and points[c] == points[d] and points[a] > points[c]:
                if b in met[d] or c in met[a]:
                    continue
                worse = copy.deepcopy(out)
                worse["pairings"][i], worse["pairings"][j] = [a, c], [b, d]
                message = _refused(state, worse)
                assert "does not hold" in message or "not tight" in message
                return
    pytest.fail("no two same-score pairs on different points to cross")


def test_a_rematch_is_refused_naming_the_pair():
    state, out = _paired()
    by_id = {p["id"]: p for p in state["players"]}
    a, b = out["pairings"][0]
    c, d = next((c, d) for c, d in out["pairings"][1:] if c in by_id[a]["opponents"])
    bad = copy.deepcopy(out)
    i = bad["pairings"].index([c, d])
    bad["pairings"][0], bad["pairings"][i] = [a, c], [b, d]
    assert _refused(state, bad).startswith(f"rematch: {json.dumps(a)} and {json.dumps(c)}")


def test_a_player_left_out_or_doubled_is_refused():
    state, out = _paired()
    missing = copy.deepcopy(out)
    gone = missing["pairings"].pop()
    assert "neither paired nor given the bye" in _refused(state, missing)
    doubled = copy.deepcopy(out)
    doubled["pairings"][0][1] = doubled["pairings"][1][0]
    assert "and also" in _refused(state, doubled)
    assert gone


def test_the_bye_must_go_to_the_lowest_ranked_player_without_one():
    state, out = _paired(25, 4, 5, drop_rate=0.0)
    assert out["bye"] is not None
    holder = out["bye"]
    met = {p["id"]: set(p["opponents"]) for p in state["players"]}
    i, (a, b) = next(
        (i, pair) for i, pair in enumerate(out["pairings"]) if pair[1] not in met[holder]
    )
    bad = copy.deepcopy(out)
    bad["pairings"][i], bad["bye"] = [holder, b], a
    message = _refused(state, bad)
    assert f"but {json.dumps(holder)} comes first for it" in message


def test_a_bye_passed_over_carries_a_barrier_the_checker_accepts():
    """e, the lowest-ranked without a bye, is the only player a has not met: the bye
    passes over e to d, and the certificate says why (a would be left alone)."""
    players = [
        {"id": "a", "points": 6, "opponents": ["b", "c", "d"], "had_bye": False},
        {"id": "b", "points": 3, "opponents": ["a", "e"], "had_bye": True},
        {"id": "c", "points": 3, "opponents": ["a", "e"], "had_bye": False},
        {"id": "d", "points": 3, "opponents": ["a", "e"], "had_bye": False},
        {"id": "e", "points": 0, "opponents": ["b", "c", "d"], "had_bye": False},
    ]
    state = {"round": 5, "seed": 1, "players": [{**p, "dropped": False} for p in players]}
    out = pair_state(state, certificate=True)
    assert out["bye"] == "d"
    assert [entry[0] for entry in out["certificate"]["bye_barriers"]] == ["e"]
    assert verify.verify(state, out)["bye"] == out["bye"]
    weakened = copy.deepcopy(out)
    weakened["certificate"]["bye_barriers"] = []
    assert "comes first for it" in _refused(state, weakened)


def test_any_one_dual_value_changed_is_refused():
    state, out = _paired(60, 6, 2)
    certificate = out["certificate"]
    rng = random.Random(4)
    potentials = rng.sample(range(len(certificate["potentials"])), 20)
    for i in potentials:
        for change in (-1, 1, 2):
            bad = copy.deepcopy(out)
            bad["certificate"]["potentials"][i][1] += change
            _refused(state, bad)
    for i in range(len(certificate["blossoms"])):
        for change in (-1, 1):
            bad = copy.deepcopy(out)
            bad["certificate"]["blossoms"][i]["z"] += change
            _refused(state, bad)


def test_a_player_moved_between_blossoms_is_refused():
    state, out = _paired(60, 6, 2)
    blossoms = out["certificate"]["blossoms"]
    assert len(blossoms) >= 2
    bad = copy.deepcopy(out)
    moved = bad["certificate"]["blossoms"][0]["players"].pop()
    bad["certificate"]["blossoms"][1]["players"].append(moved)
    assert "even number" in _refused(state, bad)


def test_no_rematch_free_pairing_is_proven_in_the_fewest_rematches_regime():
    """Four players who have all met: the certificate proves one rematch per pair is
    the fewest, and the checker says which regime it proved."""
    ids = ["w", "x", "y", "z"]
    state = {
        "round": 4,
        "seed": 9,
        "players": [
            {"id": p, "points": 3 * (3 - i), "opponents": [q for q in ids if q != p]}
            for i, p in enumerate(ids)
        ],
    }
    out = pair_state(state, certificate=True)
    assert out["certificate"]["regime"] == "fewest_rematches"
    proven = verify.verify(state, out)
    assert proven["rematches"] == 2 and proven["regime"] == "fewest_rematches"


# --- the checker as one file anyone can run ------------------------------------------


def test_the_checker_imports_only_the_standard_library():
    tree = ast.parse((ROOT / "pairing" / "verify.py").read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    assert names <= sys.stdlib_module_names | {"__future__"}, names


def test_the_engine_and_the_checker_from_the_command_line(tmp_path):
    """The round a player downloads: the engine's --certificate output checks with the
    checker copied alone into an empty folder; a tampered pairing fails."""
    state = list(simulate(50, 6, 8))[-1]
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps(state))
    engine = subprocess.run(
        [sys.executable, "-m", "pairing.swiss", "--certificate"],
        input=state_file.read_text(),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    pairing_file = tmp_path / "pairing.json"
    pairing_file.write_text(engine.stdout)
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(ROOT / "pairing" / "verify.py", alone / "verify.py")

    def check() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-I", "verify.py", str(state_file), str(pairing_file)],
            capture_output=True,
            text=True,
            cwd=alone,
        )

    good = check()
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.startswith("VALID and OPTIMAL")
    out = json.loads(engine.stdout)
    points = {p["id"]: p["points"] for p in state["players"]}
    (a, b), (c, d) = next(
        (x, y)
        for x in out["pairings"]
        for y in out["pairings"]
        if points[x[0]] > points[y[0]] and points[x[0]] == points[x[1]]
    )
    i, j = out["pairings"].index([a, b]), out["pairings"].index([c, d])
    out["pairings"][i], out["pairings"][j] = [a, c], [b, d]
    pairing_file.write_text(json.dumps(out))
    tampered = check()
    assert tampered.returncode == 1
    assert tampered.stdout.startswith("REFUSED")
    unreadable = subprocess.run(
        [sys.executable, "verify.py", str(state_file), str(tmp_path / "missing.json")],
        capture_output=True,
        text=True,
        cwd=alone,
    )
    assert unreadable.returncode == 2 and "cannot read" in unreadable.stderr


def test_an_id_that_is_not_a_string_or_an_integer_is_refused():
    """``true`` is not the player 1 (Python's dicts would say it is), nor is ``1.0``."""
    state = list(simulate(20, 3, 4, int_ids=True))[-1]
    out = pair_state(state, certificate=True)
    for fake in (True, 1.0, None):
        bad = copy.deepcopy(out)
        bad["pairings"][0][0] = fake
        assert "which is not a player id" in _refused(state, bad)
