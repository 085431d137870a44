"""What a penalty does to a match result or a player's entry, and taking it back.

The judging app decides what a penalty escalates to (the rules engine's answer); these
services apply it, so match results keep one writer. Each runs in one transaction and
locks the event, then the match, then the player: the order ``results`` locks in, so a
penalty and a report at the same table wait for each other instead of deadlocking.

Each apply returns an undo record (what it replaced) that the caller keeps and hands
back to the matching reversal. Records written by earlier versions have the same keys,
so penalties issued before are reversed the same way.

``result_after`` is the one rule for what a consequence does to a result: the services
below apply it, and the judge's preview reads it before the penalty is confirmed.

What is logged, always naming the penalty (``source`` "penalty:17"), a reason and the rule
(``ResultChange.rule``, "905.1"):

* a ``ResultChange`` whenever the match's result (its games or status) changes. A game
  loss in a match with no result yet changes no result, only what a later report must
  count (``forced_games``): it writes no ``ResultChange``; its ``EventLog`` entry keeps it.
* an ``EventLog`` entry for every consequence and every reversal: ``game_loss``,
  ``match_loss``, ``drop`` (a disqualification, ``data.disqualified``), and
  ``undo_game_loss``, ``undo_match_loss``, ``reinstate``.

A reversal never changes a result once a later round is paired (pairings were made from
it): it says so in a ``Leftover`` for the judge to put right by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from django.db import transaction
from django.utils.translation import gettext as _

from rules_engine.tournament import DQ, GAME_LOSS, MATCH_LOSS
from tournaments import signals
from tournaments.models import Event, EventLog, Match, Registration
from tournaments.record.match_games import GameWinner, InvalidResult, MatchGames, NotInResult
from tournaments.record.standings import results_changed
from tournaments.results.services import games_of, locked_match, log_change, result_fields
from web.errors import ServiceError


@dataclass(frozen=True)
class Cause:
    """The penalty behind a change, the words the logs keep for people, and its rule."""

    penalty: int
    reason: str
    rule: str = ""

    @property
    def source(self) -> str:
        return f"penalty:{self.penalty}"


FINISHED = (Match.Status.CONFIRMED, Match.Status.FINAL)


@dataclass(frozen=True)
class ResultState:
    """A match's result as plain values: its games and status (pure, no rows)."""

    games: MatchGames
    status: str

    @classmethod
    def of(cls, match: Match) -> ResultState:
        return cls(games_of(match), match.status)

    @property
    def has_result(self) -> bool:
        return self.status in FINISHED

    @property
    def score(self) -> str | None:
        """'2-1' (first player's wins first), or None while the match has no result at all."""
        return None if self.status == Match.Status.PENDING else self.games.score_text()


@dataclass(frozen=True)
class JudgeSays:
    """What the judge answered about a Game Loss in a match that already has a result:
    whether the players' result already includes it (None: not asked yet), and who won
    that game when the stored result cannot tell (``winner``: a player's id, None for a
    draw; ``known`` False: not said)."""

    in_result: bool | None = None
    winner: GameWinner | None = None


NOT_ASKED = JudgeSays()


def needs_in_result(state: ResultState, consequence: str) -> bool:
    """Whether a Game Loss falls on a result already reported, so the judge must say whether
    the players' result includes it already."""
    return consequence == GAME_LOSS and state.status != Match.Status.PENDING and state.games.played


def needs_game_winner(
    state: ResultState, consequence: str, game: int, match_format: str, says: JudgeSays
) -> bool:
    """Whether the judge must say who won game ``game``: a Game Loss not in the result yet,
    on a game the stored result cannot tell the winner of."""
    if not needs_in_result(state, consequence) or says.in_result is not False:
        return False
    return not state.games.game_winner(game, match_format).known


def result_after(
    state: ResultState,
    consequence: str,
    loser: int,
    game: int,
    match_format: str,
    penalty: int | None = None,
    says: JudgeSays = NOT_ASKED,
) -> ResultState:
    """What one consequence makes of a match's result: the one rule the services apply
    and the judge's preview reads before confirming.

    A Game Loss gives game ``game`` to the opponent (remembered as forced), changing a
    result already in only if the judge said it does not include the game loss yet
    (``says``); a Match Loss is a final 0-2 (0-3 in a best of five); a Disqualification
    loses only a match that has no result yet. ``UnknownGameWinner`` when the judge must
    still say who won that game.
    """
    if consequence == GAME_LOSS:
        if says.in_result and state.status != Match.Status.PENDING:
            state.games.check_in_result(loser, game, match_format)
        games = state.games.with_game_loss(
            loser,
            game,
            penalty,
            match_format=match_format,
            in_result=says.in_result is not False,
            said_winner=says.winner,
        )
        return replace(state, games=games)
    if consequence == MATCH_LOSS or (consequence == DQ and not state.has_result):
        return ResultState(state.games.forfeit(loser, match_format), Match.Status.FINAL)
    return state


