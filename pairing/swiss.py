"""The Swiss pairing engine: plain data in, an optimal pairing out (no Django).

``python -m pairing.swiss < state.json > pairing.json``; the contract is section 1
of ``pairing-and-events.md``. The Python API is :func:`pair`, which takes typed
:class:`SwissPlayer` values; :func:`pair_round` (contract-shaped player dicts) and
:func:`pair_state` (the whole JSON document) check and convert their input, then call it.

Rank. Players are ranked by points (descending), then by their position in the input:
callers pass players in standings order, so the input order carries the event's
tiebreakers without the engine having to know them. "Higher-ranked first" within a
pair and "lowest-ranked player without a bye" both use this rank.

What comes out, in order of priority:

1. every active (not dropped) player is paired once, or has the bye;
2. no rematch, whenever any rematch-free pairing exists;
3. the bye (odd count only) goes to the lowest-ranked player who has not had one and
   whose removal leaves the rest pairable without rematches; if no such player exists
   (everyone has had a bye, or each would force a rematch), the same rule runs over
   the players who have had one;
4. the least pairing cost, the sum over pairs of the squared points difference
   (pair-downs as few and as small as possible);
5. among equally cheap pairings, pair-downs as low in the standings (score groups) as
   possible;
6. remaining ties broken by the seeded random draw: round 1, or any group of equal
   points, is a random pairing from the seed.

Pairs that must not meet. A player may carry ``avoid``: ids the organiser keeps them
apart from (family, teammates). Either side listing the other is enough; unknown ids and
the player's own are ignored, as in ``opponents``. An avoided pair is treated exactly
like a rematch everywhere above: forbidden while any pairing free of both exists (the
bye rule included), and when none exists a rematch and an avoided pair weigh the same
(a pair that is both counts once). Explanations then carry an :class:`AvoidNote`, and
``stats`` has ``"avoided"`` (only when some player has an ``avoid`` list, so inputs
without one give the same output as before the field existed).

When no rematch-free pairing exists at all (only possible in tiny events, or when
someone has met nearly the whole field: with ``n - 1 >= 2r + 2`` players and at most
``r`` opponents each, one always exists),
the engine minimises rematches first, then prefers a bye for the lowest-ranked
player without one, then cost. ``pairing.solver`` explains why the fast solver is
exact.

Same input and seed give the same output (all of it but ``stats.seconds``). Without
a seed the engine draws one and returns it as ``"seed"`` so the pairing can be
replayed.
"""

from __future__ import annotations

import gc
import json
import math
import random
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal

from pairing import certify, verify
from pairing.blossom import NoPerfectMatching
from pairing.solver import pair_with_fewest_rematches, pair_without_rematches

PlayerId = str | int

# Points with more decimals than this are compared after rounding to 1/MAX_DENOMINATOR.
MAX_DENOMINATOR = 10**6


class SwissInputError(ValueError):
    """The pairing input is malformed; the message names the player and the field."""


DownWhy = Literal["only_one", "all_played", "odd_group", "left_played", "cheaper"]
ByeWhy = Literal["lowest", "everyone_had_one", "no_fresh_fits", "fewest_rematches"]


