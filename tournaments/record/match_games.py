"""A match's games as a value: who won each game, and what that makes the score and the winner.

This is the one module that knows how a match's games are kept. A match row stores
``games``, one entry per game: the winning player's id (a Registration id) or None for
a drawn game. A game-by-game report keeps them in the order they were played
(``in_order``, the row's ``games_in_order``); a score alone says how many, not in which
order, and is kept in score order (the first player's wins, then the second's, then the
draws) with the order unknown: ``game_winner`` then tells a game's winner only where
the score itself does. Penalties add
``forced_games``: games a penalty gave to the opponent, ``{"game", "winner", "penalty"}``,
which any later result must count (905.1, 903.1b, 203.1).

Pure Python, no Django: the tournaments app reads rows into ``MatchGames`` and writes
``stored()``/``forced_stored()`` back, so the rules here are tested without a database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

BEST_OF = {"bo1": 1, "bo3": 3, "bo5": 5}
"""Games in a match of each format; the match is won by winning more than half."""

_COUNT = re.compile(r"[0-9]{1,9}")  # ASCII digits only: str.isdigit also takes "²"


class InvalidResult(ValueError):
    """A score or game that the match or its format does not allow; the message says why."""


class NotInResult(InvalidResult):
    """Said to be in the result already, a game loss the stored games contradict: they say
    the penalised player won that game."""

    def __init__(self, game: int, score: Score):
        super().__init__(
            f"The result {score} says the penalised player won game {game}: it does not "
            "include a Game Loss for them there."
        )


class UnknownGameWinner(InvalidResult):
    """Who won a game, which the stored games cannot tell (a score alone): someone must say."""

    def __init__(self, game: int):
        super().__init__(f"The result cannot tell who won game {game}: say who won it.")
        self.game = game


def best_of(match_format: str) -> int:
    return BEST_OF[match_format]


def games_needed(match_format: str) -> int:
    """Game wins that win the match: 1 of 1, 2 of 3, 3 of 5."""
    return best_of(match_format) // 2 + 1


@dataclass(frozen=True)
class Score:
    """Game wins of player A, of player B, and drawn games."""

    a: int
    b: int
    draws: int = 0

    @classmethod
    def parse(cls, text: str) -> Score:
        # Phones often turn the hyphen of "2-1" into an en dash.
        parts = text.strip().replace("\u2013", "-").split("-")
        stripped = [p.strip() for p in parts]
        if len(parts) not in (2, 3) or not all(_COUNT.fullmatch(p) for p in stripped):
            raise InvalidResult(f"{text!r} is not a score: write it as 2-1 or 1-1-1.")
        numbers = [int(p) for p in stripped] + ([0] if len(parts) == 2 else [])
        return cls(*numbers)

    def swapped(self) -> Score:
        """The same result read from the second player's side."""
        return Score(self.b, self.a, self.draws)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}" + (f"-{self.draws}" if self.draws else "")


def check_score(score: Score, match_format: str, top_cut: bool = False) -> None:
    """A score the format allows: nobody past the games needed to win, not both winners.

    An unfinished match (time called) is fine: 1-0 or 1-1 in a best of three.
    """
    games = best_of(match_format)
    needed = games_needed(match_format)
    if min(score.a, score.b, score.draws) < 0:
        raise InvalidResult("Game counts cannot be negative.")
    if max(score.a, score.b) > needed:
        raise InvalidResult(f"In a best-of-{games} match nobody wins more than {needed} games.")
    if score.a == needed and score.b == needed:
        raise InvalidResult("Both players cannot have won the match.")
    if score.draws > games:
        raise InvalidResult(f"A best-of-{games} match cannot have {score.draws} drawn games.")
    if top_cut and score.a == score.b:
        raise InvalidResult("A top-cut match needs a winner: play it out or enter the winner.")


def check_game_number(game: int, match_format: str) -> None:
    """A game a penalty can name: the format's games, and two more for drawn games."""
    games = best_of(match_format)
    if not 1 <= game <= games + 2:
        raise InvalidResult(f"Game {game} is not a game of a best-of-{games} match.")


