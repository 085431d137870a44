"""The metagame of an event, or of some of its phases, from plain data.

What is counted, and why (a page may quote these rules as they stand):

* **Archetypes.** Each player has an archetype key, or None when they have no list
  (they count among the players, never in a share). Shares are of the players with
  an archetype.
* **Cells of one.** An archetype played by exactly one player would tell anyone who
  reads the pairings what that player's deck is, so it is folded into
  :data:`OTHER` ("Other") before anything is counted: it appears in no row, column,
  share or stage. Other itself may hold one player: it names no deck. Asked for the
  ``most`` most played archetypes only, the others join Other as well. A phase's report
  (its players only) names what the whole event names (``field``): an archetype of two
  players keeps its name in the top cut that one of them reached.
* **Stages.** For each later stage (Day 2, the top cut) an archetype's *share* of it
  (its players who reached it / the stage's players with an archetype) and its
  *conversion* (its players who reached it / its players).
* **Match win rate** = match wins / matches played. A drawn match is played and not
  won. Not counted: byes (no opponent, no deck tested), intentional draws (no game
  played, a choice about standings), and mirrors (a match between two decks of the
  same archetype, two in Other included: it is always one win and one loss for the
  archetype, so it only pulls the rate towards 50%; the page says how many there
  were). Matches against a player with no list count for the archetype's row, not in
  the matrix.
* **Intentional draws.** A match marked ``intentional_draw`` is one. Arbiter records
  no such mark yet, so a drawn match without the mark and with no game played (0-0-0)
  is read as one too: nothing was played to learn from.
* **Game win rate** = games won / games played, drawn games played and not won, with
  the same matches left out.
* **Matchup matrix.** For each ordered pair of different archetypes (A, B): A's match
  wins, losses and draws against B, and the win rate with its interval. It is
  antisymmetric by construction: A's wins against B are B's losses against A.
* **Uncertainty.** Every rate and share carries its 95% Wilson score interval and its
  sample size n; a cell or record with n below :data:`MIN_CELL` is ``small``: shown
  greyed and never ranked.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from metagame.stats import wilson

MIN_CELL = 10
"""Below ten matches (or games) a rate's interval is wider than ±0.3 for most rates:
shown greyed and not ranked."""

OTHER = "_other"
"""The key of the archetypes played by one player each, folded together."""

OTHER_NAME = "Other"

MIN_PLAYERS_SHOWN = 2
"""An archetype is shown by its own name from this many players up; below, it is Other."""


@dataclass(frozen=True)
class Proportion:
    """``k`` of ``n`` with its 95% Wilson interval; ``value`` None when n is 0."""

    k: int
    n: int
    value: float | None
    low: float
    high: float

    @classmethod
    def of(cls, k: int, n: int) -> Proportion:
        low, high = wilson(k, n)
        return cls(k, n, k / n if n else None, low, high)


@dataclass(frozen=True)
class Record:
    """Wins, losses and draws from one side; ``rate`` is wins out of all three."""

    wins: int
    losses: int
    draws: int
    n: int
    rate: Proportion
    small: bool

    @classmethod
    def of(cls, wins: int, losses: int, draws: int) -> Record:
        n = wins + losses + draws
        return cls(wins, losses, draws, n, Proportion.of(wins, n), n < MIN_CELL)


@dataclass(frozen=True)
class Stage:
    """An archetype in a later stage: how many reached it, its share, its conversion."""

    reached: int
    share: Proportion
    conversion: Proportion


@dataclass(frozen=True)
class Row:
    """One archetype: players, share, stages, match and game records, mirrors left out."""

    key: str
    name: str
    players: int
    share: Proportion
    stages: dict[str, Stage]
    matches: Record
    games: Record
    mirrors: int


@dataclass(frozen=True)
class Cell:
    """The matchup of ``key`` against ``opponent``, read from ``key``'s side."""

    key: str
    opponent: str
    record: Record


@dataclass(frozen=True)
class Excluded:
    """Matches left out of the win rates, and why (see the module's rules)."""

    byes: int = 0
    intentional_draws: int = 0
    mirrors: int = 0
    without_archetype: int = 0


@dataclass(frozen=True)
class Report:
    """The whole metagame, JSON-ready through :meth:`as_dict`."""

    players: int
    with_archetype: int
    folded: int
    rows: tuple[Row, ...]
    matrix: tuple[Cell, ...]
    excluded: Excluded
    min_cell: int = MIN_CELL
    phases: tuple[str, ...] | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# --- Input -------------------------------------------------------------------------


