"""Exact minimum-cost Swiss pairing, fast because score groups make most of it easy.

Private helper of :mod:`pairing.swiss` (plain Python, no Django). Players are
vertices ``0..n-1`` in rank order, so ``points`` never increases along the list;
``played[v]`` is the set of vertices ``v`` has already met (symmetric). Points are
integers (the caller scales them). A pair costs ``(points difference) ** 2``; among
equally cheap pairings the pair-downs sit as low in the standings as possible, and
the remaining ties are broken by a seeded random perturbation that makes the
optimum unique (rustworkx's blossom picks among exact ties in a per-process random
order, so without it the same seed could give different pairings).

Why the decomposition is exact. Let ``r`` be the most opponents any vertex has met
and call a score group *large* when it has at least ``6r + 6`` members.

1. Uncrossing: two pairs that both cross the boundary between two groups can be
   re-paired as "the two upper together, the two lower together", which is strictly
   cheaper for a convex cost. So in an optimal pairing every two crossing pairs are
   blocked by a rematch, and each endpoint blocks at most ``r`` others: at most
   ``2r + 1`` pairs cross any boundary.
2. A large group therefore keeps at least ``r + 1`` pairs inside itself. A pair that
   jumps over it could swap partners with one of those inside pairs (strictly
   cheaper), and its two players block at most ``r`` of them: nothing jumps over a
   large group. Likewise two players from above who both pair into the group could
   pair with each other instead (their two partners pairing together or with an inside
   pair), so those players have all met each other: at most ``r + 1`` of them, and
   at most ``r + 1`` from below.
3. Which members of the group take those floaters does not matter for the cost: if a
   member outside the chosen *core* takes floater z, a core member who is paired
   inside the group and has not met z takes over (z excludes at most ``r``; at most
   ``2r + 1`` others are busy with floaters). So a core of ``3r + 2`` members per
   side suffices (one more when needed to match the parity of the crossings, which
   is the parity of the number of players above that boundary), and the group's
   remaining members, at least ``2r + 2`` of them, always have a rematch-free
   pairing among themselves (Dirac: each has met at most ``r`` of them, so every
   degree in the allowed graph is at least half their number).

So the problem splits at large groups into independent *segments*: the lower core of
one large group, the small groups below it, and the upper core of the next large
group. Each segment is solved exactly by blossom matching, where core members may
also pair inside their own core for free (a placeholder: it is how unused core
members are left over, and it keeps the parity). The same arguments, applied to the
segment solutions, show each large group lends at most ``2r + 2`` members to its
segments, so what is left of it pairs internally in linear time (shuffle, pair
neighbours, mend the few rematches by swaps). Inside a segment, edges spanning more
than ``6r`` players are left out (see :class:`_SegmentGraph`), which keeps long runs
of small groups (long events with few players per score) tractable.

Among equally cheap pairings every step above keeps the score groups of each pair,
or strictly lowers the cost, so the tie-break on pair-down height survives it too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import rustworkx as rx

NOISE_BITS = 48


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
) -> list[tuple[int, int]] | None:
    """An optimal rematch-free perfect pairing of ``vertices``, or None if none exists.

    ``vertices`` (default: all) must be an even number of vertices in rank order;
    edges in ``played`` to other vertices are ignored (the bye is left out this way
    without rebuilding the graph). Pairs come back as ``(higher-ranked, lower-ranked)``.
    """
    if vertices is None:
        vertices = range(len(points))
    n = len(vertices)
    if n % 2:
        raise ValueError("an odd number of players cannot be paired")
    if n == 0:
        return []
    # Edges to vertices left out only make r an upper bound, which the argument allows.
    r = max(len(played[v]) for v in vertices)
    threshold = 6 * r + 6
    core_size = 3 * r + 2
    groups = score_groups([points[v] for v in vertices])
    size = len(points)
    low_rank, group_start, group_end = [0] * size, [0] * size, [0] * size
    for g, (start, end) in enumerate(groups):
        for i in range(start, end):
            v = vertices[i]
            low_rank[v], group_start[v], group_end[v] = len(groups) - 1 - g, start, end
    core_of: list[int] = [-1] * size
    segments: list[list[int]] = [[]]
    large: list[list[int]] = []
    for g, (start, end) in enumerate(groups):
        if end - start < threshold:
            segments[-1].extend(vertices[start:end])
            continue
        members = list(vertices[start:end])
        rng.shuffle(members)
        # Crossings at a boundary have the parity of the number of players above it.
        k_up = 0 if start == 0 else core_size + (start - core_size) % 2
        k_down = 0 if end == n else core_size + (n - end - core_size) % 2
        for v in members[:k_up]:
            core_of[v] = 2 * g
        for v in members[k_up : k_up + k_down]:
            core_of[v] = 2 * g + 1
        segments[-1].extend(members[:k_up])
        segments.append(members[k_up : k_up + k_down])
        large.append(members)
    segment_graph = _SegmentGraph(
        points, played, core_of, low_rank, group_start, group_end, 6 * r, rng
    )
    pairs: list[tuple[int, int]] = []
    for segment in segments:
        solved = segment_graph.solve(segment)
        if solved is None:
            return None
        pairs.extend(solved)
    if large:
        matched = bytearray(size)
        for a, b in pairs:
            matched[a] = matched[b] = 1
        for members in large:
            pairs.extend(pair_freely([v for v in members if not matched[v]], played, rng))
    return [(a, b) if a < b else (b, a) for a, b in pairs]


def pair_freely(
    members: list[int], played: Sequence[set[int]], rng: random.Random
) -> list[tuple[int, int]]:
    """A random rematch-free pairing of an even group with at least ``2r + 2`` members.

    Shuffle and pair neighbours, then mend each rematch (a, b) by swapping partners
    with another pair (c, d): a and b have met at most ``2r - 2`` others between
    them and a pair is only blocked for both swaps by two of those, so with ``r``
    other pairs one always works, and every swap removes at least one rematch.
    """
    rng.shuffle(members)
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
        else:  # pragma: no cover - excluded by the size argument above
            raise RuntimeError("score group too small to pair without rematches")
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


class _SegmentGraph:
    """Builds and solves the exact matching problem of one segment.

    Pruning: a pair (p, q) of an optimal pairing has at most ``6r`` players with
    points strictly between theirs. Every pair nested inside (both players between)
    could swap partners with (p, q), strictly cheaper, so at most ``r`` of them are
    (each needs two of the ``2r`` past opponents of p and q to block it); and the
    players between who pair outside cross the boundary below p or above q, at most
    ``2r`` more each (the crossing bound). Longer edges are left out of the graph.
    """

    def __init__(
        self,
        points: Sequence[int],
        played: Sequence[set[int]],
        core_of: list[int],
        low_rank: list[int],
        group_start: list[int],
        group_end: list[int],
        span_limit: int,
        rng: random.Random,
    ) -> None:
        self.points, self.played, self.core_of = points, played, core_of
        self.low_rank, self.group_start, self.group_end = low_rank, group_start, group_end
        self.span_limit, self.rng = span_limit, rng

    def solve(self, segment: list[int]) -> list[tuple[int, int]] | None:
        """Exact optimum for a segment (vertices ordered by score group, best first);
        placeholder pairs inside a core are dropped from the answer."""
        k = len(segment)
        if k == 0:
            return []
        points, played, core_of, low_rank = self.points, self.played, self.core_of, self.low_rank
        group_start, group_end, span_limit = self.group_start, self.group_end, self.span_limit
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
            for j in range(i + 1, k):
                b = segment[j]
                if group_start[b] - end_a > span_limit:
                    break  # every later vertex is further down
                if core >= 0 and core == core_of[b]:
                    edges.append((i, j, ceiling * scale + getrandbits(NOISE_BITS)))
                elif b not in seen:
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
