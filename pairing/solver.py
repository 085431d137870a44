"""Exact minimum-cost Swiss pairing, fast because score groups make most of it easy.

Private helper of :mod:`pairing.swiss` (plain Python, no Django). Players are
vertices ``0..n-1`` in rank order, so ``points`` never increases along the list;
``played[v]`` is the set of vertices ``v`` has already met (symmetric), plus those the
organiser keeps ``v`` apart from: every argument below only counts the pairs a player
may not be given, so a kept-apart pair is exactly one more rematch to it. Points are
integers (the caller scales them). A pair costs ``(points difference) ** 2``; among
equally cheap pairings the pair-downs sit as low in the standings as possible, and
the remaining ties are broken by a seeded random perturbation that makes the
optimum unique (rustworkx's blossom picks among exact ties in a per-process random
order, so without it the same seed could give different pairings).

Why the decomposition is exact. Every bound below comes from the players' own
histories (how many opponents each has met), not from the field's longest one, so a
veteran with a hundred past opponents only widens the search around themselves.

1. Uncrossing: two pairs that both cross the boundary between two groups can be
   re-paired as "the two upper together, the two lower together", which is strictly
   cheaper for a convex cost. So in an optimal pairing every two crossing pairs are
   blocked by a rematch: at most ``c`` pairs cross any boundary
   (:func:`crossing_bound`).
2. Reach: a pair cannot have many players strictly between its two (pairs nested
   inside could swap with it; the others cross one of two boundaries), so each group
   pairs only down to a *reach* computed from the opponents its players have actually
   met in that stretch (:meth:`_Decomposition.could_pair`). Longer edges are left out.
3. A group that nothing reaches over, and large for its members' and neighbours'
   histories, *separates* the field: players floating into it from one side have all
   met each other (or two of them could pair together), at most ``f`` of them
   (:func:`clique_bound`); which members take them does not change the cost, so a
   *core* per side in which every possible floater has ``f`` members it has not met
   suffices (with the parity of the crossings, which is the parity of the number of
   players above that boundary); and the rest of the group always pairs without
   rematches among itself (:func:`pair_freely`).

So the problem splits at separators into independent *segments*: the down-core of one
separator, the groups below it, and the up-core of the next. Each segment is solved
exactly by blossom matching, where core members may also pair inside their own core
for free (a placeholder: it is how unused core members are left over, and it keeps the
parity). What is left of a separator pairs internally in linear time (shuffle, pair
neighbours, mend the few rematches by swaps). :class:`_Decomposition` states each
condition where it is checked.

Among equally cheap pairings every step above keeps the score groups of each pair,
or strictly lowers the cost, so the tie-break on pair-down height survives it too.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Iterable, Sequence

import rustworkx as rx

NOISE_BITS = 48
# A segment this large is slow for one blossom over noisy weights (long events with few
# players per score): the caller's exact search over score groups takes it instead.
LARGE_SEGMENT = 300


def score_groups(points: Sequence[int]) -> list[tuple[int, int]]:
    """Half-open ``(start, end)`` runs of equal points, best first."""
    groups: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(points) + 1):
        if i == len(points) or points[i] != points[start]:
            groups.append((start, i))
            start = i
    return groups


def pair_without_rematches(
    points: Sequence[int],
    played: Sequence[set[int]],
    rng: random.Random,
    vertices: Sequence[int] | None = None,
    large: Callable[[], list[tuple[int, int]] | None] | None = None,
) -> list[tuple[int, int]] | None:
    """An optimal rematch-free perfect pairing of ``vertices``, or None if none exists.

    ``vertices`` (default: all) must be an even number of vertices in rank order;
    edges in ``played`` to other vertices are ignored (the bye is left out this way
    without rebuilding the graph). Pairs come back as ``(higher-ranked, lower-ranked)``.
    ``large`` answers instead when the decomposition leaves a segment of more than
    ``LARGE_SEGMENT`` players.
    """
    if vertices is None:
        vertices = range(len(points))
    n = len(vertices)
    if n % 2:
        raise ValueError("an odd number of players cannot be paired")
    if n == 0:
        return []
    plan = _Decomposition(points, played, vertices, rng)
    if large is not None and max(map(len, plan.segments)) > LARGE_SEGMENT:
        return large()
    segment_graph = _SegmentGraph(points, played, plan, rng)
    pairs: list[tuple[int, int]] = []
    for segment in plan.segments:
        solved = segment_graph.solve(segment)
        if solved is None:
            return None
        pairs.extend(solved)
    if plan.separators:
        matched = bytearray(len(points))
        for a, b in pairs:
            matched[a] = matched[b] = 1
        for members in plan.separators:
            pairs.extend(pair_freely([v for v in members if not matched[v]], played, rng))
    return [(a, b) if a < b else (b, a) for a, b in pairs]


def crossing_bound(degrees: Sequence[int]) -> int:
    """Most pairs an optimal pairing can have across one boundary between score groups.

    Every two crossing pairs are blocked by a rematch, so a crossing pair whose players
    have met ``d1`` and ``d2`` others is blocked with at most ``d1 + d2`` of the rest.
    Of ``k`` crossing pairs at least one avoids the ``k - 1`` most-travelled players, so
    ``k - 1 <= d(k) + d(k+1)`` (the k-th and k+1-th largest histories).
    """
    ranked = [*sorted(degrees, reverse=True), 0]
    k = 1
    while k < len(ranked) - 1 and k <= ranked[k] + ranked[k + 1]:
        k += 1
    return k


def clique_bound(degrees: Sequence[int]) -> int:
    """Largest set of players who can all have met each other: ``k - 1 <= d(k)``."""
    ranked = sorted(degrees, reverse=True)
    k = 1
    while k < len(ranked) and k <= ranked[k]:
        k += 1
    return k


def pair_freely(
    members: list[int], played: Sequence[set[int]], rng: random.Random
) -> list[tuple[int, int]]:
    """A random rematch-free pairing of an even group with at least ``2r + 2`` members.

    Shuffle, then :func:`pair_neighbours`; with that many members the mending always
    succeeds (see there).
    """
    rng.shuffle(members)
    pairs = pair_neighbours(members, played, rng)
    if pairs is None:  # pragma: no cover - excluded by the size argument
        raise RuntimeError("score group too small to pair without rematches")
    return pairs


def pair_neighbours(
    members: list[int], played: Sequence[set[int]], rng: random.Random
) -> list[tuple[int, int]] | None:
    """Pair neighbours in the given order, then mend each rematch by swapping partners.

    A rematch (a, b) is mended with another pair (c, d): a and b have met at most
    ``2r - 2`` others between them and a pair is only blocked for both swaps by two of
    those, so with ``r`` other pairs one always works, and every swap removes at least
    one rematch. None if some rematch cannot be mended (a smaller group).
    """
    pairs = [[members[i], members[i + 1]] for i in range(0, len(members), 2)]
    count = len(pairs)
    for i in range(count):
        a, b = pairs[i]
        if b not in played[a]:
            continue
        start = rng.randrange(count)
        for step in range(count):
            j = (start + step) % count
            if j == i:
                continue
            c, d = pairs[j]
            if c not in played[a] and d not in played[b]:
                pairs[i], pairs[j] = [a, c], [b, d]
                break
            if d not in played[a] and c not in played[b]:
                pairs[i], pairs[j] = [a, d], [b, c]
                break
        else:
            return None
    return [(a, b) for a, b in pairs]


def pair_with_fewest_rematches(
    points: Sequence[int],
    played: Sequence[set[int]],
    rng: random.Random,
    bye_order: Sequence[int] | None,
) -> tuple[list[tuple[int, int]], int | None]:
    """Exact pairing when no rematch-free one exists: fewest rematches, then bye, then cost.

    One blossom on the complete graph, so only for the small events where this can
    happen. With an odd count, ``bye_order`` lists the bye candidates best first; a
    dummy vertex takes the bye and its edges rank the candidates just below the
    rematch count.
    """
    n = len(points)
    groups = score_groups(points)
    low_rank = _low_rank(points, groups)
    pairs_count = (n + 1) // 2
    spread = points[0] - points[-1] if n else 0
    cost_unit = pairs_count * (len(groups) + 1) + 1
    bye_unit = pairs_count * (spread * spread * cost_unit + len(groups) + 1) + 1
    rematch_unit = bye_unit * (n + 1)
    ceiling = rematch_unit + spread * spread * cost_unit + len(groups) + 1
    scale = 1 << (NOISE_BITS + pairs_count.bit_length())
    bits = NOISE_BITS
    edges = []
    for a in range(n):
        pa, seen = points[a], played[a]
        for b in range(a + 1, n):
            d = pa - points[b]
            cost = d * d * cost_unit + (low_rank[a] if d else 0)
            if b in seen:
                cost += rematch_unit
            edges.append((a, b, (ceiling - cost) * scale + rng.getrandbits(bits)))
    nodes = n
    if bye_order is not None:
        for position, v in enumerate(bye_order):
            edges.append((v, n, (ceiling - position * bye_unit) * scale + rng.getrandbits(bits)))
        nodes += 1
    matching = _matching(nodes, edges)
    pairs: list[tuple[int, int]] = []
    bye = None
    for a, b in matching:
        a, b = min(a, b), max(a, b)
        if b == n:
            bye = a
        else:
            pairs.append((a, b))
    return pairs, bye


def _low_rank(points: Sequence[int], groups: list[tuple[int, int]]) -> list[int]:
    """Per vertex, how many score groups lie below its own (0 for the lowest group)."""
    low = [0] * len(points)
    for g, (start, end) in enumerate(groups):
        below = len(groups) - 1 - g
        for v in range(start, end):
            low[v] = below
    return low


class _Decomposition:
    """Where the field splits: which score groups separate it, their cores, the segments.

    Walks the groups best first. A group becomes a separator when it is large for the
    histories around it (:meth:`_separates`); its up-core closes the current segment
    and its down-core opens the next. Everything else joins the current segment.

    A pair's reach is bounded by its players' own histories (:meth:`could_pair`), and
    for the few far-travelled players by the opponents they have actually met in the
    stretch between, so one veteran does not make the whole field one segment.
    """

    def __init__(
        self,
        points: Sequence[int],
        played: Sequence[set[int]],
        vertices: Sequence[int],
        rng: random.Random,
    ) -> None:
        size = len(points)
        self.played, self.vertices, self.n, self.rng = played, vertices, len(vertices), rng
        # Edges to vertices left out only make a degree an upper bound, which is allowed.
        self.degree = [0] * size
        for v in vertices:
            self.degree[v] = len(played[v])
        degrees = [self.degree[v] for v in vertices]
        self.crossings = crossing_bound(degrees)
        self.clique = clique_bound(degrees)
        self.max_degree = max(degrees)
        self.groups = score_groups([points[v] for v in vertices])
        count = len(self.groups)
        self.low_rank, self.group_start, self.group_end = [0] * size, [0] * size, [0] * size
        self.group_of = [0] * size
        for g, (start, end) in enumerate(self.groups):
            for i in range(start, end):
                v = vertices[i]
                self.low_rank[v], self.group_of[v] = count - 1 - g, g
                self.group_start[v], self.group_end[v] = start, end
        self._index_heavy(size)
        self._find_reach()
        self.core_of = [-1] * size
        self.segments: list[list[int]] = [[]]
        self.separators: list[list[int]] = []
        self._split()

    def _index_heavy(self, size: int) -> None:
        """Opponents' positions of the far-travelled (more opponents than crossings)."""
        position = [-1] * size
        for i, v in enumerate(self.vertices):
            position[v] = i
        self.met_at: dict[int, list[int]] = {}
        self.plain_max = [0] * len(self.groups)
        self.heavy_in: list[list[int]] = [[] for _ in self.groups]
        for g, (start, end) in enumerate(self.groups):
            for v in self.vertices[start:end]:
                if self.degree[v] > self.crossings:
                    self.met_at[v] = sorted(position[w] for w in self.played[v] if position[w] >= 0)
                    self.heavy_in[g].append(v)
                else:
                    self.plain_max[g] = max(self.plain_max[g], self.degree[v])

    def met_between(self, v: int, low: int, high: int) -> int:
        """How many of v's past opponents rank in ``[low, high)`` (its history for the plain)."""
        met = self.met_at.get(v)
        if met is None:
            return self.degree[v]
        return bisect.bisect_left(met, high) - bisect.bisect_left(met, low)

    def could_pair(self, between: int, met_a: int, met_b: int) -> bool:
        """Whether a pair with ``between`` players strictly between can be optimal.

        Every pair nested inside (both players between) could swap partners with it,
        strictly cheaper, so it is blocked by two of the opponents a and b have met
        there; the players between who pair outside cross the boundary below a's group
        or above b's, where at most ``crossings - 1`` other pairs cross.
        """
        return between <= 2 * ((met_a + met_b) // 2) + 2 * (self.crossings - 1)

    def _find_reach(self) -> None:
        """reach[g]: the lowest group a player of group g could be paired with."""
        groups, fixed = self.groups, 2 * self.crossings - 2
        self.reach = list(range(len(groups)))
        for g, (_, end) in enumerate(groups):
            widest = max([self.plain_max[g]] + [self.degree[v] for v in self.heavy_in[g]])
            h = g + 1
            while h < len(groups) and groups[h][0] - end <= widest + self.max_degree + fixed:
                if self._group_could_pair(g, h):
                    self.reach[g] = h
                h += 1

    def _group_could_pair(self, g: int, h: int) -> bool:
        """Whether some player of group g could be paired with some player of group h."""
        end, start = self.groups[g][1], self.groups[h][0]
        between = start - end
        upper = [self.plain_max[g]] + [self.met_between(v, end, start) for v in self.heavy_in[g]]
        lower = [self.plain_max[h]] + [self.met_between(v, end, start) for v in self.heavy_in[h]]
        return self.could_pair(between, max(upper), max(lower))

    def _split(self) -> None:
        furthest = -1  # the lowest group reached from above the current group
        last = 0  # the group that opened the current segment
        for g, (start, end) in enumerate(self.groups):
            members = list(self.vertices[start:end])
            cores = None if furthest > g else self._separates(g, members, last)
            furthest = max(furthest, self.reach[g])
            if cores is None:
                self.segments[-1].extend(members)
                continue
            up, down = cores
            for v in up:
                self.core_of[v] = 2 * g
            for v in down:
                self.core_of[v] = 2 * g + 1
            self.segments[-1].extend(up)
            self.segments.append(list(down))
            self.separators.append(members)
            last = g

    def _separates(
        self, g: int, members: list[int], last: int
    ) -> tuple[list[int], list[int]] | None:
        """The group's (up-core, down-core) if it can separate the field, else None.

        The caller has checked that no optimal pair jumps over it. With ``c`` crossings
        at most at any boundary and ``f`` floaters at most from either side (floaters
        from one side into a group have all met each other, or two of them could pair
        together, their partners inside the group), the group separates when

        1. two of its members paired to floaters could always swap to an inside pair:
           more inside pairs than the two busiest members' opponents can block;
        2. each core holds, for every floater, ``f`` members it has not met, so the
           floaters can always be moved onto the cores at no cost;
        3. what the floaters leave of the group pairs without rematches (see
           :func:`pair_freely`).
        """
        c, f = self.crossings, self.clique
        size = len(members)
        start, end = self.groups[g]
        busiest = [*sorted((self.degree[v] for v in members), reverse=True)[:2], 0]
        top_two = busiest[0] + busiest[1]
        if size - 2 * c <= top_two - 2 or size - 2 * f <= top_two:
            return None
        from_above = self._members(h for h in range(last, g) if self.reach[h] >= g)
        from_below = self._members(range(g + 1, self.reach[g] + 1))
        order = self._core_order(members, from_above + from_below)
        up = [] if start == 0 else self._core(order, from_above, start)
        if up is None:
            return None
        rest = order[len(up) :]
        down = [] if end == self.n else self._core(rest, from_below, self.n - end)
        if down is None:
            return None
        return up, down

    def _members(self, groups: Iterable[int]) -> list[int]:
        return [v for h in groups for v in self.vertices[slice(*self.groups[h])]]

    def _core_order(self, members: list[int], floaters: list[int]) -> list[int]:
        """The group's members in random order, those met by far-travelled floaters last.

        Which members form a core does not change the cost; picking those the veterans
        around have not met keeps the cores small.
        """
        self.rng.shuffle(members)
        heavy = [z for z in floaters if z in self.met_at]
        if not heavy:
            return members
        return sorted(members, key=lambda v: sum(1 for z in heavy if v in self.played[z]))

    def _core(self, order: list[int], floaters: list[int], above: int) -> list[int] | None:
        """The shortest prefix of ``order`` in which every floater has ``f`` unmet members,
        with the parity of the crossings (that of the ``above`` players on the far side)."""
        f, played = self.clique, self.played
        size = f
        while True:
            size += (above - size) % 2
            if size > len(order):
                return None
            chosen = set(order[:size])
            need = f + max((len(played[z] & chosen) for z in floaters), default=0)
            if need <= size:
                return order[:size]
            size = need


class _SegmentGraph:
    """Builds and solves the exact matching problem of one segment.

    Pairs that :meth:`_Decomposition.could_pair` rules out are left out of the graph.
    """

    def __init__(
        self,
        points: Sequence[int],
        played: Sequence[set[int]],
        plan: _Decomposition,
        rng: random.Random,
    ) -> None:
        self.points, self.played, self.plan, self.rng = points, played, plan, rng

    def solve(self, segment: list[int]) -> list[tuple[int, int]] | None:
        """Exact optimum for a segment (vertices ordered by score group, best first);
        placeholder pairs inside a core are dropped from the answer."""
        k = len(segment)
        if k == 0:
            return []
        points, played, plan = self.points, self.played, self.plan
        core_of, low_rank, group_of, reach = plan.core_of, plan.low_rank, plan.group_of, plan.reach
        group_start, group_end, met_between = plan.group_start, plan.group_end, plan.met_between
        could_pair = plan.could_pair
        pairs_count = k // 2
        spread = points[segment[0]] - points[segment[-1]]
        top_low = low_rank[segment[0]]
        # Weight = (ceiling - cost) * scale + noise, cost = squared difference * cost_unit
        # + height of a pair-down: the noise of all pairs stays below one cost step and
        # the height below one squared-difference step, so both only break ties.
        cost_unit = pairs_count * (top_low + 1) + 1
        ceiling = spread * spread * cost_unit + top_low + 1
        scale = 1 << (NOISE_BITS + pairs_count.bit_length())
        getrandbits = self.rng.getrandbits
        edges = []
        for i in range(k):
            a = segment[i]
            pa, seen, core, low_a, end_a = (
                points[a],
                played[a],
                core_of[a],
                low_rank[a],
                group_end[a],
            )
            last_group = reach[group_of[a]]
            for j in range(i + 1, k):
                b = segment[j]
                if group_of[b] > last_group:
                    break  # every later vertex is further down
                if core >= 0 and core == core_of[b]:
                    edges.append((i, j, ceiling * scale + getrandbits(NOISE_BITS)))
                    continue
                if b in seen:
                    continue
                between = group_start[b] - end_a
                if between > 0 and not could_pair(
                    between,
                    met_between(a, end_a, group_start[b]),
                    met_between(b, end_a, group_start[b]),
                ):
                    continue
                d = pa - points[b]
                cost = d * d * cost_unit + low_a if d else 0
                edges.append((i, j, (ceiling - cost) * scale + getrandbits(NOISE_BITS)))
        matching = _matching(k, edges)
        if len(matching) != pairs_count:
            return None
        result = []
        for i, j in matching:
            a, b = segment[i], segment[j]
            if core_of[a] < 0 or core_of[a] != core_of[b]:
                result.append((a, b))
        return result


def _matching(nodes: int, edges: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """Maximum-cardinality, maximum-weight matching, in a fixed order."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(nodes))
    graph.extend_from_weighted_edge_list(edges)
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted(found)