def named_keys(players: Mapping[Hashable, str | None], most: int | None = None) -> set[str]:
    """The archetypes shown by their own name: played by two players or more (and, with
    ``most``, among the ``most`` most played, ties by key). The rest are Other.

    This is the privacy rule, applied before anything is counted, so no output of the
    report (row, cell, stage) can single out one player's deck. ``most`` is there
    because a field of hundreds of small clusters gives a matrix no one can read.
    """
    counts: dict[str, int] = {}
    for key in players.values():
        if key is not None:
            counts[key] = counts.get(key, 0) + 1
    named = sorted(
        (key for key, n in counts.items() if n >= MIN_PLAYERS_SHOWN),
        key=lambda key: (-counts[key], key),
    )
    return set(named if most is None else named[:most])


def shown_keys(
    players: Mapping[Hashable, str | None],
    most: int | None = None,
    field: Mapping[Hashable, str | None] | None = None,
) -> dict[Hashable, str | None]:
    """Each player's key as shown: an archetype not in :func:`named_keys` becomes Other.

    ``field``: the players whose counts decide which archetypes are named (default
    ``players``): a phase's report names what the whole event names, so an archetype
    keeps its name in the top cut when one of its players got there.
    """
    kept = named_keys(players if field is None else field, most)
    return {player: key if key is None or key in kept else OTHER for player, key in players.items()}


@dataclass(frozen=True)
class _Match:
    """One match record read and checked: the sides, the result and the game counts."""

    a: Hashable
    b: Hashable | None
    winner: Hashable | None
    games_a: int
    games_b: int
    games_drawn: int
    intentional: bool

    @classmethod
    def read(cls, record: Mapping[str, Any]) -> _Match:
        a, b, winner = record["a"], record.get("b"), record.get("winner")
        if winner is not None and winner not in (a, b):
            raise ValueError(f"The winner {winner!r} is not a player of the match {a!r}-{b!r}.")
        games = (
            int(record.get("games_a", 0)),
            int(record.get("games_b", 0)),
            int(record.get("games_drawn", 0)),
        )
        unplayed_draw = winner is None and sum(games) == 0
        intentional = bool(record.get("intentional_draw", unplayed_draw))
        return cls(a, b, winner, *games, intentional)

    def side(self, player: Hashable) -> tuple[str, tuple[int, int, int]]:
        """The result ('win', 'loss' or 'draw') and games (won, lost, drawn) for ``player``."""
        mine, theirs = (
            (self.games_a, self.games_b) if player == self.a else (self.games_b, self.games_a)
        )
        return self.result_for(player), (mine, theirs, self.games_drawn)

    def result_for(self, player: Hashable) -> str:
        if self.winner is None:
            return "draw"
        return "win" if self.winner == player else "loss"


# --- Tallies -----------------------------------------------------------------------


@dataclass
class _Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, result: str, times: int = 1) -> None:
        if result == "win":
            self.wins += times
        elif result == "loss":
            self.losses += times
        else:
            self.draws += times

    def add_games(self, won: int, lost: int, drawn: int) -> None:
        self.wins += won
        self.losses += lost
        self.draws += drawn

    def record(self) -> Record:
        if not (self.wins or self.losses or self.draws):
            return _NONE
        return Record.of(self.wins, self.losses, self.draws)


_NONE = Record.of(0, 0, 0)
"""The record of pairs that never met, shared (it is frozen): a field of hundreds of
archetypes has a matrix of mostly empty cells, and each costs no interval."""


@dataclass
class _Counts:
    matches: dict[str, _Tally] = field(default_factory=dict)
    games: dict[str, _Tally] = field(default_factory=dict)
    cells: dict[tuple[str, str], _Tally] = field(default_factory=dict)
    mirrors: dict[str, int] = field(default_factory=dict)
    byes: int = 0
    intentional: int = 0
    mirror_total: int = 0
    without: int = 0

    def side(self, match: _Match, player: Hashable, key: str) -> None:
        result, games = match.side(player)
        self.matches.setdefault(key, _Tally()).add(result)
        self.games.setdefault(key, _Tally()).add_games(*games)

    def cell(self, match: _Match, key_a: str, key_b: str) -> None:
        result = match.result_for(match.a)
        self.cells.setdefault((key_a, key_b), _Tally()).add(result)
        opposite = {"win": "loss", "loss": "win"}.get(result, "draw")
        self.cells.setdefault((key_b, key_a), _Tally()).add(opposite)


