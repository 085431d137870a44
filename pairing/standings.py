"""Standings with the usual card-game tiebreakers, computed exactly (no Django).

Plain data in and out (section 3 of ``pairing-and-events.md``):
:func:`compute_standings` takes players and matches, :func:`standings_from_event`
takes an ``arbiter-event/1`` document. Both return rows in rank order::

    {"rank": 1, "player": "p1", "name": "Ada Lovelace", "match_points": 12,
     "record": "4-0-0", "omw": 0.625, "gw": 0.8, "ogw": 0.5833}

Definitions (all exact, with fractions; shown rounded):

* A match's result comes from its games: more game wins wins, equal is a draw.
  Matches and games score ``points`` (default win 3, draw 1, loss 0).
* A bye is a match won 2-0 and has no opponent. A round a late entry missed is a
  match lost 0-2 with no opponent (``"missed": true``).
* ``record`` is wins-losses-draws ("W-L-D", the usual card-game order; byes are wins).
* MW% = match points / (win points x matches played); GW% likewise for games. Own
  GW% is floored at 1/3 (1/3 when no game was played).
* OMW% = mean of the opponents' MW%, each floored at 1/3; OGW% = mean of the
  opponents' GW%, each floored at 1/3; OOMW% = mean of the opponents' OMW%. A player
  who met the same opponent twice counts them twice (once per match); a player with
  no opponents (only byes) has 0. Dropped players still count as opponents.
* Percentages are shown as fractions rounded to 4 decimals, halves to even
  (0.6250 is 0.625 in JSON).

Tiebreakers, best first, chosen by the event from :data:`TIEBREAKERS` (default
:data:`DEFAULT_TIEBREAKERS`). Players equal on every tiebreaker get distinct ranks in
the order of the input ``players`` list (registration order, or whatever order the
caller wants ties to fall in), so the standings can seed pairings and a top cut.
Disqualified players are ranked after everyone else (they keep their row, marked
``"disqualified": true``); dropped players are ranked normally, marked
``"dropped": true``. A registered player with no match has no row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

TIEBREAKERS = {
    "match_points": "match points",
    "omw": "opponents' match-win percentage (each floored at 1/3)",
    "gw": "game-win percentage (floored at 1/3)",
    "ogw": "opponents' game-win percentage (each floored at 1/3)",
    "oomw": "opponents' opponents' match-win percentage (mean of the opponents' OMW%)",
}
DEFAULT_TIEBREAKERS = ("match_points", "omw", "gw", "ogw")
DEFAULT_POINTS = {"win": 3, "draw": 1, "loss": 0}
_SHOWN = ("omw", "gw", "ogw")


_MISSED = -2  # the "second player" of a round a late entry missed


class StandingsInputError(ValueError):
    """Malformed standings input; the message names the match or player and the field."""


def compute_standings(
    players: Sequence[dict[str, Any]],
    matches: Iterable[dict[str, Any]],
    *,
    points: dict[str, int] | None = None,
    tiebreakers: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Rows in rank order for ``players`` (id, name, dropped, disqualified) and ``matches``.

    A match is ``{"round": 2, "players": ["p1", "p2"], "games": ["p1", null, "p1"]}``
    or ``{"round": 2, "players": ["p5"], "bye": true}``, or a missed round
    ``{"round": 1, "players": ["p9"], "missed": true}``.
    """
    scoring = _check_points(points)
    order = _check_tiebreakers(tiebreakers)
    win, draw, loss = scoring["win"], scoring["draw"], scoring["loss"]

    index: dict[Any, int] = {}
    for i, p in enumerate(players):
        if not isinstance(p, dict) or "id" not in p:
            raise StandingsInputError(f'players[{i}] must be an object with an "id"')
        if p["id"] in index:
            raise StandingsInputError(f"players[{i}] (id {p['id']!r}): duplicate id")
        index[p["id"]] = i
    n = len(players)
    wins, losses, draws = [0] * n, [0] * n, [0] * n
    game_points, games = [0] * n, [0] * n
    opponents: list[list[int]] = [[] for _ in range(n)]
    rounds_of: list[set[Any]] = [set() for _ in range(n)]

    for m, match in enumerate(matches):
        a, b, game_list = _check_match(m, match, index, rounds_of)
        if b == _MISSED:  # a round missed by a late entry: a match lost 0-2
            losses[a] += 1
            game_points[a] += 2 * loss
            games[a] += 2
            continue
        if b < 0:  # a bye: a match won 2-0
            wins[a] += 1
            game_points[a] += 2 * win
            games[a] += 2
            continue
        ida, idb = players[a]["id"], players[b]["id"]
        won_a = won_b = 0
        for winner in game_list:
            if winner == ida:
                won_a += 1
            elif winner == idb:
                won_b += 1
            elif winner is not None:
                raise StandingsInputError(
                    f"matches[{m}]: game winner {winner!r} is not a player of this match"
                )
        drawn = len(game_list) - won_a - won_b
        game_points[a] += won_a * win + drawn * draw + won_b * loss
        game_points[b] += won_b * win + drawn * draw + won_a * loss
        games[a] += len(game_list)
        games[b] += len(game_list)
        if won_a > won_b:
            wins[a] += 1
            losses[b] += 1
        elif won_b > won_a:
            wins[b] += 1
            losses[a] += 1
        else:
            draws[a] += 1
            draws[b] += 1
        opponents[a].append(b)
        opponents[b].append(a)

    played = [wins[i] + losses[i] + draws[i] for i in range(n)]
    match_points = [wins[i] * win + draws[i] * draw + losses[i] * loss for i in range(n)]
    # Every percentage is kept exact as a numerator over a per-player denominator.
    values: dict[str, _Ratios] = {}
    mw = _floored(match_points, [win * c for c in played])
    values["gw"] = _floored(game_points, [win * c for c in games])
    values["omw"] = _means(mw, opponents)
    values["ogw"] = _means(values["gw"], opponents)
    if "oomw" in order:
        values["oomw"] = _means(values["omw"], opponents)

    keys = {"match_points": match_points}
    for name in order:
        if name != "match_points":
            keys[name] = _common(values[name])[0]
    ranked = [i for i in range(n) if played[i]]
    ranked.sort(key=lambda i: tuple(-keys[name][i] for name in order))  # stable: input order
    ranked.sort(key=lambda i: bool(players[i].get("disqualified")))

    shown = list(_SHOWN) + [name for name in order if name not in _SHOWN and name in values]
    rows = []
    for rank, i in enumerate(ranked, start=1):
        p = players[i]
        row: dict[str, Any] = {
            "rank": rank,
            "player": p["id"],
            "name": p.get("name", str(p["id"])),
            "match_points": match_points[i],
            "record": f"{wins[i]}-{losses[i]}-{draws[i]}",
        }
        for name in shown:
            nums, dens = values[name]
            row[name] = _shown(nums[i], dens[i])
        if p.get("dropped"):
            row["dropped"] = True
        if p.get("disqualified"):
            row["disqualified"] = True
        rows.append(row)
    return rows


