"""Match results: a player reports, the opponent confirms, disagreements go to judges,
and staff may enter or correct any result, every change kept.

A result is given as game wins and draws ("2-1-0": 2 wins for the first player,
1 for the second, 0 drawn games); ``match_games`` turns it into the games a match
row keeps and back. What penalties do to results is in ``penalty_results``; both
write every change as a ``ResultChange``.
"""

from __future__ import annotations

from django.db import transaction

from rules_engine.iacta.tournament import CONSEQUENCE_NAMES, GAME_LOSS
from tournaments.match_games import InvalidResult, MatchGames, Score, check_score
from tournaments.models import Event, Match, Registration, ResultChange, Round
from tournaments.standings_cache import results_changed
from web.errors import ServiceError
from web.inputs import limited


def parse_score(text: str) -> Score:
    """The score typed as "2-1" or "1-1-1", refused with a message if it is none."""
    try:
        return Score.parse(text)
    except InvalidResult as exc:
        raise ServiceError(str(exc)) from None


def score_from_player(match: Match, reporter: Registration, score: Score) -> Score:
    """The match's score from one player's report: players type their own wins first,
    so the second player's "2-1" is the match's 1-2."""
    return score.swapped() if reporter.pk == match.player_b_id else score


def validate_score(score: Score, match_format: str, top_cut: bool = False) -> None:
    """A score the format allows (see ``match_games.check_score``)."""
    try:
        check_score(score, match_format, top_cut)
    except InvalidResult as exc:
        raise ServiceError(str(exc)) from None


def games_of(match: Match) -> MatchGames:
    """The match's games as a value: its score, winner and forced games."""
    return MatchGames.of(match)


def check_forced_games(games: MatchGames, match: Match) -> None:
    """A result must count the games penalties decided (905.1, 903.1b, 203.1)."""
    uncounted = games.uncounted_forced_game()
    if uncounted is not None:
        loser = match.player_b if uncounted.winner == match.player_a_id else match.player_a
        raise ServiceError(
            f"Game {uncounted.game} was a {CONSEQUENCE_NAMES[GAME_LOSS]} for "
            f"{loser.display_name} (a penalty): "
            "the score must count it."
        )


def locked_match(match: Match) -> Match:
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


def snapshot(match: Match) -> dict:
    """What a ResultChange keeps of the result before and after."""
    return {
        "status": match.status,
        "games": list(match.games),
        "score": games_of(match).score_text(),
    }


def log_change(
    match: Match, actor, action: str, before: dict, reason: str = "", source: str = ""
) -> ResultChange:
    """Keep one change of the match's result: who, what it was, what it is now, and why.

    Every result change comes through here, so here the cached standings learn of it.
    """
    results_changed(match.round.event_id)
    return ResultChange.objects.create(
        match=match,
        changed_by=actor,
        action=action,
        before=before,
        after=snapshot(match),
        reason=reason,
        source=source,
    )


@transaction.atomic
def report_result(match: Match, reporter: Registration, score: Score, actor) -> Match:
    """A player reports; the same report from the opponent confirms, a different one disputes."""
    match = locked_match(match)
    _check_open(match)
    if reporter.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError("Only the two players of a match may report its result.")
    validate_score(score, match.round.event.match_format, match.round.kind == Round.Kind.TOP_CUT)
    if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL):
        raise ServiceError("This result is already confirmed: ask a judge to change it.")
    before = snapshot(match)
    games = games_of(match).with_score(score)
    check_forced_games(games, match)
    if match.status == Match.Status.PENDING or match.reported_by_id == reporter.pk:
        match.status = Match.Status.REPORTED
        match.reported_by = reporter
        match.reported_games = games.stored()
        match.games = games.stored()
        action = "report"
    elif games.same_result(_reported(match)):
        match.status = Match.Status.CONFIRMED
        match.games = games.stored()
        action = "confirm"
    else:
        match.status = Match.Status.DISPUTED
        action = "dispute"
    match.save(update_fields=["status", "reported_by", "reported_games", "games"])
    log_change(match, actor, action, before)
    return match


def _reported(match: Match) -> MatchGames:
    """The games the first report gave."""
    return MatchGames(match.player_a_id, match.player_b_id, tuple(match.reported_games))


@transaction.atomic
def confirm_result(match: Match, confirmer: Registration, actor) -> Match:
    """The opponent of the reporting player agrees with the report."""
    match = locked_match(match)
    _check_open(match)
    if match.status != Match.Status.REPORTED:
        raise ServiceError("There is no reported result to confirm.")
    if confirmer.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError("Only the players of this match may confirm its result.")
    if confirmer.pk == match.reported_by_id:
        raise ServiceError("Your opponent must confirm the result you reported.")
    before = snapshot(match)
    match.status = Match.Status.CONFIRMED
    match.games = _reported(match).stored()
    match.save(update_fields=["status", "games"])
    log_change(match, actor, "confirm", before)
    return match


@transaction.atomic
def dispute_result(match: Match, disputer: Registration, actor, reason: str = "") -> Match:
    """The opponent disagrees with the report: the match goes to the judges' queue."""
    limited("reason", reason)
    match = locked_match(match)
    _check_open(match)
    if match.status != Match.Status.REPORTED or disputer.pk == match.reported_by_id:
        raise ServiceError("Only the opponent of the reporting player may dispute a report.")
    if disputer.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError("Only the players of this match may dispute its result.")
    before = snapshot(match)
    match.status = Match.Status.DISPUTED
    match.save(update_fields=["status"])
    log_change(match, actor, "dispute", before, reason)
    return match


@transaction.atomic
def enter_result(match: Match, score: Score, actor, reason: str = "") -> Match:
    """Staff enter or correct a result, in any state; a closed round needs a reason."""
    limited("reason", reason)
    match = locked_match(match)
    if match.is_bye:
        raise ServiceError("A bye needs no result.")
    validate_score(score, match.round.event.match_format, match.round.kind == Round.Kind.TOP_CUT)
    closed = match.round.status == Round.Status.CLOSED
    if closed and not reason.strip():
        raise ServiceError(
            f"Round {match.round.number} is closed: give a reason for the correction."
        )
    before = snapshot(match)
    games = games_of(match).with_score(score)
    check_forced_games(games, match)
    match.games = games.stored()
    match.status = Match.Status.FINAL
    match.save(update_fields=["games", "status"])
    log_change(match, actor, "correct" if closed or before["games"] else "enter", before, reason)
    return match