def check_game_reached(games: MatchGames, game: int, match_format: str) -> None:
    """A game a penalty can name once the match has a result: one the result counts, or,
    when time was called before anyone won (1-1), the game under way then.

    A match still without a result may name any game of the format (``check_game_number``):
    nobody has said yet how far it got, and the result reported must count the game.
    """
    check_game_number(game, match_format)
    if not games.played:
        return
    played = len(games.games)
    decided = max(games.score.a, games.score.b) >= games_needed(match_format)
    reached = played if decided else played + 1
    if game > reached:
        raise InvalidResult(
            f"Game {game} was never played: the result {games.score} ended the match "
            f"after game {played}."
        )


@dataclass(frozen=True)
class GameWinner:
    """Who won one game, as far as the stored games tell: ``known`` False when they cannot
    (a score alone, the order unknown); ``played`` False for a game the result does not
    count (the game under way when time was called)."""

    known: bool
    winner: int | None = None
    played: bool = True


@dataclass(frozen=True)
class ForcedGame:
    """A game a penalty decided: ``winner`` won game ``game`` because of penalty ``penalty``."""

    game: int
    winner: int | None
    penalty: int | None = None

    def stored(self) -> dict[str, Any]:
        return {"game": self.game, "winner": self.winner, "penalty": self.penalty}


class _MatchRow(Protocol):
    player_a_id: int
    player_b_id: int | None
    games: list
    forced_games: list
    games_in_order: bool


