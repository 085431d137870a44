"""The proof that goes with a Swiss pairing: dual values anyone can check (no Django).

:func:`certificate` takes the round's input and the engine's pairing and returns the
``certificate`` document that ``pairing.verify`` checks (its format is in
docs/pairing-certificate.md). The proof is found on a sparse *candidate* graph (each
player's own score group and the two below, a few partners each, plus the pairing's own
pairs): :mod:`pairing.blossom` gives the cheapest matching there with its dual values,
and the checker's own test (:func:`pairing.verify.violations`) looks for any pair of
the whole field those values do not cover. Such pairs join the graph and the search
runs again, so what comes out holds on every allowed pair, checked by the same code a
player runs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pairing import verify
from pairing.blossom import NoPerfectMatching, Solution, min_cost_perfect_matching

PARTNERS = 6  # candidate partners per player in each nearby score group
WIDEN = 512  # uncovered pairs added to the graph per round of widening


def certificate(
    state: dict[str, Any],
    pairings: Sequence[Sequence[Any]],
    bye: Any,
    forced: bool,
) -> dict[str, Any]:
    """The certificate of a pairing the engine produced for ``state`` (contract shape)."""
    field = verify.Field(state)
    pairs = [(field.index[a], field.index[b]) for a, b in pairings]
    pairs = [(a, b) if a < b else (b, a) for a, b in pairs]
    bye_v = None if bye is None else field.index[bye]
    if forced:
        return _fewest_rematches(field, pairs, bye_v)
    vertices = [v for v in range(len(field.ids)) if v != bye_v]
    costs = verify.Costs(field, vertices, verify.REMATCH_FREE)
    graph = _Candidates(field, vertices, costs, pairs)
    while True:
        solution = graph.solve()
        document = _document(field, graph.vertices, solution, verify.REMATCH_FREE)
        cert = verify.Certificate(field, document, vertices, False)
        missing = verify.violations(field, vertices, costs, cert, limit=WIDEN)
        if not missing:
            break
        graph.add(missing)
    if bye_v is not None:
        document["bye_barriers"] = _bye_barriers(field, bye_v)
    return document


class _Candidates:
    """The sparse graph the search runs on, as local indices of ``vertices``."""

    def __init__(
        self, field: verify.Field, vertices: list[int], costs: verify.Costs, pairs
    ) -> None:
        self.field, self.costs, self.vertices = field, costs, vertices
        self.local = {v: i for i, v in enumerate(vertices)}
        self.edges: dict[tuple[int, int], int] = {}
        self.start = []
        for a, b in pairs:
            self._edge(a, b)
            if field.points[a] == field.points[b]:
                self.start.append((self.local[a], self.local[b]))
        self._nearby()

    def _edge(self, a: int, b: int) -> None:
        if a > b:
            a, b = b, a
        key = (self.local[a], self.local[b])
        if key not in self.edges:
            points = self.field.points
            self.edges[key] = self.costs.group_pair(points[a], points[b])

    def _nearby(self) -> None:
        """A few allowed partners per player in their own score group and the two below."""
        field = self.field
        groups: dict[int, list[int]] = {}
        for v in self.vertices:
            groups.setdefault(field.points[v], []).append(v)
        levels = sorted(groups, reverse=True)
        rng = random.Random(len(self.vertices))
        for g, level in enumerate(levels):
            for h in range(g, min(g + 3, len(levels))):
                lower = groups[levels[h]]
                for v in groups[level]:
                    forbidden = field.forbidden[v]
                    wanted = PARTNERS + (len(forbidden) if h == g else 0)
                    picks = lower if len(lower) <= wanted + 1 else rng.sample(lower, wanted + 1)
                    taken = 0
                    for w in picks:
                        if w != v and w not in forbidden:
                            self._edge(v, w)
                            taken += 1
                            if taken >= PARTNERS:
                                break

    def add(self, pairs: list[tuple[int, int]]) -> None:
        for a, b in pairs:
            self._edge(a, b)

    def solve(self) -> Solution:
        edges = [(a, b, cost) for (a, b), cost in self.edges.items()]
        return min_cost_perfect_matching(len(self.vertices), edges, self.start)


def _document(field: verify.Field, vertices: list[int], solution: Solution, regime: str) -> dict:
    """The certificate as JSON: potentials (zeros left out) and the blossoms, by player id."""

    def pid(i: int) -> Any:
        v = vertices[i]
        return None if v == -1 else field.ids[v]

    return {
        "format": verify.FORMAT,
        "regime": regime,
        "potentials": [[pid(i), y] for i, y in enumerate(solution.y) if y],
        "blossoms": [
            {"z": b.z, "players": [pid(i) for i in b.vertices], "blossoms": b.blossoms}
            for b in solution.blossoms
        ],
    }


def _fewest_rematches(field: verify.Field, pairs, bye_v: int | None) -> dict[str, Any]:
    """The certificate when no pairing avoids rematches: the complete graph (small fields
    only), rematches at their cost, and the bye as one more vertex (``None``)."""
    everyone = list(range(len(field.ids)))
    costs = verify.Costs(field, everyone, verify.REMATCHES)
    vertices = everyone + ([-1] if len(everyone) % 2 else [])
    edges = []
    points, forbidden = field.points, field.forbidden
    for a in everyone:
        for b in range(a + 1, len(everyone)):
            cost = costs.group_pair(points[a], points[b])
            edges.append((a, b, cost + (costs.rematch if b in forbidden[a] else 0)))
    if vertices[-1] == -1:
        dummy = len(everyone)
        for k, v in enumerate(verify.bye_candidates(field)):
            edges.append((v, dummy, k * costs.bye))
    solution = min_cost_perfect_matching(len(vertices), edges)
    return _document(field, vertices, solution, verify.REMATCHES)


def _bye_barriers(field: verify.Field, bye: int) -> list[list[Any]]:
    """For each candidate the bye passed over, a Tutte barrier proving why."""
    out = []
    for v in verify.bye_candidates(field):
        if v == bye:
            break
        rest = [w for w in range(len(field.ids)) if w != v]
        local = {w: i for i, w in enumerate(rest)}
        edges = [
            (local[a], local[b], 0)
            for i, a in enumerate(rest)
            for b in rest[i + 1 :]
            if b not in field.forbidden[a]
        ]
        try:
            min_cost_perfect_matching(len(rest), edges)
        except NoPerfectMatching as failed:
            out.append([field.ids[v], [field.ids[rest[i]] for i in failed.barrier]])
        else:  # pragma: no cover - the engine only passes over candidates that fail
            raise AssertionError(f"{field.ids[v]} could have had the bye")
    return out
