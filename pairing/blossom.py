"""Minimum-cost perfect matching that also returns its proof of optimality (no Django).

Private helper of :mod:`pairing.certify`. It is Edmonds' primal-dual blossom method,
written here (rather than called from a matching library) because the libraries keep
the dual solution to themselves, and the dual solution *is* the certificate: vertex
potentials ``y`` and a laminar family of odd sets ("blossoms") with values ``z >= 0``
such that, for every edge ``(a, b)`` of the graph,

    y[a] + y[b] - sum(z[B] for the blossoms B holding both a and b) <= 2 * cost(a, b)

with equality on every matched edge, and every blossom with ``z > 0`` holding
``(|B| - 1) / 2`` matched edges. Then no perfect matching costs less than
``(sum(y) - sum(z[B] * (|B| - 1) / 2)) / 2``, which the matching attains. The values
are doubled so that integer costs keep every value an integer.

The search may start from a matching whose edges all cost 0 (the score groups' own
pairs, in the Swiss engine), which leaves only the pair-downs to find.

If the graph has no perfect matching, :class:`NoPerfectMatching` carries a *barrier*:
a set ``A`` whose removal leaves more odd components than ``|A|`` (Tutte's condition),
which is the proof of that.

The structure follows the classic formulation (Galil's survey; Van Rantwijk's
description of it), with one alternating tree per stage: a stage grows a tree from one
unmatched vertex over edges of zero slack, shrinks odd cycles into blossoms, and changes
the dual values by the largest step that keeps them feasible, until the tree reaches
another unmatched vertex. Blossoms stay formed between stages; one is only taken apart
when it is an inner node whose value has fallen to zero.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

FREE, OUTER, INNER, SEEN = 0, 1, 2, 5


@dataclass
class Blossom:
    """One odd set of the certificate: its value and its children (vertices, blossoms)."""

    z: int
    vertices: list[int]
    blossoms: list[int]


@dataclass
class Solution:
    """A minimum-cost perfect matching with its dual values (doubled, see the module)."""

    mate: list[int]
    y: list[int]
    blossoms: list[Blossom]
    roots: list[int]  # blossoms that no other blossom holds


class NoPerfectMatching(Exception):
    """The graph has no perfect matching; ``barrier`` proves it (see the module)."""

    def __init__(self, barrier: list[int], stranded: list[int] = ()) -> None:  # type: ignore[assignment]
        super().__init__("the graph has no perfect matching")
        self.barrier = barrier
        self.stranded = list(stranded)  # the vertices of the odd components left over


def min_cost_perfect_matching(
    n: int,
    edges: list[tuple[int, int, int]],
    start: list[tuple[int, int]] = (),  # type: ignore[assignment]
) -> Solution:
    """The cheapest perfect matching of ``n`` vertices over ``edges`` ``(a, b, cost)``.

    Costs are integers >= 0. ``start`` pairs must be edges of cost 0 (they are kept
    only while no cheaper rearrangement exists). Raises :class:`NoPerfectMatching`.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * n + 1000))
    try:
        return _Search(n, edges, start).run()
    finally:
        sys.setrecursionlimit(limit)