@dataclass(frozen=True)
class MatchGames:
    """The games of one match between ``player_a`` and ``player_b`` (None for a bye)."""

    player_a: int
    player_b: int | None
    games: tuple[int | None, ...] = ()
    forced: tuple[ForcedGame, ...] = field(default=())
    in_order: bool = False

    @classmethod
    def of(cls, match: _MatchRow) -> MatchGames:
        """Read a match row (anything with the row's attributes)."""
        return cls(
            match.player_a_id,
            match.player_b_id,
            tuple(match.games),
            tuple(
                ForcedGame(f["game"], f["winner"], f.get("penalty"))
                for f in match.forced_games or ()
            ),
            bool(getattr(match, "games_in_order", False)),
        )

    @classmethod
    def in_play_order(
        cls, winners: Iterable[int | None], player_a: int, player_b: int | None
    ) -> MatchGames:
        """Each game's winner (None for a draw) in the order played: a game-by-game report."""
        return cls(player_a, player_b, tuple(winners), in_order=True)

    @classmethod
    def from_score(cls, score: Score, player_a: int, player_b: int | None) -> MatchGames:
        return cls(
            player_a,
            player_b,
            (player_a,) * score.a + (player_b,) * score.b + (None,) * score.draws,
        )

    @classmethod
    def from_public(
        cls, player_a: int, player_b: int | None, winners: Iterable[Any], pks: Mapping[Any, int]
    ) -> MatchGames:
        """Games written by public id (None for a draw), as imports and the API give them."""
        return cls(player_a, player_b, tuple(None if w is None else pks[w] for w in winners))

    @classmethod
    def bye(cls, player: int) -> MatchGames:
        """A bye counts as a 2-0 win."""
        return cls(player, None, (player, player))

    def stored(self) -> list[int | None]:
        """The games as the row keeps them."""
        return list(self.games)

    def forced_stored(self) -> list[dict[str, Any]]:
        """The forced games as the row keeps them."""
        return [f.stored() for f in self.forced]

    @property
    def played(self) -> bool:
        """Whether any game has a result yet."""
        return bool(self.games)

    @property
    def score(self) -> Score:
        return Score(
            sum(1 for g in self.games if g == self.player_a),
            sum(1 for g in self.games if g == self.player_b),
            sum(1 for g in self.games if g is None),
        )

    def score_text(self) -> str | None:
        """'2-1', or None while no game has a result."""
        return str(self.score) if self.played else None

    @property
    def winner(self) -> int | None:
        """The winner's id, or None for a draw: more game wins wins the match."""
        score = self.score
        if score.a == score.b:
            return None
        return self.player_a if score.a > score.b else self.player_b

    def public(self, ids: Mapping[int, str]) -> list[str | None]:
        """Each game's winner by public id (None for a draw), as the API and exports write it."""
        return [None if g is None else ids.get(g) for g in self.games]

    def opponent(self, player: int) -> int | None:
        return self.player_b if player == self.player_a else self.player_a

    def with_score(self, score: Score) -> MatchGames:
        """The games of a score alone: in score order, the order of play unknown."""
        games = MatchGames.from_score(score, self.player_a, self.player_b).games
        return replace(self, games=games, in_order=False)

    def with_games(self, other: MatchGames) -> MatchGames:
        """``other``'s games (and whether their order is known), this match's forced games."""
        return replace(self, games=other.games, in_order=other.in_order)

    def in_score_order(self) -> MatchGames:
        """The same games, kept as a score alone keeps them (the order no longer claimed)."""
        return self.with_score(self.score)

    def game_winner(self, game: int, match_format: str) -> GameWinner:
        """Who won game ``game``, only where the stored games can tell.

        In play order, every game is known. From a score alone: a game is known when one
        player won every game; and the last game of a decided match was won by the
        match's winner, since a match ends on the game that gives its winner the games
        needed (in a best of three, the winner of a 2-1 won game 3). Any other game of a
        score alone is unknown, never assumed.
        """
        if game > len(self.games):
            return GameWinner(True, None, played=False)
        if self.in_order:
            return GameWinner(True, self.games[game - 1])
        if len(set(self.games)) == 1:
            return GameWinner(True, self.games[0])
        winner = self.winner
        decided = winner is not None and self.games.count(winner) >= games_needed(match_format)
        if decided and game == len(self.games):
            return GameWinner(True, winner)
        return GameWinner(False)

    def forfeit(self, loser: int, match_format: str) -> MatchGames:
        """The match lost by ``loser`` (a match loss): 0-2, or 0-3 in a best of five."""
        winner = self.opponent(loser)
        return replace(self, games=(winner,) * games_needed(match_format))

    def check_in_result(self, loser: int, game: int, match_format: str) -> None:
        """Refuse (``NotInResult``) to take a game loss as already in this result when the
        games say ``loser`` won that game."""
        if game <= len(self.games):
            known = self.game_winner(game, match_format)
            if known.known and known.winner == loser:
                raise NotInResult(game, self.score)

    def with_game_loss(
        self,
        loser: int,
        game: int,
        penalty: int | None,
        *,
        match_format: str = "bo3",
        in_result: bool = False,
        said_winner: GameWinner | None = None,
    ) -> MatchGames:
        """Game ``game`` goes to the opponent of ``loser``.

        The game is remembered as forced, so a result reported later must count it. A
        result already in changes only when it does not include the game loss yet
        (``in_result`` False): that game's winner becomes the opponent, or the game is
        added when the result stopped before it (time called). Who won the game before
        is read from the games where they tell (``game_winner``), else it is
        ``said_winner`` (a judge's word); without either, ``UnknownGameWinner``.
        """
        winner = self.opponent(loser)
        forced = (*self.forced, ForcedGame(game, winner, penalty))
        if not self.games or in_result:
            return replace(self, forced=forced)
        if game > len(self.games):
            return replace(self, games=(*self.games, winner), forced=forced)
        before = self.game_winner(game, match_format)
        if not before.known:
            if said_winner is None or not said_winner.known:
                raise UnknownGameWinner(game)
            before = said_winner
            if before.winner not in self.games:
                raise InvalidResult(
                    f"The result {self.score} has no game won by that player to be game {game}."
                )
        games = list(self.games)
        if self.in_order:
            games[game - 1] = winner
            return replace(self, games=tuple(games), forced=forced)
        games.remove(before.winner)
        games.append(winner)
        changed = replace(self, games=tuple(games), forced=forced)
        return replace(changed, games=changed.in_score_order().games)

    def without_forced_game(self, penalty: int | None) -> MatchGames:
        """The forced games other than the one ``penalty`` decided (the games are unchanged)."""
        return replace(self, forced=tuple(f for f in self.forced if f.penalty != penalty))

    def uncounted_forced_game(self) -> ForcedGame | None:
        """The first forced game these games do not count, if any.

        Each player must have won at least as many games as penalties gave them.
        """
        for decided in self.forced:
            needed = sum(1 for f in self.forced if f.winner == decided.winner)
            if self.games.count(decided.winner) < needed:
                return decided
        return None

    def same_result(self, other: MatchGames) -> bool:
        """The same games won by the same players, whatever their order."""
        return sorted(map(str, self.games)) == sorted(map(str, other.games))