@dataclass(frozen=True, slots=True)
class DownNote:
    """Why ``player`` plays the lower-scored ``opponent`` (a pair-down), as data.

    ``why``: "only_one" (alone on the points), "all_played" (everyone else there is a
    past opponent), "odd_group" (an odd number there; ``pool`` of them), "left_played"
    (everyone still unpaired there is a past opponent), "cheaper" (pairing within the
    points would cost more elsewhere). ``between``: the points of the score groups
    skipped, none of whom was free. Callers word it (:func:`note_text` with ids).
    """

    kind: ClassVar[Literal["pair_down"]] = "pair_down"
    why: DownWhy
    player: PlayerId
    opponent: PlayerId
    points: int | float
    pool: int
    between: tuple[int | float, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The note as the contract's JSON writes it (this key order, ``between`` a list)."""
        return {
            "kind": self.kind,
            "why": self.why,
            "player": self.player,
            "opponent": self.opponent,
            "points": self.points,
            "pool": self.pool,
            "between": list(self.between),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DownNote:
        """The note back from :meth:`as_dict`'s shape."""
        _check_kind(data, cls.kind)
        return cls(
            why=data["why"],
            player=data["player"],
            opponent=data["opponent"],
            points=data["points"],
            pool=data["pool"],
            between=tuple(data["between"]),
        )


@dataclass(frozen=True, slots=True)
class RematchNote:
    """The pair have met before; ``forced``: no pairing without a rematch existed."""

    kind: ClassVar[Literal["rematch"]] = "rematch"
    forced: bool

    def as_dict(self) -> dict[str, Any]:
        """The note as the contract's JSON writes it."""
        return {"kind": self.kind, "forced": self.forced}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RematchNote:
        """The note back from :meth:`as_dict`'s shape."""
        _check_kind(data, cls.kind)
        return cls(forced=data["forced"])


@dataclass(frozen=True, slots=True)
class AvoidNote:
    """The organiser keeps the pair apart; ``forced``: no pairing free of rematches and
    avoided pairs existed, and this one gave the fewest of them."""

    kind: ClassVar[Literal["avoid"]] = "avoid"
    forced: bool

    def as_dict(self) -> dict[str, Any]:
        """The note as the engine's JSON writes it."""
        return {"kind": self.kind, "forced": self.forced}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AvoidNote:
        """The note back from :meth:`as_dict`'s shape."""
        _check_kind(data, cls.kind)
        return cls(forced=data["forced"])


PairingNote = DownNote | RematchNote | AvoidNote


def note_from_dict(data: dict[str, Any]) -> PairingNote:
    """A pairing note back from its JSON shape, by its ``kind``."""
    kind = data.get("kind")
    if kind == RematchNote.kind:
        return RematchNote.from_dict(data)
    if kind == AvoidNote.kind:
        return AvoidNote.from_dict(data)
    if kind == DownNote.kind:
        return DownNote.from_dict(data)
    raise ValueError(f"unknown pairing note kind: {kind!r}")


@dataclass(frozen=True, slots=True)
class ByeNote:
    """Why ``player`` has the bye, as data (:func:`bye_reason_text` words it with ids).

    ``why``: "lowest" (lowest-ranked without a bye), "everyone_had_one" or
    "no_fresh_fits" (no one without a bye could take it without a rematch), or
    "fewest_rematches" (no pairing without rematches exists). ``skipped`` were
    lower-ranked but would have forced a rematch.
    """

    why: ByeWhy
    player: PlayerId
    had_bye: bool
    skipped: tuple[PlayerId, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The note as the contract's JSON writes it (this key order, ``skipped`` a list)."""
        return {
            "why": self.why,
            "player": self.player,
            "had_bye": self.had_bye,
            "skipped": list(self.skipped),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ByeNote:
        """The note back from :meth:`as_dict`'s shape."""
        return cls(
            why=data["why"],
            player=data["player"],
            had_bye=data["had_bye"],
            skipped=tuple(data["skipped"]),
        )


def _check_kind(data: dict[str, Any], kind: str) -> None:
    if data.get("kind") != kind:
        raise ValueError(f"not a {kind} note: kind {data.get('kind')!r}")


@dataclass(frozen=True, slots=True)
class PairExplanation:
    """Why one pair is as it is: a pair-down, a rematch, or both.

    ``reason`` is the engine's own wording (ids in it, the CLI's output); ``notes`` the
    same as typed data, for callers that word it with people's names.
    """

    pair: tuple[PlayerId, PlayerId]
    reason: str
    notes: tuple[PairingNote, ...]

    def as_dict(self) -> dict[str, Any]:
        """The contract's ``explanations`` entry, exactly as the CLI writes it."""
        return {
            "pair": list(self.pair),
            "reason": self.reason,
            "notes": [note.as_dict() for note in self.notes],
        }


@dataclass
class Pairing:
    """A round's pairing, as plain data; :meth:`as_json` gives the contract's document.

    Each ``explanations`` entry is a :class:`PairExplanation` with typed notes
    (:class:`DownNote`, :class:`RematchNote`); ``bye_note`` is a :class:`ByeNote`.
    :meth:`as_json` writes them as the contract's dicts.
    """

    pairings: list[tuple[PlayerId, PlayerId]]
    bye: PlayerId | None
    seed: int
    stats: dict[str, Any]
    bye_reason: str | None = None
    explanations: list[PairExplanation] = field(default_factory=list)
    bye_note: ByeNote | None = None
    certificate: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        """The output document of ``python -m pairing.swiss`` (``certificate`` only when
        one was asked for, so the contract's document is otherwise unchanged)."""
        document = {
            "pairings": [[a, b] for a, b in self.pairings],
            "bye": self.bye,
            "stats": self.stats,
            "seed": self.seed,
            "bye_reason": self.bye_reason,
            "explanations": [item.as_dict() for item in self.explanations],
            "bye_note": None if self.bye_note is None else self.bye_note.as_dict(),
        }
        if self.certificate is not None:
            document["certificate"] = self.certificate
        return document


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One player as the engine sees them: the typed form of a contract ``players`` entry.

    ``opponents`` lists everyone met in earlier rounds (a bye is not an opponent);
    unknown ids are ignored, so dropped players may stay in it. ``avoid`` lists players
    the organiser keeps them apart from, treated as past opponents for pairing.
    """

    id: PlayerId
    points: int | float
    opponents: tuple[PlayerId, ...]
    had_bye: bool = False
    dropped: bool = False
    avoid: tuple[PlayerId, ...] = ()


def pair(
    players: Sequence[SwissPlayer],
    round_number: int,
    seed: int | None = None,
    *,
    certificate: bool = False,
) -> Pairing:
    """Pair one round of ``players``, given in standings order (the engine's one entry point).

    With ``certificate``, the result carries the proof of optimality that
    ``pairing.verify`` checks against :func:`state_document` of the same input.
    Raises :class:`SwissInputError` on malformed input, naming the player and the field.
    """
    started = time.perf_counter()
    _check_round_and_seed(round_number, seed)
    checked = _checked_players(players, round_number)
    if seed is None:
        seed = secrets.randbelow(2**53)
    rng = random.Random(seed)

    active = [p for p in checked if not p.dropped]
    # The checker's own scaling: the engine and the checker must read points alike.
    scale, points = verify.scaled_points([p.points for p in active])
    order = sorted(range(len(active)), key=lambda i: -points[i])  # stable: input order
    active = [active[i] for i in order]
    points = [points[i] for i in order]
    position = {p.id: v for v, p in enumerate(active)}
    played = [{position[o] for o in p.opponents if o in position} for p in active]
    for v, seen in enumerate(played):  # make "has played" symmetric, drop self-references
        seen.discard(v)
        for w in seen:
            if v not in played[w]:
                played[w].add(v)

    avoided = _avoided(active, position) if any(p.avoid for p in checked) else None
    forbidden = played
    if avoided is not None:  # a new set only for the few players who avoid someone
        forbidden = list(played)
        for v, kept in avoided.items():
            forbidden[v] = played[v] | kept

    exact = _ExactSearch(lambda: _field(checked, active, points, scale, played, avoided), rng)
    bye, pairs, bye_note, forced = _pair(points, forbidden, active, rng, exact)

    pairs.sort(key=lambda pair: (-points[pair[0]], -points[pair[1]], pair[0]))
    explanations = _explain(pairs, bye, points, played, active, forced, avoided)
    cost = sum((points[a] - points[b]) ** 2 for a, b in pairs)
    stats: dict[str, Any] = {
        "pair_downs": sum(1 for a, b in pairs if points[a] != points[b]),
        "rematches": sum(1 for a, b in pairs if b in played[a]),
    }
    if avoided is not None:
        stats["avoided"] = sum(1 for a, b in pairs if b in avoided.get(a, ()))
    stats["cost"] = cost if scale == 1 else float(Fraction(cost, scale * scale))
    pairings = [(active[a].id, active[b].id) for a, b in pairs]
    bye_id = None if bye is None else active[bye].id
    proof = None
    if certificate:
        proof = exact.proofs.get(bye)
        if proof is None:
            proof = certify.certificate(exact.field(), pairs, bye, forced, seed)
    stats["seconds"] = round(time.perf_counter() - started, 6)
    return Pairing(
        pairings=pairings,
        bye=bye_id,
        seed=seed,
        stats=stats,
        bye_reason=None if bye_note is None else bye_reason_text(bye_note),
        explanations=explanations,
        bye_note=bye_note,
        certificate=proof,
    )


def state_document(
    players: Sequence[SwissPlayer], round_number: int, seed: int | None
) -> dict[str, Any]:
    """The contract's input document for these players: what ``pairing.verify`` reads, and
    what an audit publishes (ids, points, opponents, byes, drops, pairs kept apart)."""
    out = []
    for p in players:
        entry: dict[str, Any] = {
            "id": p.id,
            "points": p.points,
            "opponents": list(p.opponents),
            "had_bye": p.had_bye,
            "dropped": p.dropped,
        }
        if p.avoid:
            entry["avoid"] = list(p.avoid)
        out.append(entry)
    return {"round": round_number, "seed": seed, "players": out}


def pair_round(
    players: Sequence[dict[str, Any]],
    round_number: int,
    seed: int | None = None,
    *,
    certificate: bool = False,
) -> Pairing:
    """Pair one round. ``players`` are dicts as in the JSON contract, in standings order.

    The dicts are checked (each error names the first bad player and field) and
    turned into :class:`SwissPlayer` values for :func:`pair`. Raises
    :class:`SwissInputError` on malformed input.
    """
    _check_round_and_seed(round_number, seed)
    players = _players_from_dicts(players, round_number)
    return pair(players, round_number, seed, certificate=certificate)


def pair_state(state: Any, *, certificate: bool = False) -> dict[str, Any]:
    """Pair the round described by a contract input document; return the output document
    (with ``certificate``: and the proof of optimality, docs/pairing-certificate.md)."""
    if not isinstance(state, dict):
        raise SwissInputError(f"the input must be a JSON object, got {_show(state)}")
    for key in ("round", "players"):
        if key not in state:
            raise SwissInputError(f'the input has no "{key}"')
    return pair_round(
        state["players"], state["round"], state.get("seed"), certificate=certificate
    ).as_json()


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: state JSON on stdin, pairing JSON on stdout; exit 2 on bad input."""
    args = list(sys.argv[1:] if argv is None else argv)
    with_certificate = "--certificate" in args
    args = [a for a in args if a != "--certificate"]
    if args:
        print(
            "usage: python -m pairing.swiss [--certificate] < state.json > pairing.json\n"
            "Pairs one Swiss round; see docs/pairing-and-events.md section 1. With\n"
            "--certificate the output carries the proof of optimality that\n"
            "python -m pairing.verify STATE PAIRING checks (docs/pairing-certificate.md).",
            file=sys.stderr,
        )
        return 0 if args[0] in ("-h", "--help") else 2
    # A one-shot run allocates a lot and frees nothing worth collecting: skip the GC.
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            state = json.load(sys.stdin)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            print(f"error: the input is not valid JSON: {error}", file=sys.stderr)
            return 2
        try:
            result = pair_state(state, certificate=with_certificate)
        except SwissInputError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        sys.stdout.write(json.dumps(result))
        sys.stdout.write("\n")
        return 0
    finally:
        if collecting:
            gc.enable()


# --- pairing -------------------------------------------------------------------------


def _avoided(active: list[SwissPlayer], position: dict[PlayerId, int]) -> dict[int, set[int]]:
    """Who active players must not meet, by position: symmetric, no self, known ids only
    (only players with someone to avoid are keys)."""
    avoided: dict[int, set[int]] = {}
    for v, player in enumerate(active):
        for other in player.avoid:
            w = position.get(other)
            if w is not None and w != v:
                avoided.setdefault(v, set()).add(w)
                avoided.setdefault(w, set()).add(v)
    return avoided


class _ExactSearch:
    """The search over score groups that also proves its answer (:mod:`pairing.certify`),
    for fields the decomposition cannot split (few players per score); its proofs are
    kept by bye, so a certificate asked for costs nothing more."""

    def __init__(self, make_field: Callable[[], verify.Field], rng: random.Random) -> None:
        self.make_field, self.rng = make_field, rng
        self._field: verify.Field | None = None
        self.proofs: dict[int | None, dict[str, Any]] = {}

    def field(self) -> verify.Field:
        if self._field is None:
            self._field = self.make_field()
        return self._field

    def solver_for(self, bye: int | None):
        """The callable ``pair_without_rematches`` uses for a large segment."""
        return lambda: self.solve(bye)

    def solve(self, bye: int | None) -> list[tuple[int, int]] | None:
        try:
            pairs, proof = certify.solve(self.field(), bye, self.rng)
        except NoPerfectMatching:
            return None
        self.proofs[bye] = proof
        return pairs


def _field(
    players: Sequence[SwissPlayer],
    active: list[SwissPlayer],
    points: list[int],
    scale: int,
    played: list[set[int]],
    avoided: dict[int, set[int]] | None,
) -> verify.Field:
    """The checker's view of this round, from what the engine has already read (the same
    values the checker reads from :func:`state_document`, in the same rank order)."""
    kept_apart = [avoided.get(v, set()) for v in range(len(active))] if avoided else None
    return verify.Field.of(
        ids=[p.id for p in active],
        points=points,
        scale=scale,
        had_bye=[p.had_bye for p in active],
        met=played,
        kept_apart=kept_apart or [set() for _ in active],
        dropped={p.id for p in players if p.dropped},
    )


def _pair(
    points: list[int],
    played: list[set[int]],
    active: list[SwissPlayer],
    rng: random.Random,
    exact: _ExactSearch,
) -> tuple[int | None, list[tuple[int, int]], ByeNote | None, bool]:
    """(bye, pairs, why the bye, whether rematches were unavoidable), by active position."""
    n = len(active)
    if n % 2 == 0:
        pairs = pair_without_rematches(points, played, rng, large=exact.solver_for(None))
        if pairs is not None:
            return None, pairs, None, False
        pairs, _ = pair_with_fewest_rematches(points, played, rng, None)
        return None, pairs, None, True

    fresh = [v for v in reversed(range(n)) if not active[v].had_bye]
    candidates = fresh + [v for v in reversed(range(n)) if active[v].had_bye]
    for tried, bye in enumerate(candidates):
        rest = [v for v in range(n) if v != bye]
        pairs = pair_without_rematches(points, played, rng, rest, exact.solver_for(bye))
        if pairs is None:
            continue
        return bye, pairs, _bye_note(active, candidates[:tried], bye, bool(fresh)), False

    pairs, bye = pair_with_fewest_rematches(points, played, rng, candidates)
    assert bye is not None
    note = ByeNote("fewest_rematches", active[bye].id, active[bye].had_bye)
    return bye, pairs, note, True


def _bye_note(active: list[SwissPlayer], skipped: list[int], bye: int, fresh: bool) -> ByeNote:
    """Why this player has the bye (``bye_reason_text`` words it with ids; a caller that
    knows names words it with those). ``skipped`` were lower-ranked but would force a
    rematch."""
    why: ByeWhy
    if not fresh:
        why = "everyone_had_one"
    elif active[bye].had_bye:
        why = "no_fresh_fits"
    else:
        why = "lowest"
    return ByeNote(why, active[bye].id, active[bye].had_bye, tuple(active[v].id for v in skipped))


def bye_reason_text(note: ByeNote) -> str:
    """The engine's own wording of a bye note, naming players by id (the CLI's output)."""
    why = note.why
    if why == "fewest_rematches":
        return (
            "bye: no pairing without rematches exists; among the byes that give the fewest "
            "rematches this is the lowest-ranked player"
            + (" who has not had a bye" if not note.had_bye else "")
        )
    if why == "everyone_had_one":
        reason = "bye: every player has had a bye, so it goes to the lowest-ranked player"
    elif why == "no_fresh_fits":
        reason = (
            "bye: no player without a bye can take it without forcing a rematch, so it goes "
            "to the lowest-ranked player"
        )
    else:
        reason = "bye: lowest-ranked player who has not had a bye"
    if note.skipped:
        names = ", ".join(_name(pid) for pid in note.skipped)
        reason += f" whose removal leaves the rest pairable without rematches ({names} could not)"
    return reason


def _explain(
    pairs: list[tuple[int, int]],
    bye: int | None,
    points: list[int],
    played: list[set[int]],
    active: list[SwissPlayer],
    forced: bool,
    avoided: dict[int, set[int]] | None = None,
) -> list[PairExplanation]:
    """A short reason for every pair-down, rematch and avoided pair, in table order.

    Each entry has the engine's ``reason`` (ids in it) and the same as data in ``notes``
    (:class:`DownNote`, :class:`RematchNote`, :class:`AvoidNote`), for callers that word
    it with names. Pair-downs are explained by the real history (``played``) alone."""
    partner: dict[int, int] = {}
    for a, b in pairs:
        partner[a], partner[b] = b, a
    members: dict[int, list[int]] = {}
    for v in range(len(active)):
        if v != bye:
            members.setdefault(points[v], []).append(v)
    levels = sorted(members, reverse=True)
    out = []
    for a, b in pairs:
        notes: list[PairingNote] = []
        if points[a] != points[b]:
            notes.append(_why_down(a, b, points, played, active, partner, members, levels))
        if b in played[a]:
            notes.append(RematchNote(forced))
        if avoided and b in avoided.get(a, ()):
            notes.append(AvoidNote(forced))
        if notes:
            out.append(
                PairExplanation(
                    (active[a].id, active[b].id),
                    "; ".join(note_text(note) for note in notes),
                    tuple(notes),
                )
            )
    return out


def note_text(note: PairingNote) -> str:
    """The engine's own wording of one pairing note, naming players by id."""
    if isinstance(note, AvoidNote):
        return (
            "kept apart by the organiser, but no pairing without rematches or such pairs exists"
            if note.forced
            else "kept apart by the organiser"  # pragma: no cover - the solver never returns one
        )
    if isinstance(note, RematchNote):
        return (
            "rematch: no pairing without rematches exists"
            if note.forced
            else "rematch"  # pragma: no cover - the solver never returns one
        )
    name = _name(note.player)
    shown = _points_text(note.points)
    why = note.why
    if why == "only_one":
        reason = f"paired down: {name} is the only player on {shown} points"
    elif why == "all_played":
        reason = f"paired down: {name} has already played everyone else on {shown} points"
    elif why == "odd_group":
        reason = f"paired down: {note.pool} players to pair on {shown} points, an odd number"
    elif why == "left_played":
        reason = f"paired down: everyone left on {shown} points has already played {name}"
    else:
        reason = (
            f"paired down: keeping {name} on {shown} points would cost a rematch or a "
            "bigger pair-down elsewhere"
        )
    if note.between:
        shown_between = ", ".join(_points_text(q) for q in note.between)
        reason += f"; no one on {shown_between} points was free to play them"
    return reason


def _why_down(
    a: int,
    b: int,
    points: list[int],
    played: list[set[int]],
    active: list[SwissPlayer],
    partner: dict[int, int],
    members: dict[int, list[int]],
    levels: list[int],
) -> DownNote:
    """Why ``a`` plays the lower-scored ``b``, from the final pairing, as a note (the
    values of ``why`` and ``between`` are described on :class:`DownNote`)."""
    level = points[a]
    group = members[level]
    others = [x for x in group if x != a]
    # The pool: players on these points not taken by someone paired down from above.
    pool = [x for x in group if points[partner[x]] <= level]
    left = [x for x in pool if x != a and points[partner[x]] < level]
    why: DownWhy
    if not others:
        why = "only_one"
    elif all(x in played[a] for x in others):
        why = "all_played"
    elif not left:
        why = "odd_group"
    elif all(x in played[a] for x in left):
        why = "left_played"
    else:
        why = "cheaper"
    between = [q for q in levels if points[b] < q < level]
    return DownNote(
        why=why,
        player=active[a].id,
        opponent=active[b].id,
        points=active[a].points,
        pool=len(pool),
        between=tuple(active[members[q][0]].points for q in between),
    )


# --- input -----------------------------------------------------------------------------


def _check_round_and_seed(round_number: Any, seed: Any) -> None:
    if not _is_int(round_number) or round_number < 1:
        raise SwissInputError(f'"round" must be a positive integer, got {_show(round_number)}')
    if seed is not None and not _is_int(seed):
        raise SwissInputError(f'"seed" must be an integer or null, got {_show(seed)}')


def _players_from_dicts(players: Any, round_number: int) -> list[SwissPlayer]:
    """Check the contract's players list and convert it; every message names the player."""
    if not isinstance(players, list):
        raise SwissInputError(f'"players" must be a list, got {_show(players)}')
    parsed: list[SwissPlayer] = []
    seen: dict[PlayerId, int] = {}
    for i, raw in enumerate(players):
        try:
            pid = raw["id"]
            points = raw["points"]
            opponents = raw["opponents"]
            had_bye = raw.get("had_bye", False)
            dropped = raw.get("dropped", False)
            avoid = raw.get("avoid", _NO_AVOID)
        except (TypeError, KeyError, AttributeError):
            pid = points = opponents = had_bye = dropped = avoid = None
        # One cheap test for the common, well-formed case; the details only on failure.
        if (
            type(opponents) is not list
            or not _looks_valid(pid, points, opponents, had_bye, dropped, seen)
            or (avoid is not _NO_AVOID and not _avoid_looks_valid(avoid, list))
        ):
            _check_player(i, raw, seen, list)
        _check_history(i, pid, opponents, had_bye, round_number)
        seen[pid] = i
        parsed.append(SwissPlayer(pid, points, tuple(opponents), had_bye, dropped, tuple(avoid)))
    return parsed


def _checked_players(players: Any, round_number: int) -> Sequence[SwissPlayer]:
    """Check typed players as :func:`_players_from_dicts` checks dicts (same messages)."""
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise SwissInputError(f'"players" must be a list, got {_show(players)}')
    seen: dict[PlayerId, int] = {}
    for i, player in enumerate(players):
        if type(player) is not SwissPlayer:
            raise SwissInputError(f"players[{i}] must be a SwissPlayer, got {_show(player)}")
        pid, opponents = player.id, player.opponents
        if (
            type(opponents) not in _SEQUENCE_TYPES
            or not _looks_valid(pid, player.points, opponents, player.had_bye, player.dropped, seen)
            or (player.avoid and not _avoid_looks_valid(player.avoid, tuple | list))
        ):
            fields = {name: getattr(player, name) for name in SwissPlayer.__slots__}
            _check_player(i, fields, seen, tuple | list)
        _check_history(i, pid, opponents, player.had_bye, round_number)
        seen[pid] = i
    return players


def _looks_valid(
    pid: Any, points: Any, opponents: Any, had_bye: Any, dropped: Any, seen: dict
) -> bool:
    """The fast test for a well-formed player; :func:`_check_player` says what is wrong."""
    return not (
        type(pid) not in _ID_TYPES
        or pid in seen
        or type(points) not in _NUMBER_TYPES
        or not {type(o) for o in opponents} <= _ID_TYPES
        or type(had_bye) is not bool
        or type(dropped) is not bool
        or (type(points) is float and not math.isfinite(points))
    )


def _avoid_looks_valid(avoid: Any, sequence: type) -> bool:
    """The fast test for a well-formed ``avoid`` list (a sequence of ids)."""
    return isinstance(avoid, sequence) and {type(o) for o in avoid} <= _ID_TYPES


def _check_history(i: int, pid: PlayerId, opponents: Any, had_bye: bool, round_number: int) -> None:
    """Each round before this one gave a player one opponent or the bye, never more.

    A longer history is corrupt (a merge of two players, a wrong round number), and
    saying which player and by how much is what lets an organiser find it.
    """
    played = round_number - 1
    if len(opponents) + had_bye <= played:
        return
    met = len(set(opponents) - {pid})
    needed = met + had_bye
    if needed <= played:
        return
    history = f"{met} different opponent{'' if met == 1 else 's'}"
    history += " and a bye" if had_bye else ""
    before = "1 round was" if played == 1 else f"{played} rounds were"
    raise SwissInputError(
        f"players[{i}] (id {_show(pid)}): impossible history: {history} need {needed} "
        f"rounds, but {before} played before round {round_number}"
    )


_NO_AVOID: tuple[PlayerId, ...] = ()
_ID_TYPES = {str, int}
_NUMBER_TYPES = {int, float}
_SEQUENCE_TYPES = {tuple, list}


def _check_player(i: int, raw: Any, seen: dict[PlayerId, int], sequence: type) -> None:
    """Raise naming the first problem with ``players[i]`` (if it has one)."""
    where = f"players[{i}]"
    if not isinstance(raw, dict):
        raise SwissInputError(f"{where} must be an object, got {_show(raw)}")
    if "id" not in raw:
        raise SwissInputError(f'{where} has no "id"')
    pid = raw["id"]
    if not _is_id(pid):
        raise SwissInputError(f'{where}: "id" must be a string or an integer, got {_show(pid)}')
    where = f"{where} (id {_show(pid)})"
    if pid in seen:
        raise SwissInputError(f"{where}: duplicate id, also players[{seen[pid]}]")
    for key in ("points", "opponents"):
        if key not in raw:
            raise SwissInputError(f'{where} has no "{key}"')
    points = raw["points"]
    if not isinstance(points, int | float) or isinstance(points, bool):
        raise SwissInputError(f'{where}: "points" must be a number, got {_show(points)}')
    if not math.isfinite(points):
        raise SwissInputError(f'{where}: "points" must be finite, got {_show(points)}')
    opponents = raw["opponents"]
    if not isinstance(opponents, sequence):
        raise SwissInputError(f'{where}: "opponents" must be a list, got {_show(opponents)}')
    for opponent in opponents:
        if not _is_id(opponent):
            raise SwissInputError(
                f'{where}: "opponents" must list player ids (strings or integers), '
                f"got {_show(opponent)}"
            )
    avoid = raw.get("avoid", [])
    if not isinstance(avoid, sequence):
        raise SwissInputError(f'{where}: "avoid" must be a list, got {_show(avoid)}')
    for other in avoid:
        if not _is_id(other):
            raise SwissInputError(
                f'{where}: "avoid" must list player ids (strings or integers), got {_show(other)}'
            )
    for key in ("had_bye", "dropped"):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise SwissInputError(f'{where}: "{key}" must be true or false, got {_show(value)}')


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_id(value: Any) -> bool:
    return isinstance(value, str) or _is_int(value)


def _show(value: Any) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


def _name(pid: PlayerId) -> str:
    return str(pid)


def _points_text(value: int | float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


if __name__ == "__main__":
    sys.exit(main())