def _count(matches: Iterable[_Match], key_of: Mapping[Hashable, str | None]) -> _Counts:
    """Every match into the rows and the matrix, or into the reason it is left out."""
    counts = _Counts()
    for match in matches:
        if match.b is None:
            counts.byes += 1
            continue
        if match.intentional:
            counts.intentional += 1
            continue
        key_a, key_b = key_of.get(match.a), key_of.get(match.b)
        if key_a is not None and key_a == key_b:
            counts.mirror_total += 1
            counts.mirrors[key_a] = counts.mirrors.get(key_a, 0) + 1
            continue
        for player, key in ((match.a, key_a), (match.b, key_b)):
            if key is not None:
                counts.side(match, player, key)
        if key_a is None or key_b is None:
            counts.without += 1
        else:
            counts.cell(match, key_a, key_b)
    return counts


# --- The report --------------------------------------------------------------------


def _stages(
    key_of: Mapping[Hashable, str | None],
    reached: Mapping[str, Collection[Hashable]],
    sizes: Mapping[str, int],
) -> dict[str, dict[str, Stage]]:
    """For each archetype, each stage: reached, share of the stage, conversion."""
    result: dict[str, dict[str, Stage]] = {key: {} for key in sizes}
    for stage in sorted(reached):
        per_key: dict[str, int] = {}
        for player in reached[stage]:
            key = key_of.get(player)
            if key is not None:
                per_key[key] = per_key.get(key, 0) + 1
        total = sum(per_key.values())
        for key, players in sizes.items():
            got = per_key.get(key, 0)
            result[key][stage] = Stage(got, Proportion.of(got, total), Proportion.of(got, players))
    return result


def _order(sizes: Mapping[str, int]) -> list[str]:
    """Most played first, then by key; Other last, being no archetype of its own."""
    return sorted(sizes, key=lambda key: (key == OTHER, -sizes[key], key))


def metagame_report(
    players: Mapping[Hashable, str | None],
    matches: Iterable[Mapping[str, Any]],
    reached: Mapping[str, Collection[Hashable]] | None = None,
    *,
    names: Mapping[str, str] | None = None,
    phases: Collection[str] | None = None,
    most: int | None = None,
    field: Mapping[Hashable, str | None] | None = None,
) -> Report:
    """The metagame from plain data (the rules it counts by are the module's docstring).

    ``players``: player id → archetype key, None for no list. ``matches``: records
    ``{"a", "b" (None for a bye), "winner" (None for a draw), "games_a", "games_b",
    "games_drawn", "phase", "intentional_draw"}``, the last four optional.
    ``reached``: stage name → the players who reached it (``{"day2": …, "top": …}``).
    ``names``: key → display name (the organiser's, else the computed one; ``OTHER``'s
    too, for a reader of another language).
    ``phases``: count only the matches of these phases (None: all); for a phase's own
    shares, pass only that phase's players. ``most``: name only the ``most`` most
    played archetypes, the rest in Other (the matrix has a cell per ordered pair: 30
    archetypes are 870 cells, 500 are a quarter of a million and over a second).
    ``field``: every player of the event, when ``players`` are one phase's: the event's
    counts then decide which archetypes are named (:func:`shown_keys`).
    """
    key_of = shown_keys(players, most, field)
    wanted = None if phases is None else set(phases)
    chosen = [_Match.read(m) for m in matches if wanted is None or m.get("phase") in wanted]
    counts = _count(chosen, key_of)
    sizes: dict[str, int] = {}
    for key in key_of.values():
        if key is not None:
            sizes[key] = sizes.get(key, 0) + 1
    with_archetype = sum(sizes.values())
    stages = _stages(key_of, reached or {}, sizes)
    label = {OTHER: OTHER_NAME, **(names or {})}  # a page may name Other in its language
    order = _order(sizes)
    rows = tuple(
        Row(
            key,
            label.get(key, key),
            sizes[key],
            Proportion.of(sizes[key], with_archetype),
            stages[key],
            counts.matches.get(key, _Tally()).record(),
            counts.games.get(key, _Tally()).record(),
            counts.mirrors.get(key, 0),
        )
        for key in order
    )
    matrix = tuple(
        Cell(
            key,
            opponent,
            counts.cells[(key, opponent)].record() if (key, opponent) in counts.cells else _NONE,
        )
        for key in order
        for opponent in order
        if opponent != key
    )
    excluded = Excluded(counts.byes, counts.intentional, counts.mirror_total, counts.without)
    folded = len({k for k in players.values() if k is not None}) - len(
        {k for k in sizes if k != OTHER}
    )
    return Report(
        len(players),
        with_archetype,
        folded,
        rows,
        matrix,
        excluded,
        MIN_CELL,
        None if phases is None else tuple(sorted(phases)),
    )