class Left(StrEnum):
    """What a reversal could not put back by itself."""

    LATER_ROUND_PAIRED = "later_round_paired"  # the result stands: pairings depend on it
    REPORTED_SINCE = "reported_since"  # the forced game is gone; a later report still counts it
    MATCH_LOSS_STANDS = "match_loss_stands"  # a disqualification's match loss, round paired since
    MISSED_ROUNDS = "missed_rounds"  # reinstated, but not paired in rounds paired meanwhile


@dataclass(frozen=True)
class Leftover:
    kind: Left
    last_round: int


def last_round_number(event: Event) -> int:
    """The latest round paired (0 before round 1)."""
    return event.rounds.order_by("-number").values_list("number", flat=True).first() or 0


def lock_for_penalty(player: Registration, match: Match | None) -> None:
    """Event, then match, then player: held while a judge's penalties are counted and applied."""
    Event.objects.select_for_update().filter(pk=player.event_id).first()
    if match is not None:
        Match.objects.select_for_update().filter(pk=match.pk).first()
    Registration.objects.select_for_update().filter(pk=player.pk).first()


def _locked(match: Match, player: Registration) -> tuple[Match, Registration]:
    match = locked_match(match)
    player = Registration.objects.select_for_update().select_related("event").get(pk=player.pk)
    if match.is_bye:
        raise ServiceError(_("A bye has no result a penalty can change."))
    if player.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError(
            _("%(player)s is not a player of table %(table)s.")
            % {"player": player.display_name, "table": match.table}
        )
    return match, player


def _log_event(
    player: Registration,
    actor,
    action: str,
    cause: Cause,
    *,
    match: Match | None = None,
    round_number: int | None = None,
    **data,
) -> None:
    EventLog.objects.create(
        event_id=player.event_id,
        round_number=match.round.number if match is not None else round_number,
        actor=actor,
        action=action,
        reason=f"{cause.reason} ({cause.rule})" if cause.rule else cause.reason,
        data={
            **({"table": match.table} if match is not None else {}),
            "player": player.display_name,
            **data,
            "source": cause.source,
        },
    )


def _save_result(match: Match, before: dict, actor, action: str, cause: Cause, fields) -> None:
    """Save the match; keep a ResultChange only if its result is not what it was."""
    match.save(update_fields=fields)
    if result_fields(match) != before:
        change = log_change(match, actor, action, before, cause.reason, cause.source)
        if cause.rule:
            change.rule = cause.rule
            change.save(update_fields=["rule"])


def _later_round(match: Match) -> Leftover | None:
    last = last_round_number(match.round.event)
    return Leftover(Left.LATER_ROUND_PAIRED, last) if last > match.round.number else None


@transaction.atomic
def force_game_loss(
    match: Match,
    loser: Registration,
    game: int,
    actor,
    cause: Cause,
    says: JudgeSays = NOT_ASKED,
) -> dict:
    """Game ``game`` goes to the opponent (905.1, 903.1b, 203.1); returns the undo record.

    On a result already reported it changes the result only when the judge said the
    players' result does not include it yet (``says``); refused, naming the field, when
    the judge has not said so, or who won a game the result cannot tell.
    """
    match, loser = _locked(match, loser)
    undo = {
        "games": list(match.games),
        "forced_games": list(match.forced_games),
        "reported_games": list(match.reported_games),
        "games_in_order": match.games_in_order,
    }
    before = result_fields(match)
    fmt = match.round.event.match_format
    state = ResultState.of(match)
    if needs_in_result(state, GAME_LOSS) and says.in_result is None:
        raise ServiceError(
            _("Say whether the players' result already includes this Game Loss."), "in_result"
        )
    try:
        games = result_after(state, GAME_LOSS, loser.pk, game, fmt, cause.penalty, says).games
    except NotInResult as exc:
        raise ServiceError(str(exc), "in_result") from None
    except InvalidResult as exc:
        raise ServiceError(str(exc), "game_winner") from None
    match.games = games.stored()
    match.games_in_order = games.in_order
    match.forced_games = games.forced_stored()
    if match.status == Match.Status.REPORTED:  # the opponent confirms the result as it now is
        match.reported_games = games.stored()
    fields = ["forced_games", "games", "reported_games", "games_in_order"]
    _save_result(match, before, actor, "game_loss", cause, fields)
    _log_event(loser, actor, "game_loss", cause, match=match, game=game)
    return undo