def standings_from_event(
    event: dict[str, Any], *, tiebreakers: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Standings of an ``arbiter-event/1`` document (its swiss rounds only).

    Players named in ``drops`` are dropped; a player entry may carry
    ``"disqualified": true``. Tiebreakers come from the argument, else from
    ``event.event.tiebreakers``, else the default.
    """
    info = event.get("event", {})
    dropped = {d.get("player") for d in event.get("drops", [])}
    players = [
        {**p, "dropped": bool(p.get("dropped")) or p.get("id") in dropped}
        for p in event.get("players", [])
    ]
    matches = [
        {**match, "round": round_.get("number")}
        for round_ in event.get("rounds", [])
        if round_.get("kind", "swiss") == "swiss"
        for match in round_.get("matches", [])
    ]
    return compute_standings(
        players,
        matches,
        points=info.get("points"),
        tiebreakers=tiebreakers if tiebreakers is not None else info.get("tiebreakers"),
    )


# Per player: numerator and denominator of an exact fraction (Fraction objects for
# 16,384 players x 12 rounds would be most of the running time).
_Ratios = tuple[list[int], list[int]]


def _floored(numerators: list[int], denominators: list[int]) -> _Ratios:
    """num/den floored at 1/3; 1/3 when den is 0 (nothing played)."""
    nums, dens = [], []
    for num, den in zip(numerators, denominators, strict=True):
        if den and 3 * num >= den:
            nums.append(num)
            dens.append(den)
        else:
            nums.append(1)
            dens.append(3)
    return nums, dens


def _common(ratios: _Ratios) -> tuple[list[int], int]:
    """The numerators over one common denominator (exact integer sort keys), and it."""
    nums, dens = ratios
    common = math.lcm(*set(dens))
    return [num * (common // den) for num, den in zip(nums, dens, strict=True)], common


def _means(ratios: _Ratios, opponents: list[list[int]]) -> _Ratios:
    """Per player, the mean of ``ratios`` over their opponents (0 with none)."""
    scaled, common = _common(ratios)
    nums, dens = [], []
    for mine in opponents:
        if mine:
            nums.append(sum([scaled[j] for j in mine]))
            dens.append(common * len(mine))
        else:
            nums.append(0)
            dens.append(1)
    return nums, dens


def _shown(num: int, den: int) -> float:
    """num/den rounded to 4 decimals, halves to even, without leaving integers."""
    quotient, remainder = divmod(num * 10000, den)
    if 2 * remainder > den or (2 * remainder == den and quotient % 2):
        quotient += 1
    return quotient / 10000


def _check_points(points: dict[str, int] | None) -> dict[str, int]:
    if points is None:
        return dict(DEFAULT_POINTS)
    if not isinstance(points, dict):
        raise StandingsInputError(f"points must be an object, got {points!r}")
    scoring = {**DEFAULT_POINTS, **points}
    for key in DEFAULT_POINTS:
        value = scoring[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise StandingsInputError(f'points: "{key}" must be a whole number >= 0, got {value!r}')
    if scoring["win"] <= 0:
        raise StandingsInputError('points: "win" must be positive')
    return scoring


def _check_tiebreakers(tiebreakers: Sequence[str] | None) -> list[str]:
    if tiebreakers is None:
        return list(DEFAULT_TIEBREAKERS)
    if isinstance(tiebreakers, str) or not isinstance(tiebreakers, Sequence):
        raise StandingsInputError(f"tiebreakers must be a list, got {tiebreakers!r}")
    for name in tiebreakers:
        if name not in TIEBREAKERS:
            known = ", ".join(TIEBREAKERS)
            raise StandingsInputError(f"unknown tiebreaker {name!r} (known: {known})")
    if len(set(tiebreakers)) != len(tiebreakers):
        raise StandingsInputError(f"tiebreakers repeat a name: {list(tiebreakers)!r}")
    return list(tiebreakers)


def _check_match(
    m: int, match: Any, index: dict[Any, int], rounds_of: list[set[Any]]
) -> tuple[int, int, list[Any]]:
    """(first player, second player or -1 for a bye, games) of ``matches[m]``."""
    try:
        ids = match["players"]
        a = index[ids[0]]
        b = -1 if match.get("bye") else _MISSED if match.get("missed") else index[ids[1]]
    except (KeyError, IndexError, TypeError, AttributeError):
        _explain_bad_match(m, match, index)
        raise  # pragma: no cover - _explain_bad_match always raises here
    games = [] if b < 0 else match.get("games", [])
    if len(ids) != (1 if b < 0 else 2) or a == b or type(games) is not list:
        _explain_bad_match(m, match, index)
    number = match.get("round")
    if number is not None:
        for i, pid in ((a, ids[0]), (b, ids[-1])):
            if i >= 0:
                if number in rounds_of[i]:
                    raise StandingsInputError(
                        f"matches[{m}]: player {pid!r} has two matches in round {number}"
                    )
                rounds_of[i].add(number)
    return a, b, games


def _explain_bad_match(m: int, match: Any, index: dict[Any, int]) -> None:
    """Raise naming what is wrong with ``matches[m]``."""
    where = f"matches[{m}]"
    if not isinstance(match, dict):
        raise StandingsInputError(f"{where} must be an object, got {match!r}")
    ids = match.get("players")
    if not isinstance(ids, list) or not ids:
        raise StandingsInputError(f'{where}: "players" must be a non-empty list')
    for pid in ids:
        if not isinstance(pid, str | int) or pid not in index:
            raise StandingsInputError(f'{where}: "players" names unknown player {pid!r}')
    if match.get("bye"):
        raise StandingsInputError(f"{where}: a bye has exactly one player")
    if len(ids) != 2 or ids[0] == ids[1]:
        raise StandingsInputError(f"{where}: a match has two different players")
    raise StandingsInputError(f'{where}: "games" must be a list, got {match.get("games")!r}')