class _Search:
    """The primal-dual search; vertices are ``0..n-1``, blossoms ``n..2n-1``.

    Internally the dual is kept in the maximum-weight convention (weight = -cost,
    ``u[a] + u[b] + 2 * z(common blossoms) >= 2 * weight``); :meth:`certificate`
    turns it into the module's convention (``y = -u``, ``z`` doubled).
    """

    def __init__(self, n: int, edges: list[tuple[int, int, int]], start) -> None:
        self.n = n
        self.edges = edges
        self.weight = [-cost for _, _, cost in edges]
        self.endpoint = [0] * (2 * len(edges))
        self.neighbours: list[list[int]] = [[] for _ in range(n)]
        for k, (a, b, cost) in enumerate(edges):
            if cost < 0:
                raise ValueError(f"edge {a}-{b} has a negative cost")
            self.endpoint[2 * k], self.endpoint[2 * k + 1] = a, b
            self.neighbours[a].append(2 * k + 1)
            self.neighbours[b].append(2 * k)
        self.mate = [-1] * n
        self.label = [FREE] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int] | None] = [None] * (2 * n)
        self.base = list(range(n)) + [-1] * n
        self.endps: list[list[int] | None] = [None] * (2 * n)
        self.bestedge = [-1] * (2 * n)
        self.blossombest: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(2 * n - 1, n - 1, -1))
        self.dual = [0] * (2 * n)
        self.allowed = [0] * len(edges)  # the stage in which the edge was seen tight
        self.stage = 0
        self.labeled: set[int] = set()  # top-level nodes labelled this stage
        self.touched: set[int] = set()  # free vertices given a best edge this stage
        self.queue: list[int] = []
        self._start(start)

    def _start(self, start) -> None:
        wanted = {(a, b) if a < b else (b, a) for a, b in start}
        index = {}
        for k, (a, b, cost) in enumerate(self.edges):
            if cost == 0 and ((a, b) if a < b else (b, a)) in wanted:
                index[(a, b)] = index[(b, a)] = k
        for a, b in start:
            k = index.get((a, b))
            if k is None or self.mate[a] != -1 or self.mate[b] != -1:
                raise ValueError(f"start pair {a}-{b} is not a free edge of cost 0")
            self.mate[a] = 2 * k + (1 if self.endpoint[2 * k] == a else 0)
            self.mate[b] = 2 * k + (0 if self.endpoint[2 * k] == a else 1)

    # -- helpers -------------------------------------------------------------------------

    def slack(self, k: int) -> int:
        return (
            self.dual[self.endpoint[2 * k]]
            + self.dual[self.endpoint[2 * k + 1]]
            - 2 * (self.weight[k])
        )

    def top(self, v: int) -> int:
        """The top-level blossom holding ``v``. ``inblossom`` is only a hint: a new blossom
        sets its children's parent and nothing else, and the walk up shortens the hint,
        so nesting a blossom costs nothing per vertex."""
        inblossom, parent = self.inblossom, self.parent
        b = inblossom[v]
        if parent[b] == -1:
            return b
        while parent[b] != -1:
            b = parent[b]
        inblossom[v] = b
        return b

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out, stack, n, childs = [], [b], self.n, self.childs
        while stack:
            t = stack.pop()
            if t < n:
                out.append(t)
            else:
                stack.extend(childs[t])
        return out

    def assign_label(self, w: int, t: int, p: int) -> None:
        label, labelend, bestedge = self.label, self.labelend, self.bestedge
        while True:
            b = self.top(w)
            self.labeled.add(b)
            label[w] = label[b] = t
            labelend[w] = labelend[b] = p
            bestedge[w] = bestedge[b] = -1
            if t == OUTER:
                self.queue.extend(self.leaves(b))
                return
            mate_base = self.mate[self.base[b]]
            w, t, p = self.endpoint[mate_base], OUTER, mate_base ^ 1

    def scan_blossom(self, v: int, w: int) -> int:
        """The base of the new blossom the edge v-w closes, or -1 for an augmenting path."""
        label, labelend, endpoint, _inblossom = (
            self.label,
            self.labelend,
            self.endpoint,
            self.inblossom,
        )
        path, base = [], -1
        top = self.top
        while v != -1 or w != -1:
            b = top(v)
            if label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            label[b] = SEEN
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = top(v)
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = OUTER
        return base

    def add_blossom(self, base: int, k: int) -> None:
        endpoint, _inblossom, labelend, parent = (
            self.endpoint,
            self.inblossom,
            self.labelend,
            self.parent,
        )
        v, w = endpoint[2 * k], endpoint[2 * k + 1]
        top = self.top
        bb, bv, bw = top(base), top(v), top(w)
        # Walk both sides to the base before any parent changes: ``top`` reads them.
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            path.append(bv)
            endps.append(labelend[bv])
            bv = top(endpoint[labelend[bv]])
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            bw = top(endpoint[labelend[bw]])
        b = self.unused.pop()
        self.base[b] = base
        parent[b] = -1
        for child in path:
            parent[child] = b
        self.childs[b], self.endps[b] = path, endps
        self.labeled.add(b)
        self.label[b] = OUTER
        self.labelend[b] = labelend[bb]
        self.dual[b] = 0
        label = self.label
        for child in path:
            if label[child] == INNER:  # its vertices become outer: scan them too
                self.queue.extend(self.leaves(child))
        slack = self.slack
        best_to: dict[int, int] = {}
        best_slack: dict[int, int] = {}
        for child in path:
            if self.blossombest[child] is None:
                lists = [[p >> 1 for p in self.neighbours[leaf]] for leaf in self.leaves(child)]
            else:
                lists = [self.blossombest[child]]
            for edge_list in lists:
                for e in edge_list:
                    i, j = endpoint[2 * e], endpoint[2 * e + 1]
                    bj = top(j)
                    if bj == b:
                        i, j = j, i
                        bj = top(j)
                    if bj != b and label[bj] == OUTER:
                        s = slack(e)
                        if bj not in best_to or s < best_slack[bj]:
                            best_to[bj], best_slack[bj] = e, s
            self.blossombest[child] = None
            self.bestedge[child] = -1
        self.blossombest[b] = list(best_to.values())
        best, least = -1, None
        for e, s in zip(best_to.values(), best_slack.values(), strict=True):
            if least is None or s < least:
                best, least = e, s
        self.bestedge[b] = best

    def expand_blossom(self, b: int) -> None:
        """Take apart an inner blossom whose value has reached zero, relabelling the part of
        its cycle the tree still runs through."""
        n, parent, inblossom, label, labelend = (
            self.n,
            self.parent,
            self.inblossom,
            self.label,
            self.labelend,
        )
        endpoint, childs = self.endpoint, self.childs[b]
        for s in childs:
            parent[s] = -1
            if s < n:
                inblossom[s] = s
            else:
                for leaf in self.leaves(s):
                    inblossom[leaf] = s
        if label[b] == INNER:
            entry = self.top(endpoint[labelend[b] ^ 1])
            j = childs.index(entry)
            if j & 1:
                j -= len(childs)
                step, trick = 1, 0
            else:
                step, trick = -1, 1
            p = labelend[b]
            endps = self.endps[b]
            while j != 0:
                label[endpoint[p ^ 1]] = FREE
                label[endpoint[endps[j - trick] ^ trick ^ 1]] = FREE
                self.assign_label(endpoint[p ^ 1], INNER, p)
                self.allowed[endps[j - trick] >> 1] = self.stage
                j += step
                p = endps[j - trick] ^ trick
                self.allowed[p >> 1] = self.stage
                j += step
            bv = childs[j]
            self.labeled.add(bv)
            label[endpoint[p ^ 1]] = label[bv] = INNER
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            self.bestedge[bv] = -1
            j += step
            while childs[j] != entry:
                bv = childs[j]
                if label[bv] == OUTER:
                    j += step
                    continue
                reached = -1
                for leaf in self.leaves(bv):
                    if label[leaf] != FREE:
                        reached = leaf
                        break
                if reached != -1:
                    label[reached] = FREE
                    label[endpoint[self.mate[self.base[bv]]]] = FREE
                    self.assign_label(reached, INNER, labelend[reached])
                j += step
        label[b] = labelend[b] = -1
        self.childs[b] = self.endps[b] = None
        self.base[b] = -1
        self.blossombest[b] = None
        self.bestedge[b] = -1
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        n, parent, endpoint, mate = self.n, self.parent, self.endpoint, self.mate
        t = v
        while parent[t] != b:
            t = parent[t]
        if t >= n:
            self.augment_blossom(t, v)
        childs, endps = self.childs[b], self.endps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            step, trick = 1, 0
        else:
            step, trick = -1, 1
        while j != 0:
            j += step
            t = childs[j]
            p = endps[j - trick] ^ trick
            if t >= n:
                self.augment_blossom(t, endpoint[p])
            j += step
            t = childs[j]
            if t >= n:
                self.augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        self.childs[b] = childs[i:] + childs[:i]
        self.endps[b] = endps[i:] + endps[:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment(self, k: int, end: int) -> None:
        """Flip the path from the tree's root over edge ``k`` to the unmatched ``end``."""
        endpoint, top, labelend, n = self.endpoint, self.top, self.labelend, self.n
        for s, p in ((endpoint[2 * k], 2 * k + 1), (endpoint[2 * k + 1], 2 * k)):
            if s == end:  # outside the tree: its blossom (if any) turns to end there
                bs = top(s)
                if bs >= n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                continue
            while True:
                bs = top(s)
                if bs >= n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = top(t)
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= n:
                    self.augment_blossom(bt, j)
                self.mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    # -- the stages ----------------------------------------------------------------------

    def run(self) -> Solution:
        n = self.n
        if n % 2:
            raise NoPerfectMatching(self._barrier_of_odd())
        for root in range(n):
            if self.mate[root] == -1 and not self._stage(root):
                raise NoPerfectMatching(self._barrier(), self._stranded())
        return self.certificate()

    def _stage(self, root: int) -> bool:
        """One stage: one alternating tree from ``root``, grown (and the duals changed)
        until it reaches another unmatched vertex. A tree at a time, not one per unmatched
        vertex as in the textbook: in a Swiss field a tree spans a score group or two,
        while growing every tree at once spans the field at every augmentation."""
        n = self.n
        self.stage += 1
        self.label = [FREE] * (2 * n)
        self.bestedge = [-1] * (2 * n)
        for b in range(n, 2 * n):
            self.blossombest[b] = None
        self.labeled, self.touched = set(), set()
        self.queue = []
        self.assign_label(root, OUTER, -1)
        while True:
            if self._grow():
                return True
            if not self._change_duals():
                return False

    def _grow(self) -> bool:
        """Scan the queue; True once an augmenting path was found and used."""
        queue, endpoint, inblossom, allowed = (
            self.queue,
            self.endpoint,
            self.inblossom,
            self.allowed,
        )
        label, bestedge, dual, weight = self.label, self.bestedge, self.dual, self.weight
        neighbours, parent, top = self.neighbours, self.parent, self.top
        stage, touched = self.stage, self.touched
        while queue:
            v = queue.pop()
            bv = inblossom[v]
            if parent[bv] != -1:
                bv = top(v)
            dv = dual[v]
            for p in neighbours[v]:
                k = p >> 1
                w = endpoint[p]
                bw = inblossom[w]
                if parent[bw] != -1:
                    bw = top(w)
                if bv == bw:
                    continue
                if allowed[k] != stage:
                    kslack = dv + dual[w] - 2 * weight[k]
                    if kslack <= 0:
                        allowed[k] = stage
                if allowed[k] == stage:
                    lw = label[bw]
                    if lw == FREE:
                        if self.mate[self.base[bw]] == -1:  # another tree's root: augment
                            self.augment(k, w)
                            return True
                        self.assign_label(w, INNER, p ^ 1)
                    elif lw == OUTER:
                        # One tree: two of its outer nodes always close a blossom.
                        self.add_blossom(self.scan_blossom(v, w), k)
                        bv = top(v)
                    elif label[w] == FREE:
                        label[w] = INNER
                        self.labelend[w] = p ^ 1
                elif label[bw] == OUTER:
                    best = bestedge[bv]
                    if best == -1 or kslack < (
                        dual[endpoint[2 * best]] + dual[endpoint[2 * best + 1]] - 2 * weight[best]
                    ):
                        bestedge[bv] = k
                elif label[w] == FREE:
                    best = bestedge[w]
                    if best == -1 or kslack < (
                        dual[endpoint[2 * best]] + dual[endpoint[2 * best + 1]] - 2 * weight[best]
                    ):
                        bestedge[w] = k
                        touched.add(w)
        return False

    def _change_duals(self) -> bool:
        """The largest feasible dual step; False if none is bounded (no perfect matching).

        Only the tree's own nodes change, and only the free vertices next to it bound the
        step, so the work is the tree's size, not the field's.
        """
        label, top, bestedge, dual = self.label, self.top, self.bestedge, self.dual
        parent, base, slack, n = self.parent, self.base, self.slack, self.n
        delta, kind, edge, blossom = None, 0, -1, -1
        for v in self.touched:
            if bestedge[v] != -1 and label[top(v)] == FREE:
                d = slack(bestedge[v])
                if delta is None or d < delta:
                    delta, kind, edge = d, 2, bestedge[v]
        tops = [b for b in self.labeled if parent[b] == -1 and (b < n or base[b] >= 0)]
        for b in tops:
            if label[b] == OUTER and bestedge[b] != -1:
                d = slack(bestedge[b])
                if d % 2:
                    raise AssertionError("odd slack between outer blossoms")
                d //= 2
                if delta is None or d < delta:
                    delta, kind, edge = d, 3, bestedge[b]
            elif b >= n and label[b] == INNER and (delta is None or dual[b] < delta):
                delta, kind, blossom = dual[b], 4, b
        if delta is None:
            return False
        for b in tops:
            step = -delta if label[b] == OUTER else delta if label[b] == INNER else 0
            if not step:
                continue
            if b < n:
                dual[b] += step
                continue
            dual[b] -= step
            for v in self.leaves(b):
                dual[v] += step
        if kind == 2:
            self.allowed[edge] = self.stage
            i, j = self.endpoint[2 * edge], self.endpoint[2 * edge + 1]
            if label[top(i)] == FREE:
                i = j
            self.queue.append(i)
        elif kind == 3:
            self.allowed[edge] = self.stage
            self.queue.append(self.endpoint[2 * edge])
        else:
            self.expand_blossom(blossom)
        return True

    # -- results -------------------------------------------------------------------------

    def certificate(self) -> Solution:
        n, endpoint = self.n, self.endpoint
        mate = [endpoint[p] for p in self.mate]
        kept: dict[int, int] = {}
        blossoms: list[Blossom] = []

        def collect(b: int) -> tuple[list[int], list[int]]:
            """(vertices, kept blossoms) directly under ``b`` once zero blossoms are lifted."""
            vertices: list[int] = []
            inner: list[int] = []
            for child in self.childs[b]:
                if child < n:
                    vertices.append(child)
                elif self.dual[child] > 0:
                    inner.append(build(child))
                else:
                    more_v, more_b = collect(child)
                    vertices.extend(more_v)
                    inner.extend(more_b)
            return vertices, inner

        def build(b: int) -> int:
            vertices, inner = collect(b)
            kept[b] = len(blossoms)
            blossoms.append(Blossom(2 * self.dual[b], vertices, inner))
            return kept[b]

        roots: list[int] = []
        for b in range(n, 2 * n):
            if self.base[b] >= 0 and self.parent[b] == -1:
                if self.dual[b] > 0:
                    roots.append(build(b))
                else:
                    roots.extend(collect(b)[1])
        return Solution(mate, [-u for u in self.dual[:n]], blossoms, roots)

    def _barrier_of_odd(self) -> list[int]:
        return []

    def _stranded(self) -> list[int]:
        return [v for v in range(self.n) if self.label[self.top(v)] == OUTER]

    def _barrier(self) -> list[int]:
        """Tutte's barrier from the last stage: the vertices of inner (T) top-level blossoms.

        When no dual step is bounded, no edge leaves the outer vertices except to inner
        ones, so removing the inner vertices leaves every outer blossom (odd) as its own
        component, one more than the inner ones per tree.
        """
        n = self.n
        out = []
        for v in range(n):
            if self.label[self.top(v)] == INNER:
                out.append(v)
        return out