@transaction.atomic
def undo_game_loss(
    match: Match, loser: Registration, undo: dict, actor, cause: Cause
) -> list[Leftover]:
    """Take back a game loss: the games it replaced return, unless a result came since."""
    match, loser = _locked(match, loser)
    later = _later_round(match)
    if later is not None:
        return [later]
    before = result_fields(match)
    left = []
    if undo["games"] or not match.games:
        match.games = list(undo["games"])
        match.games_in_order = undo.get("games_in_order", False)
        if match.status == Match.Status.REPORTED and "reported_games" in undo:
            match.reported_games = list(undo["reported_games"])
    else:  # reported after the game loss, so counting it: only the players know the rest
        left.append(Leftover(Left.REPORTED_SINCE, last_round_number(match.round.event)))
    match.forced_games = games_of(match).without_forced_game(cause.penalty).forced_stored()
    fields = ["forced_games", "games", "reported_games", "games_in_order"]
    _save_result(match, before, actor, "undo_game_loss", cause, fields)
    _log_event(loser, actor, "undo_game_loss", cause, match=match)
    return left


@transaction.atomic
def force_match_loss(match: Match, loser: Registration, actor, cause: Cause) -> dict:
    """The match is lost, 0-2 (0-3 in a best of five), as a final result; returns the undo."""
    match, loser = _locked(match, loser)
    undo = {"games": list(match.games), "status": match.status}
    before = result_fields(match)
    fmt = match.round.event.match_format
    after = result_after(ResultState.of(match), MATCH_LOSS, loser.pk, 0, fmt)
    match.games = after.games.stored()
    match.status = after.status
    _save_result(match, before, actor, "match_loss", cause, ["games", "status"])
    _log_event(loser, actor, "match_loss", cause, match=match)
    return undo


@transaction.atomic
def undo_match_loss(
    match: Match, loser: Registration, undo: dict, actor, cause: Cause
) -> list[Leftover]:
    """Put back the result a match loss replaced, unless a later round is paired."""
    match, loser = _locked(match, loser)
    later = _later_round(match)
    if later is not None:
        return [later]
    before = result_fields(match)
    match.games = list(undo["games"])
    match.status = undo["status"]
    _save_result(match, before, actor, "undo_match_loss", cause, ["games", "status"])
    _log_event(loser, actor, "undo_match_loss", cause, match=match)
    return []


@transaction.atomic
def disqualify(player: Registration, match: Match | None, actor, cause: Cause) -> dict:
    """Disqualify and drop the player (906); an unfinished match of theirs is lost."""
    lock_for_penalty(player, match)
    player = Registration.objects.select_related("event").get(pk=player.pk)
    last = last_round_number(player.event)
    undo = {
        "status": player.status,
        "dropped_after_round": player.dropped_after_round,
        "disqualified": player.disqualified,
        "last_round": last,
    }
    player.disqualified = True
    player.status = Registration.Status.DROPPED
    player.dropped_after_round = last
    player.save(update_fields=["disqualified", "status", "dropped_after_round"])
    results_changed(player.event_id)
    _log_event(
        player,
        actor,
        "drop",
        cause,
        round_number=last or None,
        after_round=last,
        disqualified=True,
    )
    _announce_entry(player, signals.DROPPED)
    if match is not None:
        match = Match.objects.get(pk=match.pk)
        if not match.is_bye and not ResultState.of(match).has_result:
            undo["match"] = force_match_loss(match, player, actor, cause)
    return undo


@transaction.atomic
def undo_disqualification(
    player: Registration, match: Match | None, undo: dict, actor, cause: Cause
) -> list[Leftover]:
    """Reinstate the player as they were; put back the match they lost, if still possible."""
    lock_for_penalty(player, match)
    player = Registration.objects.select_related("event").get(pk=player.pk)
    player.status = undo["status"]
    player.dropped_after_round = undo["dropped_after_round"]
    player.disqualified = undo["disqualified"]
    player.save(update_fields=["status", "dropped_after_round", "disqualified"])
    results_changed(player.event_id)
    _log_event(player, actor, "reinstate", cause)
    _announce_entry(player, signals.ENTERED)
    left = []
    if "match" in undo and match is not None:
        kept = undo_match_loss(match, player, undo["match"], actor, cause)
        left += [Leftover(Left.MATCH_LOSS_STANDS, k.last_round) for k in kept]
    last = last_round_number(player.event)
    if last > undo["last_round"]:
        left.append(Leftover(Left.MISSED_ROUNDS, last))
    return left


def _announce_entry(player: Registration, what: str) -> None:
    """A disqualification drops the player, a reinstatement enters them again: announced."""
    signals.send_on_commit(
        signals.entry_changed,
        Registration,
        event_id=player.event_id,
        registration_id=player.pk,
        what=what,
    )
