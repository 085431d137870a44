"""Final placings of an event: the top cut's bands, then the Swiss order (no Django).

Plain data in and out. :func:`final_placings` takes the Swiss standings rows in rank
order (``pairing.standings`` rows: ``player``, and ``dropped``/``disqualified`` when
set) and the top cut's rounds, each a list of matches in bracket order::

    [[{"players": ["p1", "p8"], "winner": "p1"}, ...],   # quarterfinals
     [{"players": ["p1", "p4"], "winner": None}, ...]]   # semifinals, still playing

A single-elimination cut places its players in tied bands by the round they lost in:
the final's winner is 1st and its loser 2nd, the semifinals' losers share 3rd-4th, the
quarterfinals' 5th-8th, and so on. Card games do not play off those ties; within a
band players are listed in Swiss order (their seed). Players still in a cut that is
not over share the band of the round they are playing ("Top 4"), marked undecided.
Everyone who did not make the cut follows in Swiss order, placed after the cut's size
(9th, 10th, … for a top 8). Without a cut the placings are the Swiss order itself.
Dropped and disqualified players keep their marks (the standings rank a disqualified
player last).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class PlacingsInputError(ValueError):
    """Malformed placings input; the message names the round and match."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def place_label(first: int, last: int) -> str:
    """ "1st", or a tied band "5th-8th" (with an en dash, as printed results read)."""
    if first == last:
        return ordinal(first)
    return f"{ordinal(first)}\u2013{ordinal(last)}"


def stage_name(matches: int) -> str:
    """The name of a single-elimination round by its number of matches."""
    names = {1: "final", 2: "semifinal", 4: "quarterfinal"}
    return names.get(matches, f"round of {2 * matches}")


def stage_phrase(stage: str) -> str:
    """A cut's round in a sentence: "the semifinals", "the final", "the round of 16"."""
    plural = stage.endswith("final") and stage != "final"
    return f"the {stage}s" if plural else f"the {stage}"


def final_placings(
    standings: Sequence[Mapping[str, Any]],
    cut_rounds: Sequence[Sequence[Mapping[str, Any]]] = (),
) -> list[dict[str, Any]]:
    """Every standings row, in placing order, with its place added.

    Each row is a copy of the standings row plus ``place`` and ``place_to`` (the band,
    equal when not tied), ``place_label`` ("3rd-4th", en dash), ``cut`` (how far the player went
    in the top cut: "winner", "final", "semifinal", … or None outside it) and
    ``decided`` (False while the player is still playing in the cut).
    """
    seed = {row["player"]: i for i, row in enumerate(standings)}
    row_of = {row["player"]: row for row in standings}
    bands = _cut_bands(cut_rounds, seed)
    in_cut = {player for band in bands for player in band["players"]}
    placed: list[dict[str, Any]] = []
    for band in bands:
        for player in sorted(band["players"], key=seed.__getitem__):
            placed.append(
                {
                    **row_of[player],
                    "place": band["first"],
                    "place_to": band["last"],
                    "place_label": (
                        place_label(band["first"], band["last"])
                        if band["decided"]
                        else f"Top {band['last']}"
                    ),
                    "cut": band["cut"],
                    "decided": band["decided"],
                }
            )
    place = len(in_cut)
    for row in standings:
        if row["player"] in in_cut:
            continue
        place += 1
        placed.append(
            {
                **row,
                "place": place,
                "place_to": place,
                "place_label": ordinal(place),
                "cut": None,
                "decided": True,
            }
        )
    return placed


def winner(placings: Sequence[Mapping[str, Any]]) -> Any:
    """The decided winner of a cut's final (the player's id), or None while it is not."""
    for row in placings:
        if row.get("cut") == "winner" and row.get("decided"):
            return row["player"]
    return None


def _cut_bands(
    cut_rounds: Sequence[Sequence[Mapping[str, Any]]], seed: Mapping[Any, int]
) -> list[dict[str, Any]]:
    """The cut's bands, best first: who shares which places, and whether it is settled."""
    eliminated: list[dict[str, Any]] = []
    alive: list[Any] = []
    for r, matches in enumerate(cut_rounds):
        if not matches:
            raise PlacingsInputError(f"cut_rounds[{r}]: a round needs at least one match")
        players = [_players_of(r, m, match, seed) for m, match in enumerate(matches)]
        entrants = [p for pair in players for p in pair]
        if len(set(entrants)) != len(entrants):
            raise PlacingsInputError(f"cut_rounds[{r}]: a player has two matches in this round")
        if r and sorted(entrants, key=seed.__getitem__) != sorted(alive, key=seed.__getitem__):
            raise PlacingsInputError(
                f"cut_rounds[{r}]: its players are not the winners of the round before"
            )
        size = len(matches)
        winners, losers, playing = [], [], []
        for m, (match, pair) in enumerate(zip(matches, players, strict=True)):
            won = match.get("winner")
            if won is None:
                playing.extend(pair)
            elif won in pair:
                winners.append(won)
                losers.extend(p for p in pair if p != won)
            else:
                raise PlacingsInputError(
                    f"cut_rounds[{r}][{m}]: winner {won!r} is not a player of this match"
                )
        last_round = r == len(cut_rounds) - 1
        if not last_round and playing:
            raise PlacingsInputError(
                f"cut_rounds[{r}]: a later round is paired while this one has no winner"
            )
        if losers:
            eliminated.append(_band(size + 1, 2 * size, losers, stage_name(size), True))
        alive = winners + playing
        if last_round and size == 1 and winners:
            eliminated.append(_band(1, 1, winners, "winner", True))
        elif last_round:
            # Not over: the winners are through to a round not paired yet, the others
            # still play this one; each group shares the places it can still reach.
            if winners:
                eliminated.append(_band(1, size, winners, stage_name(max(1, size // 2)), False))
            if playing:
                eliminated.append(_band(1, 2 * size, playing, stage_name(size), False))
    return sorted(eliminated, key=lambda band: (band["first"], band["last"]))


def _band(first: int, last: int, players: list[Any], cut: str, decided: bool) -> dict[str, Any]:
    return {"first": first, "last": last, "players": players, "cut": cut, "decided": decided}


def _players_of(
    r: int, m: int, match: Mapping[str, Any], seed: Mapping[Any, int]
) -> tuple[Any, Any]:
    """The match's two players, each of them in the standings."""
    where = f"cut_rounds[{r}][{m}]"
    if not isinstance(match, Mapping):
        raise PlacingsInputError(f"{where} must be an object, got {match!r}")
    players = match.get("players")
    if not isinstance(players, list | tuple) or len(players) != 2 or players[0] == players[1]:
        raise PlacingsInputError(f'{where}: "players" must name two different players')
    for player in players:
        if player not in seed:
            raise PlacingsInputError(f"{where}: player {player!r} has no standings row")
    return players[0], players[1]
