"""Match results: a player reports, the opponent confirms, disagreements go to judges,
and staff may enter or correct any result, every change kept.

A result is given as game wins and draws ("2-1-0": 2 wins for the first player,
1 for the second, 0 drawn games) and stored as the list of game winners the
event interchange format uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from tournaments.models import Event, Match, Registration, ResultChange, Round
from web.errors import ServiceError
from web.inputs import whole_number

BEST_OF = {"bo1": 1, "bo3": 3, "bo5": 5}


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
        numbers = [whole_number(p) for p in parts]
        if len(parts) not in (2, 3) or None in numbers:
            raise ServiceError(f"{text!r} is not a score: write it as 2-1 or 1-1-1.")
        numbers += [0] if len(parts) == 2 else []
        return cls(*numbers)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}" + (f"-{self.draws}" if self.draws else "")


def validate_score(score: Score, match_format: str, top_cut: bool = False) -> None:
    """A score the format allows: nobody past the games needed to win, not both winners.

    An unfinished match (time called) is fine: 1-0 or 1-1 in a best of three.
    """
    best_of = BEST_OF[match_format]
    needed = best_of // 2 + 1
    if min(score.a, score.b, score.draws) < 0:
        raise ServiceError("Game counts cannot be negative.")
    if max(score.a, score.b) > needed:
        raise ServiceError(f"In a best-of-{best_of} match nobody wins more than {needed} games.")
    if score.a == needed and score.b == needed:
        raise ServiceError("Both players cannot have won the match.")
    if score.draws > best_of:
        raise ServiceError(f"A best-of-{best_of} match cannot have {score.draws} drawn games.")
    if top_cut and score.a == score.b:
        raise ServiceError("A top-cut match needs a winner: play it out or enter the winner.")


def score_to_games(score: Score, match: Match) -> list[int | None]:
    return [match.player_a_id] * score.a + [match.player_b_id] * score.b + [None] * score.draws


def check_forced_games(games: list, match: Match) -> None:
    """A result must count the games penalties decided (905.1, 903.1b, 203.1)."""
    for decided in match.forced_games:
        winner = decided["winner"]
        needed = sum(1 for f in match.forced_games if f["winner"] == winner)
        if games.count(winner) < needed:
            loser = match.player_b if winner == match.player_a_id else match.player_a
            raise ServiceError(
                f"Game {decided['game']} was a game loss for {loser.display_name} (a penalty): "
                "the score must count it."
            )


def games_to_score(games: list, match: Match) -> Score:
    return Score(
        sum(1 for g in games if g == match.player_a_id),
        sum(1 for g in games if g == match.player_b_id),
        sum(1 for g in games if g is None),
    )


def _locked_match(match: Match) -> Match:
    """The match, locked after its event (so closing a round waits for a report in flight).

    The players and their accounts come in the same query: the API answers with their
    names, and at a 512-player round's last minute every saved query counts. Only the
    match row is locked (``of``), not the players' rows.
    """
    Event.objects.select_for_update().filter(pk=match.round.event_id).first()
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event", "player_a__user", "player_b__user")
        .get(pk=match.pk)
    )


def _check_open(match: Match) -> None:
    if match.is_bye:
        raise ServiceError("A bye needs no result.")
    if match.round.status == Round.Status.CLOSED:
        raise ServiceError(f"Round {match.round.number} is closed: ask a judge to correct it.")


def _snapshot(match: Match) -> dict:
    return {
        "status": match.status,
        "games": list(match.games),
        "score": str(games_to_score(match.games, match)) if match.games else None,
    }


def _log(match: Match, actor, action: str, before: dict, reason: str = "") -> None:
    ResultChange.objects.create(
        match=match,
        changed_by=actor,
        action=action,
        before=before,
        after=_snapshot(match),
        reason=reason,
    )


@transaction.atomic
def report_result(match: Match, reporter: Registration, score: Score, actor) -> Match:
    """A player reports; the same report from the opponent confirms, a different one disputes."""
    match = _locked_match(match)
    _check_open(match)
    if reporter.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError("Only the two players of a match may report its result.")
    validate_score(score, match.round.event.match_format, match.round.kind == Round.Kind.TOP_CUT)
    if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL):
        raise ServiceError("This result is already confirmed: ask a judge to change it.")
    before = _snapshot(match)
    games = score_to_games(score, match)
    check_forced_games(games, match)
    if match.status == Match.Status.PENDING or match.reported_by_id == reporter.pk:
        match.status = Match.Status.REPORTED
        match.reported_by = reporter
        match.reported_games = games
        match.games = games
        action = "report"
    elif sorted(map(str, games)) == sorted(map(str, match.reported_games)):
        match.status = Match.Status.CONFIRMED
        match.games = games
        action = "confirm"
    else:
        match.status = Match.Status.DISPUTED
        action = "dispute"
    match.save(update_fields=["status", "reported_by", "reported_games", "games"])
    _log(match, actor, action, before)
    return match


@transaction.atomic
def confirm_result(match: Match, confirmer: Registration, actor) -> Match:
    """The opponent of the reporting player agrees with the report."""
    match = _locked_match(match)
    _check_open(match)
    if match.status != Match.Status.REPORTED:
        raise ServiceError("There is no reported result to confirm.")
    if confirmer.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError("Only the players of this match may confirm its result.")
    if confirmer.pk == match.reported_by_id:
        raise ServiceError("Your opponent must confirm the result you reported.")
    before = _snapshot(match)
    match.status = Match.Status.CONFIRMED
    match.games = list(match.reported_games)
    match.save(update_fields=["status", "games"])
    _log(match, actor, "confirm", before)
    return match


@transaction.atomic
def dispute_result(match: Match, disputer: Registration, actor, reason: str = "") -> Match:
    """The opponent disagrees with the report: the match goes to the judges' queue."""
    match = _locked_match(match)
    _check_open(match)
    if match.status != Match.Status.REPORTED or disputer.pk == match.reported_by_id:
        raise ServiceError("Only the opponent of the reporting player may dispute a report.")
    if disputer.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError("Only the players of this match may dispute its result.")
    before = _snapshot(match)
    match.status = Match.Status.DISPUTED
    match.save(update_fields=["status"])
    _log(match, actor, "dispute", before, reason)
    return match


@transaction.atomic
def enter_result(match: Match, score: Score, actor, reason: str = "") -> Match:
    """Staff enter or correct a result, in any state; a closed round needs a reason."""
    match = _locked_match(match)
    if match.is_bye:
        raise ServiceError("A bye needs no result.")
    validate_score(score, match.round.event.match_format, match.round.kind == Round.Kind.TOP_CUT)
    closed = match.round.status == Round.Status.CLOSED
    if closed and not reason.strip():
        raise ServiceError(
            f"Round {match.round.number} is closed: give a reason for the correction."
        )
    before = _snapshot(match)
    match.games = score_to_games(score, match)
    check_forced_games(match.games, match)
    match.status = Match.Status.FINAL
    match.save(update_fields=["games", "status"])
    _log(match, actor, "correct" if closed or before["games"] else "enter", before, reason)
    return match
