"""Check a Swiss round without trusting the program that paired it (standard library only).

    python verify.py STATE.json PAIRING.json

``STATE`` is the pairing input (``round``, ``players`` in standings order, ``seed``),
``PAIRING`` the engine's output with its ``certificate``. The checker exits 0 and
prints the proven cost when the pairing is valid and optimal, 1 naming the first thing
that fails, 2 when a file cannot be read. It imports nothing but the standard library:
it does not run, or need, the engine or any matching library, so a player, a judge or
another pairing program can run it as one file.

What it checks (docs/pairing-certificate.md has the format and the arithmetic):

1. Validity: every active (not dropped) player is paired once or has the bye, nobody
   else appears, no pair has met before or is kept apart by the organiser (unless the
   certificate proves that no pairing free of them exists), and the bye (odd count
   only) goes to the lowest-ranked player without one, passing over a lower-ranked
   player only with a proof (a Tutte barrier) that the rest could not then be paired
   without a rematch.
2. Optimality: the certificate's dual values are feasible on *every* allowed pair of
   the field (not only the pairs an engine looked at) and their total equals the
   pairing's cost, so no pairing costs less (linear-programming duality for matchings).
   A pair's cost is its squared points difference, with the pair-down's height as a
   tie-break (see ``pair_cost``). The check runs per score group and class of equal
   dual values, not per pair of players, so 65,536 players take seconds.
"""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction

FORMAT = "arbiter-swiss-certificate/1"
MAX_DENOMINATOR = 10**6


class Refused(Exception):
    """The pairing is not proven valid and optimal; the message says what failed."""


# --- the field -----------------------------------------------------------------------


class Field:
    """The round's players as the checker sees them: rank order, integer points, history."""

    def __init__(self, state: dict) -> None:
        if not isinstance(state, dict) or not isinstance(state.get("players"), list):
            raise Refused('the state must be an object with a "players" list')
        active = []
        for i, raw in enumerate(state["players"]):
            if not isinstance(raw, dict) or "id" not in raw or "points" not in raw:
                raise Refused(f"players[{i}] must be an object with an id and points")
            if not raw.get("dropped", False):
                active.append(raw)
        self.scale, scaled = scaled_points([p["points"] for p in active])
        order = sorted(range(len(active)), key=lambda i: -scaled[i])  # stable: input order
        self.players = [active[i] for i in order]
        self.points = [scaled[i] for i in order]
        self.ids = [p["id"] for p in self.players]
        self.index = {_key(pid, "the state's players"): v for v, pid in enumerate(self.ids)}
        self.dropped = {
            _key(p["id"], "a dropped player") for p in state["players"] if p.get("dropped", False)
        }
        self.had_bye = [bool(p.get("had_bye", False)) for p in self.players]
        self.met = self._symmetric("opponents")
        self.kept_apart = self._symmetric("avoid")
        self.forbidden = [m | k for m, k in zip(self.met, self.kept_apart, strict=True)]

    @classmethod
    def of(
        cls,
        ids: list,
        points: list[int],
        scale: int,
        had_bye: list[bool],
        met: list[set[int]],
        kept_apart: list[set[int]],
        dropped: set,
    ) -> Field:
        """A field from values already read in rank order (the engine has them): the same
        as reading the state, without reading it twice."""
        field = cls.__new__(cls)
        field.ids, field.points, field.scale, field.had_bye = ids, points, scale, had_bye
        field.index = {pid: v for v, pid in enumerate(ids)}
        field.dropped, field.met, field.kept_apart = dropped, met, kept_apart
        field.forbidden = [m | k if k else m for m, k in zip(met, kept_apart, strict=True)]
        field.players = []
        return field

    def _symmetric(self, key: str) -> list[set[int]]:
        index, out = self.index, [set() for _ in self.ids]
        for v, player in enumerate(self.players):
            where = f'{json.dumps(player["id"])}\'s "{key}"'
            for other in _iterable(player.get(key, []) or [], where):
                w = index.get(_key(other, where))
                if w is not None and w != v:
                    out[v].add(w)
                    out[w].add(v)
        return out

    def show(self, v: int | None) -> str:
        return "the bye" if v is None else json.dumps(self.ids[v])


