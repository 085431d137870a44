"""The proof that goes with a Swiss pairing: dual values anyone can check (no Django).

:func:`certificate` takes the round (as the checker reads it) and the engine's pairing
and returns the ``certificate`` document that ``pairing.verify`` checks (its format is in
docs/pairing-certificate.md); :func:`solve` pairs a round and proves it in one go.

The proof is found on a sparse *candidate* graph (each player's own score group and the
two below, further where groups are small, a few partners each, plus a known pairing):
:mod:`pairing.blossom` gives the cheapest matching there with its dual values, and the
checker's own test (:func:`pairing.verify.violations`) looks for any pair of the whole
field those values do not cover. Such pairs join the graph and the search runs again, so
what comes out holds on every allowed pair, checked by the same code a player runs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pairing import verify
from pairing.blossom import NoPerfectMatching, Solution, min_cost_perfect_matching
from pairing.solver import pair_neighbours

PARTNERS = 6  # candidate partners per player in each nearby score group
DENSE = 12  # a score group this small gets every allowed pair to its nearby groups
WIDEN = 512  # uncovered pairs added to the graph per round of widening
KEEP = 24  # a large score group keeps 2 * KEEP players in the search, plus its history


def certificate(
    field: verify.Field,
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    forced: bool,
    seed: int = 0,
) -> dict[str, Any]:
    """The certificate of a pairing the engine produced (positions in ``field``).

    Any optimal pairing's certificate proves every optimal pairing (duality), so the one
    found here for the engine's own bye proves ``pairs`` too; ``pairing.verify`` checks
    that against them.
    """
    if forced:
        return _fewest_rematches(field, list(pairs), bye)
    return solve(field, bye, random.Random(seed), pairs)[1]


def solve(
    field: verify.Field,
    bye: int | None,
    rng: random.Random,
    hint: Sequence[tuple[int, int]] = (),
) -> tuple[list[tuple[int, int]], dict[str, Any]]:
    """An optimal rematch-free pairing of the field without ``bye`` and its certificate.

    Large score groups are mostly left out of the search: beyond a random ``2 * (most
    opponents any of them has met) + 2 * KEEP`` of their players, they are paired among
    themselves and given the dual values of a kept player in the same position, which
    costs nothing and is exact whenever the check passes; a player the check finds
    uncovered joins the search. ``hint`` (a pairing
    known to exist, such as the engine's) joins the graph where both players are in the
    search, so the sparse graph is never short of a perfect matching. Raises
    :class:`pairing.blossom.NoPerfectMatching` when no such pairing exists.
    """
    vertices = [v for v in range(len(field.ids)) if v != bye]
    costs = verify.Costs(field, vertices, verify.REMATCH_FREE)
    plan = _Reduction(field, vertices, rng)
    graph = _Candidates(field, plan.kept, costs, rng)
    known = hint or _greedy(field, plan.kept)
    graph.add([(a, b) for a, b in known if a in graph.local and b in graph.local], start=True)
    while True:
        solution = graph.solve()
        document = _document(field, graph.vertices, solution, verify.REMATCH_FREE)
        kept = graph.vertices
        pairs = [(kept[i], kept[j]) for i, j in enumerate(solution.mate) if i < j]
        if plan.removed:
            document = plan.extend(document, graph.vertices, solution)
            pairs.extend(plan.pairs)
        cert = verify.Certificate(field, document, vertices, False)
        missing = verify.violations(field, vertices, costs, cert, limit=WIDEN)
        if not missing:
            break
        brought_back = plan.bring_back(missing)
        if brought_back:
            graph = _Candidates(field, plan.kept, costs, rng, graph)
        graph.add([(a, b) for a, b in missing if a in graph.local and b in graph.local])
    if bye is not None:
        document["bye_barriers"] = _bye_barriers(field, bye)
    return [(a, b) if a < b else (b, a) for a, b in pairs], document


class _Reduction:
    """Which players of each large score group the search leaves out, and their pairs."""

    def __init__(self, field: verify.Field, vertices: list[int], rng: random.Random) -> None:
        self.field = field
        groups: dict[int, list[int]] = {}
        for v in vertices:
            groups.setdefault(field.points[v], []).append(v)
        self.removed: dict[int, int] = {}  # removed player -> partner
        self.pairs: list[tuple[int, int]] = []
        kept: list[int] = []
        for members in groups.values():
            busiest = max(len(field.forbidden[v]) for v in members)
            keep = 2 * busiest + 2 * KEEP
            if len(members) - keep < 2 * busiest + 4:
                kept.extend(members)
                continue
            order = members[:]
            rng.shuffle(order)
            if (len(order) - keep) % 2:
                keep += 1
            out = pair_neighbours(order[keep:], field.forbidden, rng)
            if out is None:
                kept.extend(members)
                continue
            kept.extend(order[:keep])
            for a, b in out:
                self.removed[a], self.removed[b] = b, a
                self.pairs.append((a, b))
        self.kept = sorted(kept)

    def extend(self, document: dict, kept: list[int], solution) -> dict:
        """The certificate with each removed pair given a kept player's dual position.

        A removed player takes the innermost blossom of a kept player ``r`` of the same
        points and ``y = (sum of z over r's blossoms) / 2``, which is ``r``'s own value
        when ``r`` is matched inside the same blossom symmetrically: then every pair of
        removed players is tight, every blossom stays odd and full, and the total is
        unchanged; whether the values also cover every pair the removed players could
        form is left to the check that follows.
        """
        field = self.field
        leaf_of, total = _leaf_totals(solution)
        position: dict[int, tuple[int, int]] = {}
        for i, v in enumerate(kept):
            leaf = leaf_of.get(i, -1)
            cum = total[leaf] if leaf != -1 else 0
            if cum % 2 == 0 and 2 * solution.y[i] == cum:
                position.setdefault(field.points[v], (leaf, solution.y[i]))
        blossoms = document["blossoms"]
        potentials = document["potentials"]
        for a, b in self.pairs:
            spot = position.get(field.points[a])
            if spot is None:
                self.bring_back([(a, b)])
                continue
            leaf, y = spot
            for v in (a, b):
                if y:
                    potentials.append([field.ids[v], y])
                if leaf != -1:
                    blossoms[leaf]["players"].append(field.ids[v])
        return document

    def bring_back(self, pairs: list[tuple[int, int]]) -> bool:
        """Return these players (and their removed partners) to the search."""
        back = set()
        for pair in pairs:
            for v in pair:
                if v in self.removed:
                    back.add(v)
                    back.add(self.removed[v])
        if not back:
            return False
        for v in back:
            self.removed.pop(v, None)
        self.pairs = [(a, b) for a, b in self.pairs if a not in back]
        self.kept = sorted(set(self.kept) | back)
        return True


def _greedy(field: verify.Field, vertices: list[int]) -> list[tuple[int, int]]:
    """Pairs taken top down, each player with the next one still free to meet them, and
    for any player left over, their nearest allowed players either way: edges that reach
    past a player's nearby score groups where their history demands it."""
    after = list(range(1, len(vertices) + 1))  # the next free position (a linked list)
    taken = [False] * len(vertices)
    pairs, left = [], []
    for i, v in enumerate(vertices):
        if taken[i]:
            continue
        forbidden = field.forbidden[v]
        previous, j = i, after[i]
        while j < len(vertices) and (taken[j] or vertices[j] in forbidden):
            if taken[j]:
                after[previous] = after[j]  # skip taken positions next time
            else:
                previous = j
            j = after[j]
        if j < len(vertices):
            taken[i] = taken[j] = True
            pairs.append((v, vertices[j]))
        else:
            left.append(i)
    for i in left:
        forbidden, found = field.forbidden[vertices[i]], 0
        for j in sorted(range(len(vertices)), key=lambda j: abs(j - i)):
            if j != i and vertices[j] not in forbidden:
                pairs.append((vertices[i], vertices[j]))
                found += 1
                if found >= PARTNERS:
                    break
    return pairs


def _leaf_totals(solution) -> tuple[dict[int, int], list[int]]:
    """Each vertex's innermost blossom and each blossom's sum of z from the root down."""
    leaf_of: dict[int, int] = {}
    total = [0] * len(solution.blossoms)
    stack = [(root, 0) for root in solution.roots]
    while stack:
        i, above = stack.pop()
        blossom = solution.blossoms[i]
        total[i] = above + blossom.z
        for v in blossom.vertices:
            leaf_of[v] = i
        stack.extend((j, total[i]) for j in blossom.blossoms)
    return leaf_of, total


class _Candidates:
    """The sparse graph the search runs on, as local indices of ``vertices``."""

    def __init__(
        self,
        field: verify.Field,
        vertices: list[int],
        costs: verify.Costs,
        rng: random.Random,
        previous: _Candidates | None = None,
    ) -> None:
        self.field, self.costs, self.vertices, self.rng = field, costs, vertices, rng
        self.local = {v: i for i, v in enumerate(vertices)}
        self.edges: dict[tuple[int, int], int] = {}
        self.preferred: list[tuple[int, int]] = []
        self._nearby()
        if previous is not None:
            before = previous.vertices
            for a, b in previous.edges:
                self._edge(before[a], before[b])
            local = self.local
            self.preferred = [(local[before[a]], local[before[b]]) for a, b in previous.preferred]

    def _edge(self, a: int, b: int) -> None:
        if a > b:
            a, b = b, a
        key = (self.local[a], self.local[b])
        if key not in self.edges:
            points = self.field.points
            self.edges[key] = self.costs.group_pair(points[a], points[b])

    def _nearby(self) -> None:
        """A few allowed partners per player in their own score group and the two below,
        and further down while the groups passed are small (where few players share a
        score, the cheapest pair-down may skip several)."""
        field, rng = self.field, self.rng
        groups: dict[int, list[int]] = {}
        for v in self.vertices:
            groups.setdefault(field.points[v], []).append(v)
        levels = sorted(groups, reverse=True)
        self.groups, self.levels = groups, levels
        shuffled = {level: rng.sample(members, len(members)) for level, members in groups.items()}
        place = {v: i for members in shuffled.values() for i, v in enumerate(members)}
        for g, level in enumerate(levels):
            last, passed = g, 0
            while last + 1 < len(levels) and (last < g + 2 or passed < DENSE):
                last += 1
                passed += len(groups[levels[last]])
            for h in range(g, last + 1):
                lower = shuffled[levels[h]]
                size = len(lower)
                for v in groups[level]:
                    forbidden = field.forbidden[v]
                    if size <= DENSE:  # a small group: every allowed partner
                        for w in lower:
                            if w != v and w not in forbidden:
                                self._edge(v, w)
                        continue
                    # A run of the shuffled group from a place of v's own: a random
                    # graph with few draws of the generator.
                    start = place[v] if h == g else rng.randrange(size)
                    taken = 0
                    for step in range(1, min(size, PARTNERS + len(forbidden) + 2)):
                        w = lower[(start + step) % size]
                        if w != v and w not in forbidden:
                            self._edge(v, w)
                            taken += 1
                            if taken >= PARTNERS:
                                break

    def add(self, pairs: list[tuple[int, int]], start: bool = False) -> None:
        """Join these pairs to the graph; with ``start``, their pairs within a score group
        also open the search (a known pairing leaves only its pair-downs to find)."""
        for a, b in pairs:
            self._edge(a, b)
            if start and self.field.points[a] == self.field.points[b]:
                self.preferred.append((self.local[a], self.local[b]))

    def solve(self) -> Solution:
        """The cheapest perfect matching of the graph; where the sparse graph has none,
        the players left over get every allowed partner in a widening window of score
        groups, until the whole field is in (then no pairing exists at all)."""
        window = 3
        while True:
            edges = [(a, b, cost) for (a, b), cost in self.edges.items()]
            try:
                return min_cost_perfect_matching(len(self.vertices), edges, self._start())
            except NoPerfectMatching as failed:
                stuck = [self.vertices[i] for i in failed.stranded + failed.barrier]
                while not self._densify(stuck, window):
                    if window > len(self.levels):
                        raise
                    window *= 2

    def _densify(self, players: list[int], window: int) -> bool:
        """Every allowed pair between ``players`` and those within ``window`` score groups;
        False if there was none to add."""
        field, before = self.field, len(self.edges)
        rank = {level: g for g, level in enumerate(self.levels)}
        for v in players:
            g = rank[field.points[v]]
            for h in range(max(0, g - window), min(len(self.levels), g + window + 1)):
                for w in self.groups[self.levels[h]]:
                    if w != v and w not in field.forbidden[v]:
                        self._edge(v, w)
        return len(self.edges) > before

    def _start(self) -> list[tuple[int, int]]:
        """Pairs inside score groups over the graph's free edges, greedily: the search
        then only has to find the pair-downs."""
        points, vertices = self.field.points, self.vertices
        matched = [False] * len(vertices)
        start = []
        for a, b in self.preferred:
            if not matched[a] and not matched[b]:
                matched[a] = matched[b] = True
                start.append((a, b))
        for (a, b), cost in self.edges.items():
            same = points[vertices[a]] == points[vertices[b]]
            if cost == 0 and same and not matched[a] and not matched[b]:
                matched[a] = matched[b] = True
                start.append((a, b))
        return start


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
        sizes = verify.component_sizes(rest, field.forbidden)
        if any(size % 2 for size in sizes):  # the usual case: someone left alone
            out.append([field.ids[v], []])
            continue
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