def _key(pid, where: str):
    """``pid`` checked as a player id: a string or an integer, as the engine's contract
    says (``true`` is not the player 1, nor ``1.0``, nor a list or an object)."""
    if not _is_id(pid):
        raise Refused(f"{where} names {json.dumps(pid)}, which is not a player id")
    return pid


def _is_id(value) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _iterable(value, where: str):
    """What a list field holds, refusing a value Python cannot walk over (null, a number)."""
    if isinstance(value, list | str | dict):
        return value
    raise Refused(f"{where} must be a list, got {json.dumps(value)}")


def scaled_points(values: list) -> tuple[int, list[int]]:
    """Points as integers times a common denominator (at most 10**6), so costs are exact."""
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return 1, [int(v) for v in values]
    exact = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise Refused(f"points must be finite numbers, got {json.dumps(v)}")
        exact.append(Fraction(v) if isinstance(v, int) else Fraction(repr(v)))
    scale = 1
    for value in exact:
        scale = math.lcm(scale, value.denominator)
        if scale > MAX_DENOMINATOR:
            scale = MAX_DENOMINATOR
            break
    return scale, [round(value * scale) for value in exact]


# --- validity ------------------------------------------------------------------------


def read_pairing(field: Field, pairing: dict) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs (higher-ranked first) and the bye as field positions, or refuse naming
    the first player who is missing, doubled, dropped or unknown."""
    if not isinstance(pairing, dict) or not isinstance(pairing.get("pairings"), list):
        raise Refused('the pairing must be an object with a "pairings" list')
    seen: dict[int, str] = {}

    def place(pid, where: str) -> int:
        if _key(pid, where) in field.dropped:
            raise Refused(f"{json.dumps(pid)} has dropped but is {where}")
        v = field.index.get(pid)
        if v is None:
            raise Refused(f"{json.dumps(pid)} is {where} but is not a player of this round")
        if v in seen:
            raise Refused(f"{json.dumps(pid)} is {where} and also {seen[v]}")
        seen[v] = where
        return v

    pairs = []
    for number, pair in enumerate(pairing["pairings"], start=1):
        if not isinstance(pair, list) or len(pair) != 2:
            raise Refused(f"pairings[{number - 1}] must be a list of two player ids")
        a = place(pair[0], f"at table {number}")
        b = place(pair[1], f"at table {number}")
        pairs.append((a, b) if a < b else (b, a))
    bye = pairing.get("bye")
    bye_v = None if bye is None else place(bye, "given the bye")
    for v in range(len(field.ids)):
        if v not in seen:
            raise Refused(f"{field.show(v)} is active but neither paired nor given the bye")
    if bye_v is not None and len(field.ids) % 2 == 0:
        raise Refused("an even number of players, yet someone has the bye")
    return pairs, bye_v


def bye_candidates(field: Field) -> list[int]:
    """Who should have the bye, in order: lowest-ranked without one, then with one."""
    order = list(reversed(range(len(field.ids))))
    return [v for v in order if not field.had_bye[v]] + [v for v in order if field.had_bye[v]]


def check_barrier(field: Field, left_out: int, barrier: list[int]) -> None:
    """Refuse unless removing ``left_out`` and ``barrier`` leaves more odd components
    (over pairs allowed to meet) than the barrier has players: Tutte's proof that the
    rest cannot be paired without a rematch."""
    removed = set(barrier) | {left_out}
    rest = [v for v in range(len(field.ids)) if v not in removed]
    odd = sum(1 for size in component_sizes(rest, field.forbidden) if size % 2)
    if odd <= len(barrier):
        raise Refused(
            f"the bye passes over {field.show(left_out)}, but the barrier given leaves "
            f"{odd} odd groups for {len(barrier)} barrier players: it proves nothing"
        )


def component_sizes(vertices: list[int], forbidden: list[set[int]]) -> list[int]:
    """Connected components of the graph where every pair is joined unless forbidden
    (the complement of a sparse graph), in time linear in the vertices and forbidden pairs."""
    unvisited = set(vertices)
    sizes = []
    while unvisited:
        start = unvisited.pop()
        stack, size = [start], 1
        while stack:
            v = stack.pop()
            reach = [w for w in unvisited if w not in forbidden[v]]
            for w in reach:
                unvisited.discard(w)
            stack.extend(reach)
            size += len(reach)
        sizes.append(size)
    return sizes


def check_bye(field: Field, bye: int | None, certificate: dict) -> None:
    """The bye went to the right player, every lower candidate passed over with a proof."""
    if bye is None:
        return
    candidates = bye_candidates(field)
    barriers = {}
    where = 'the certificate\'s "bye_barriers"'
    for entry in _iterable(certificate.get("bye_barriers", []), where):
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], list):
            raise Refused("bye_barriers entries must be [player, [barrier players]]")
        v = field.index.get(_key(entry[0], "bye_barriers"))
        if v is None or any(_key(w, "bye_barriers") not in field.index for w in entry[1]):
            raise Refused(f"bye_barriers names someone who is not playing: {json.dumps(entry)}")
        barriers[v] = [field.index[w] for w in entry[1]]
    for v in candidates:
        if v == bye:
            return
        if v not in barriers:
            raise Refused(
                f"the bye went to {field.show(bye)}, but {field.show(v)} comes first for it "
                "and no proof says the rest could not then be paired"
            )
        check_barrier(field, v, barriers[v])


# --- the cost ------------------------------------------------------------------------


class Costs:
    """What a pair costs, in integers (docs/pairing-certificate.md, "The cost").

    ``gap`` is the squared points difference; a pair-down also costs its *height*, the
    number of score groups below the higher player's, in a unit too small to outweigh
    one point of gap (``unit``). Rematches and kept-apart pairs are not allowed, except
    in the "fewest_rematches" regime, where each costs ``rematch`` (more than any
    pairing's gap and height together) and the bye is a vertex whose pair with the
    k-th bye candidate costs ``k * bye`` (more than all gaps and heights, less than one
    rematch).
    """

    def __init__(self, field: Field, vertices: list[int], regime: str) -> None:
        levels = sorted({field.points[v] for v in vertices}, reverse=True)
        self.level_of = {p: i for i, p in enumerate(levels)}
        self.levels = len(levels)
        pairs = len(vertices) // 2 + 1
        spread = (levels[0] - levels[-1]) if levels else 0
        self.unit = pairs * max(self.levels - 1, 0) + 1
        most = pairs * (spread * spread * self.unit + self.levels)
        self.regime = regime
        self.bye = most + 1
        self.rematch = (len(vertices) + 1) * self.bye + most + 1 if regime == REMATCHES else 0

    def group_pair(self, higher: int, lower: int) -> int:
        """The cost of a pair between these points (higher first), without history."""
        if higher == lower:
            return 0
        gap = higher - lower
        return gap * gap * self.unit + self.levels - 1 - self.level_of[higher]


REMATCH_FREE, REMATCHES = "rematch_free", "fewest_rematches"


# --- the certificate -----------------------------------------------------------------


class Certificate:
    """The dual values read from JSON onto field positions; the bye vertex is ``-1``."""

    def __init__(self, field: Field, data: dict, vertices: list[int], with_bye: bool) -> None:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise Refused(f'the pairing has no certificate in the format "{FORMAT}"')
        self.regime = data.get("regime", REMATCH_FREE)
        if self.regime not in (REMATCH_FREE, REMATCHES):
            raise Refused(f"unknown certificate regime {json.dumps(self.regime)}")
        inside = set(vertices)
        self.y: dict[int, int] = dict.fromkeys(vertices, 0)
        if with_bye:
            self.y[-1] = 0
        for entry in _list(data, "potentials"):
            pid, value = _pair_entry(entry, "potentials")
            v = self._vertex(field, pid, inside, with_bye, "potentials")
            self.y[v] = value
        self.z: list[int] = []
        self.parent: list[int] = []
        self.leaf_of: dict[int, int] = {}
        blossoms = _list(data, "blossoms")
        self.parent = [-1] * len(blossoms)
        for i, blossom in enumerate(blossoms):
            if not isinstance(blossom, dict):
                raise Refused(f"blossoms[{i}] must be an object")
            z = blossom.get("z")
            if not _is_int(z) or z < 0:
                raise Refused(f"blossoms[{i}] has a negative or non-integer value z")
            self.z.append(z)
            for pid in _iterable(blossom.get("players", []), f'blossoms[{i}]\'s "players"'):
                v = self._vertex(field, pid, inside, with_bye, f"blossoms[{i}]")
                if v in self.leaf_of:
                    raise Refused(f"{json.dumps(pid)} is listed in two blossoms (they must nest)")
                self.leaf_of[v] = i
            for j in _iterable(blossom.get("blossoms", []), f'blossoms[{i}]\'s "blossoms"'):
                if not _is_int(j) or not 0 <= j < len(blossoms) or j == i:
                    raise Refused(f"blossoms[{i}] holds an unknown blossom {json.dumps(j)}")
                if self.parent[j] != -1:
                    raise Refused(f"blossoms[{j}] is held by two blossoms (they must nest)")
                self.parent[j] = i
        self._order_tree()
        self.size = [0] * len(blossoms)
        for i in self.leaf_of.values():
            self.size[i] += 1
        for i in reversed(self.order):
            if self.parent[i] != -1:
                self.size[self.parent[i]] += self.size[i]
        for i, size in enumerate(self.size):
            if size % 2 == 0:
                raise Refused(f"blossoms[{i}] holds {size} players, an even number")

    def _vertex(self, field: Field, pid, inside: set[int], with_bye: bool, where: str) -> int:
        if pid is None and with_bye:
            return -1
        v = field.index.get(_key(pid, where))
        if v is None or v not in inside:
            raise Refused(f"{where} names {json.dumps(pid)}, who is not paired this round")
        return v

    def _order_tree(self) -> None:
        """Blossoms root first; refuse a cycle. Also the sum of z from each root down."""
        children: list[list[int]] = [[] for _ in self.z]
        roots = []
        for i, p in enumerate(self.parent):
            (roots if p == -1 else children[p]).append(i)
        self.order, self.depth, self.total = [], [0] * len(self.z), [0] * len(self.z)
        stack = roots[:]
        while stack:
            i = stack.pop()
            self.order.append(i)
            parent = self.parent[i]
            self.depth[i] = 0 if parent == -1 else self.depth[parent] + 1
            self.total[i] = self.z[i] + (0 if parent == -1 else self.total[parent])
            stack.extend(children[i])
        if len(self.order) != len(self.z):
            raise Refused("the blossoms hold each other in a cycle")

    def shared(self, a: int, b: int) -> int:
        """The sum of z over the blossoms holding both blossom ``a`` and ``b`` (or -1)."""
        if a == -1 or b == -1:
            return 0
        depth, parent = self.depth, self.parent
        while depth[a] > depth[b]:
            a = parent[a]
        while depth[b] > depth[a]:
            b = parent[b]
        while a != b:
            a, b = parent[a], parent[b]
            if a == -1:
                return 0
        return self.total[a]

    def objective(self) -> int:
        """Twice the lower bound the certificate proves."""
        inside = sum(z * (s - 1) // 2 for z, s in zip(self.z, self.size, strict=True))
        return sum(self.y.values()) - inside


def _list(data: dict, key: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise Refused(f'the certificate\'s "{key}" must be a list')
    return value


def _pair_entry(entry, where: str) -> tuple:
    if not isinstance(entry, list) or len(entry) != 2 or not _is_int(entry[1]):
        raise Refused(f"{where} entries must be [player, integer], got {json.dumps(entry)}")
    return entry[0], entry[1]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def violations(field: Field, vertices: list[int], costs: Costs, cert: Certificate, limit: int = 1):
    """Up to ``limit`` allowed pairs ``(a, b)`` whose dual constraint fails, best first.

    Players with the same points, dual value and innermost blossom form a *class*; a
    constraint depends only on the two classes, except that some pairs between them are
    not allowed (they met, or are kept apart). So each pair of classes is checked once,
    and only where the classes' values break it are the forbidden pairs between them
    counted: the check fails exactly when some pair there is allowed. Scanning each
    group's classes by falling dual value stops at the first that cannot break it.
    """
    points, forbidden, y, leaf_of = field.points, field.forbidden, cert.y, cert.leaf_of
    classes: dict[tuple, list[int]] = {}
    for v in vertices:
        classes.setdefault((points[v], y[v], leaf_of.get(v, -1)), []).append(v)
    keys = list(classes)
    class_of = {}
    for c, key in enumerate(keys):
        for v in classes[key]:
            class_of[v] = c
    by_level: dict[int, list[int]] = {}
    for c, key in enumerate(keys):
        by_level.setdefault(key[0], []).append(c)
    for members in by_level.values():
        members.sort(key=lambda c: -keys[c][1])
    levels = sorted(by_level, reverse=True)
    blocked: dict[int, dict[int, int]] = {}
    found: list[tuple[int, int]] = []
    rematches = costs.regime == REMATCHES
    for c, (pc, yc, leaf_c) in enumerate(keys):
        for level in levels:
            if level > pc:
                continue
            base = 2 * costs.group_pair(pc, level)
            for d in by_level[level]:
                _, yd, leaf_d = keys[d]
                if yc + yd <= base:
                    break
                if level == pc and d < c:
                    continue
                if yc + yd - cert.shared(leaf_c, leaf_d) <= base:
                    continue
                pair = _allowed_pair(
                    classes[keys[c]], classes[keys[d]], c == d, forbidden, blocked, class_of, c, d
                )
                if pair is not None:
                    found.append(pair)
                elif rematches:
                    pair = _costly_rematch(
                        classes[keys[c]],
                        classes[keys[d]],
                        forbidden,
                        yc + yd - cert.shared(leaf_c, leaf_d),
                        base,
                        costs,
                    )
                    if pair is not None:
                        found.append(pair)
                if len(found) >= limit:
                    return found
    return found


def _allowed_pair(first, second, same, forbidden, blocked, class_of, c, d):
    """A pair between two classes that may meet, or None if every such pair is forbidden."""
    count = len(first) * (len(first) - 1) // 2 if same else len(first) * len(second)
    if c not in blocked:
        tally: dict[int, int] = {}
        for v in first:
            for w in forbidden[v]:
                other = class_of.get(w)
                if other is not None:
                    tally[other] = tally.get(other, 0) + 1
        blocked[c] = tally
    forbidden_pairs = blocked[c].get(d, 0)
    if same:
        forbidden_pairs //= 2
    if forbidden_pairs >= count:
        return None
    for v in first:
        for w in second:
            if w != v and w not in forbidden[v]:
                return (v, w) if v < w else (w, v)
    return None  # pragma: no cover - the counts above say one exists


def _costly_rematch(first, second, forbidden, value, base, costs):
    if value <= base + 2 * costs.rematch:
        return None
    for v in first:
        for w in second:
            if w != v and w in forbidden[v]:
                return (v, w) if v < w else (w, v)
    return None


# --- the whole check -----------------------------------------------------------------


def verify(state: dict, pairing: dict) -> dict:
    """Check one round; return what was proven, or raise :class:`Refused`."""
    field = Field(state)
    pairs, bye = read_pairing(field, pairing)
    certificate = pairing.get("certificate")
    if not isinstance(certificate, dict):
        raise Refused("the pairing carries no certificate")
    regime = certificate.get("regime", REMATCH_FREE)
    if regime == REMATCH_FREE:
        for a, b in pairs:
            if b in field.met[a]:
                raise Refused(f"rematch: {field.show(a)} and {field.show(b)} have met before")
            if b in field.kept_apart[a]:
                raise Refused(
                    f"{field.show(a)} and {field.show(b)} are kept apart by the organiser"
                )
        check_bye(field, bye, certificate)
        vertices = [v for v in range(len(field.ids)) if v != bye]
        with_bye = False
    else:
        vertices = list(range(len(field.ids)))
        with_bye = len(vertices) % 2 == 1
    costs = Costs(field, vertices, regime)
    cert = Certificate(field, certificate, vertices, with_bye)
    found = violations(field, vertices, costs, cert)
    if with_bye:
        found = found or _bye_violations(field, vertices, costs, cert)
    if found:
        a, b = found[0]
        raise Refused(
            f"the certificate does not hold for the pair ({field.show(a)}, {field.show(b)}): "
            f"their dual values exceed what the pair would cost, so it proves nothing"
        )
    total = 0
    gap = 0
    for a, b in pairs:
        cost = costs.group_pair(field.points[a], field.points[b])
        if b in field.forbidden[a]:
            cost += costs.rematch
        total += cost
        gap += (field.points[a] - field.points[b]) ** 2
    if with_bye:
        total += costs.bye * bye_candidates(field).index(bye)
    bound = cert.objective()
    if bound != 2 * total:
        raise Refused(_why_not_tight(field, pairs, costs, cert, bound, total))
    cost = gap if field.scale == 1 else float(Fraction(gap, field.scale * field.scale))
    return {
        "cost": cost,
        "pairs": len(pairs),
        "pair_downs": sum(1 for a, b in pairs if field.points[a] != field.points[b]),
        "rematches": sum(1 for a, b in pairs if b in field.forbidden[a]),
        "bye": None if bye is None else field.ids[bye],
        "players": len(field.ids),
        "regime": regime,
    }


def _bye_violations(field, vertices, costs, cert):
    order = bye_candidates(field)
    for k, v in enumerate(order):
        if (
            cert.y[v] + cert.y[-1] - cert.shared(cert.leaf_of.get(v, -1), cert.leaf_of.get(-1, -1))
            > 2 * k * costs.bye
        ):
            return [(v, v)]
    return []


def _why_not_tight(field, pairs, costs, cert, bound, total) -> str:
    """Name the matched pair or blossom that keeps the bound below the pairing's cost."""
    for a, b in pairs:
        cost = costs.group_pair(field.points[a], field.points[b])
        value = (
            cert.y[a] + cert.y[b] - cert.shared(cert.leaf_of.get(a, -1), cert.leaf_of.get(b, -1))
        )
        if value != 2 * cost and b not in field.forbidden[a]:
            return (
                f"the pair ({field.show(a)}, {field.show(b)}) is not tight in the certificate, "
                f"so it proves only a lower cost than the pairing's"
            )
    for i, z in enumerate(cert.z):
        if z > 0:
            return f"blossoms[{i}] has a positive value but is not full, so it proves nothing"
    try:
        half = bound / 2
    except OverflowError:  # a bound past the floats' range (absurd dual values)
        half = math.inf if bound > 0 else -math.inf
    return f"the certificate proves a bound of {half}, not the pairing's cost {total}"


def main(argv: list[str] | None = None) -> int:
    """CLI: ``verify STATE PAIRING``; exit 0 proven, 1 refused, 2 unreadable input."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] in ("-h", "--help"):
        print("usage: python verify.py STATE.json PAIRING.json", file=sys.stderr)
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    documents = []
    for path in args:
        try:
            with open(path, encoding="utf-8") as handle:
                documents.append(json.load(handle))
        except (OSError, ValueError) as error:
            print(f"error: cannot read {path}: {error}", file=sys.stderr)
            return 2
    try:
        proven = verify(*documents)
    except Refused as refused:
        print(f"REFUSED: {refused}")
        return 1
    bye = "" if proven["bye"] is None else f", bye to {json.dumps(proven['bye'])}"
    print(
        f"VALID and OPTIMAL: {proven['pairs']} pairs{bye}, {proven['pair_downs']} pair-downs, "
        f"proven cost {proven['cost']} (sum of squared points differences; no valid pairing "
        "costs less, and none as cheap has its pair-downs lower in the standings)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
