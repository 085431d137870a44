"""Match results: a player reports, the opponent confirms, disagreements go to judges,
and staff may enter or correct any result, every change kept.

A result is given as game wins and draws ("2-1-0"). One convention per caller: a
player's services (``report_result``, ``dispute_result``) take the score from that
player's side, their own wins first, as they type it, and turn it here; the staff's
(``enter_result``) take it in table order, the first player's wins first, as the
judge reads the table. ``match_games`` turns a score into the games a match row keeps
and back. What penalties do to results is in ``penalty_results``; both
write every change as a ``ResultChange``.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from rules_engine.iacta.tournament import CONSEQUENCE_NAMES, GAME_LOSS
from tournaments import signals
from tournaments.models import (
    Event,
    Match,
    MatchClaim,
    Registration,
    ResultChange,
    Round,
)
from tournaments.record.match_games import (
    InvalidResult,
    MatchGames,
    Score,
    check_score,
    games_needed,
)
from tournaments.record.standings import results_changed
from web.errors import ServiceError
from web.inputs import limited, whole_number


def parse_score(text: str) -> Score:
    """The score typed as "2-1" or "1-1-1", refused with a message if it is none."""
    try:
        return Score.parse(text)
    except InvalidResult as exc:
        raise ServiceError(str(exc), "score") from None


def _turned(match: Match, player: Registration, score: Score) -> Score:
    """``score`` turned between the table's order and ``player``'s own (their wins first):
    the second player's "2-1" is the table's 1-2, and back (the same swap both ways)."""
    return score.swapped() if player.pk == match.player_b_id else score


def validate_score(score: Score, match_format: str, top_cut: bool = False) -> None:
    """A score the format allows (see ``match_games.check_score``)."""
    try:
        check_score(score, match_format, top_cut)
    except InvalidResult as exc:
        raise ServiceError(str(exc), "score") from None


MY_GAME, OPPONENTS_GAME, DRAWN_GAME = "me", "opponent", "draw"
GAME_PICKS = (MY_GAME, OPPONENTS_GAME, DRAWN_GAME)


def games_played(picks: list[str], match_format: str) -> list[str]:
    """A player's game-by-game report, each game's winner from their side ("me",
    "opponent", "draw") in the order played, up to the game that decided the match.

    Picks after the match was decided are dropped (the phone stops asking there); an
    unknown pick or no game at all is refused, naming the field ("games").
    """
    needed = games_needed(match_format)
    played: list[str] = []
    for pick in picks:
        if pick not in GAME_PICKS:
            raise ServiceError(_("Say who won each game: you, your opponent, or a draw."), "games")
        played.append(pick)
        if max(played.count(MY_GAME), played.count(OPPONENTS_GAME)) >= needed:
            break
    if not played:
        raise ServiceError(_("Say who won game 1."), "games")
    return played


def score_of_picks(picks: list[str]) -> Score:
    """The score of a game-by-game report, from the reporting player's side (their wins first)."""
    return Score(picks.count(MY_GAME), picks.count(OPPONENTS_GAME), picks.count(DRAWN_GAME))


def games_of(match: Match) -> MatchGames:
    """The match's games as a value: its score, winner and forced games."""
    return MatchGames.of(match)


def check_forced_games(games: MatchGames, match: Match) -> None:
    """A result must count the games penalties decided (905.1, 903.1b, 203.1)."""
    uncounted = games.uncounted_forced_game()
    if uncounted is None and games.in_order:  # each forced game must be where it was
        uncounted = next(
            (
                f
                for f in games.forced
                if f.game <= len(games.games) and games.games[f.game - 1] != f.winner
            ),
            None,
        )
    if uncounted is not None:
        loser = match.player_b if uncounted.winner == match.player_a_id else match.player_a
        raise ServiceError(
            _(
                "Game %(game)s was a %(penalty)s for %(player)s (a penalty): "
                "the score must count it."
            )
            % {
                "game": uncounted.game,
                "penalty": CONSEQUENCE_NAMES[GAME_LOSS],
                "player": loser.display_name,
            },
            "score",
        )


def share_round_state(event_id: int) -> None:
    """Hold the event so its rounds cannot close or be paired under a report in flight,
    without making other reports wait.

    On PostgreSQL this is ``FOR KEY SHARE`` on the event row: any number of reports hold
    it at once, while closing, pairing and penalties (``SELECT … FOR UPDATE`` on the same
    row) wait for those in flight, and reports arriving meanwhile wait for them and then
    see the round closed. It also lets a report move the event's results version (an
    ``UPDATE`` of a non-key column) while others hold it. Elsewhere the ORM's row lock is
    asked for (on SQLite that is nothing: the database lets one write at a time anyway).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {Event._meta.db_table} WHERE id = %s FOR KEY SHARE", [event_id]
            )
    else:
        Event.objects.select_for_update().filter(pk=event_id).first()


def locked_match(match: Match) -> Match:
    """The match, locked after its event (so closing a round waits for a report in flight).

    Lock order, everywhere: the event (shared here, exclusive when closing, pairing or
    penalising), then the match, then a player. The players and their accounts come in
    the same query: the API answers with their names, and at a 512-player round's last
    minute every saved query counts. Only the match row is locked (``of``).
    """
    share_round_state(match.round.event_id)
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event", "player_a__user", "player_b__user")
        .get(pk=match.pk)
    )


def _check_open(match: Match) -> None:
    if match.is_bye:
        raise ServiceError(_("A bye needs no result."))
    if match.round.status == Round.Status.CLOSED:
        raise ServiceError(
            _("Round %(round)s is closed: ask a judge to correct it.")
            % {"round": match.round.number}
        )


def _check_not_disputed(match: Match) -> None:
    """A disputed match waits for a judge: no player's word changes it any more."""
    if match.status == Match.Status.DISPUTED:
        raise ServiceError(
            _(
                "A judge has been called to table %(table)s: "
                "only a judge can change this result now."
            )
            % {"table": match.table}
        )


def _check_player(match: Match, player: Registration, doing: str) -> None:
    if player.pk not in (match.player_a_id, match.player_b_id):
        refusals = {
            "report": _("Only the two players of a match may report its result."),
            "confirm": _("Only the two players of a match may confirm its result."),
            "dispute": _("Only the two players of a match may dispute its result."),
        }
        raise ServiceError(refusals[doing])


def record_claim(
    match: Match, player: Registration, kind: str, score: Score | None, reason: str = ""
) -> MatchClaim:
    """Keep what a player said, ``score`` from their own side (their wins first, as they
    typed it), so the judge reads each player's words as that player gave them."""
    return MatchClaim.objects.create(
        match=match,
        player=player,
        kind=kind,
        score="" if score is None else str(score),
        reason=reason,
    )


def result_fields(match: Match) -> dict:
    """The match's result fields (status, games, score) as a ResultChange keeps them
    before and after a change; comparing two tells whether the result changed."""
    return {
        "status": match.status,
        "games": list(match.games),
        "score": games_of(match).score_text(),
        **({"in_order": True} if match.games_in_order else {}),
    }


def log_change(
    match: Match, actor, action: str, before: dict, reason: str = "", source: str = ""
) -> ResultChange:
    """Keep one change of the match's result: who, what it was, what it is now, and why.

    Every result change comes through here, so here the cached standings learn of it
    and the other apps hear of it once it commits (``signals.result_changed``).
    """
    change = ResultChange.objects.create(
        match=match,
        changed_by=actor,
        action=action,
        before=before,
        after=result_fields(match),
        reason=reason,
        source=source,
    )
    match.latest_change_id = change.pk
    signals.send_on_commit(
        signals.result_changed,
        Match,
        event_id=match.round.event_id,
        match_id=match.pk,
        change_id=change.pk,
        status_before=before["status"],
    )
    # Last: moving the version locks the event row until commit, so concurrent
    # reports wait for each other only for that instant, not their whole transaction.
    results_changed(match.round.event_id)
    return change


@transaction.atomic
def report_result(
    match: Match,
    reporter: Registration,
    score: Score,
    actor,
    *,
    in_order: list[str] | None = None,
) -> Match:
    """A player reports; the same report from the opponent confirms, a different one disputes.

    ``score`` is the reporter's own, their wins first, as they type it (the second
    player's "2-1" is the table's 1-2): it is turned to the table's order here, so the
    pages and the API hand over what the player typed. Every report is kept as the
    reporter's claim, the one that disputes too.

    ``in_order``: the game-by-game report (``games_played``: "me", "opponent", "draw" in
    the order played), which ``score`` must equal; the games are then kept in play order.
    A score alone keeps them with the order unknown.
    """
    match = locked_match(match)
    _check_open(match)
    _check_player(match, reporter, "report")
    _check_not_disputed(match)
    validate_score(score, match.round.event.match_format, match.round.kind == Round.Kind.TOP_CUT)
    if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL):
        raise ServiceError(_("This result is already confirmed: ask a judge to change it."))
    before = result_fields(match)
    games = games_of(match).with_score(_turned(match, reporter, score))
    if in_order is not None:
        games = games.with_games(_played_games(match, reporter, in_order))
        if games.score != _turned(match, reporter, score):
            raise ServiceError(_("The games do not add up to the score."), "games")
    check_forced_games(games, match)
    if match.status == Match.Status.PENDING or match.reported_by_id == reporter.pk:
        match.status = Match.Status.REPORTED
        match.reported_by = reporter
        match.reported_games = games.stored()
        _keep_games(match, games)
        action = "report"
    elif games.same_result(_reported(match)):
        match.status = Match.Status.CONFIRMED
        _keep_games(match, _agreed(_reported(match), games))
        action = "confirm"
    else:
        match.status = Match.Status.DISPUTED
        action = "dispute"
    match.save(update_fields=["status", "reported_by", "reported_games", "games", "games_in_order"])
    record_claim(match, reporter, action, score)
    log_change(match, actor, action, before)
    return match


def _played_games(match: Match, reporter: Registration, picks: list[str]) -> MatchGames:
    """A player's game-by-game picks as the table's games, in play order."""
    opponent = match.player_b_id if reporter.pk == match.player_a_id else match.player_a_id
    ids = {MY_GAME: reporter.pk, OPPONENTS_GAME: opponent, DRAWN_GAME: None}
    return MatchGames.in_play_order([ids[p] for p in picks], match.player_a_id, match.player_b_id)


def _keep_games(match: Match, games: MatchGames) -> None:
    match.games = games.stored()
    match.games_in_order = games.in_order


def _agreed(first: MatchGames, second: MatchGames) -> MatchGames:
    """Two reports of the same score: the order of play one of them gave, unless both gave
    one and they differ (then nobody knows it)."""
    if first.in_order and second.in_order:
        return first if first.games == second.games else first.in_score_order()
    return first if first.in_order else second


def _reported(match: Match) -> MatchGames:
    """The games the first report gave (in play order if it gave them so)."""
    return MatchGames(
        match.player_a_id,
        match.player_b_id,
        tuple(match.reported_games),
        in_order=match.games_in_order,
    )


@transaction.atomic
def confirm_result(match: Match, confirmer: Registration, actor) -> Match:
    """The opponent of the reporting player agrees with the report."""
    match = locked_match(match)
    _check_open(match)
    _check_player(match, confirmer, "confirm")
    _check_not_disputed(match)
    if match.status != Match.Status.REPORTED:
        raise ServiceError(_("There is no reported result to confirm."))
    if confirmer.pk == match.reported_by_id:
        raise ServiceError(_("Your opponent must confirm the result you reported."))
    before = result_fields(match)
    match.status = Match.Status.CONFIRMED
    match.games = _reported(match).stored()
    match.save(update_fields=["status", "games"])
    confirmed = _turned(match, confirmer, games_of(match).score)
    record_claim(match, confirmer, MatchClaim.Kind.CONFIRM, confirmed)
    log_change(match, actor, "confirm", before)
    return match


@transaction.atomic
def dispute_result(
    match: Match,
    disputer: Registration,
    actor,
    reason: str = "",
    score: Score | None = None,
) -> Match:
    """The opponent disagrees with the report: the match goes to the judges' queue.

    ``score`` is what the disputing player says it was, their own wins first (as they
    type it, like ``report_result``'s), checked like any report; the judge reads it next
    to the report.
    """
    limited("reason", reason)
    match = locked_match(match)
    _check_open(match)
    _check_player(match, disputer, "dispute")
    _check_not_disputed(match)
    if match.status != Match.Status.REPORTED or disputer.pk == match.reported_by_id:
        raise ServiceError(_("Only the opponent of the reporting player may dispute a report."))
    if score is not None:
        top_cut = match.round.kind == Round.Kind.TOP_CUT
        validate_score(score, match.round.event.match_format, top_cut)
        check_forced_games(games_of(match).with_score(_turned(match, disputer, score)), match)
    before = result_fields(match)
    match.status = Match.Status.DISPUTED
    match.save(update_fields=["status"])
    record_claim(match, disputer, MatchClaim.Kind.DISPUTE, score, reason)
    log_change(match, actor, "dispute", before, reason)
    return match


def reason_needed(match: Match, games: MatchGames) -> str | None:
    """Why staff entering ``games`` must give a reason, or None when they need not.

    A closed round, a dispute, and a result other than the one the players reported
    or confirmed: each overrides what someone relied on, so the log must say why.
    """
    if match.round.status == Round.Status.CLOSED:
        return _("Round %(round)s is closed: give a reason for the correction.") % {
            "round": match.round.number
        }
    if match.status == Match.Status.DISPUTED:
        return _("Settling a dispute overrides a player's report: give a reason.")
    players_said = match.status in (Match.Status.REPORTED, Match.Status.CONFIRMED)
    if players_said and not games.same_result(games_of(match)):
        score = games_of(match).score_text()
        if match.status == Match.Status.REPORTED:
            reporter = next(p for p in match.players() if p.pk == match.reported_by_id)
            return _(
                "%(player)s reported %(score)s: give a reason for entering another result."
            ) % {"player": reporter.display_name, "score": score}
        return _("The players confirmed %(score)s: give a reason for entering another result.") % {
            "score": score
        }
    return None


def _entry_action(before: dict, closed: bool) -> str:
    if before["status"] == Match.Status.DISPUTED:
        return "settle"
    return "correct" if closed or before["games"] else "enter"


# What a person's change was, in a word (a penalty's change is named by its consequence).
CHANGE_VERBS = {
    "report": _lazy("reported"),
    "confirm": _lazy("confirmed"),
    "dispute": _lazy("disputed"),
    "settle": _lazy("settled"),
    "enter": _lazy("entered"),
    "correct": _lazy("corrected"),
}


def change_verb(change: ResultChange) -> str:
    """The change in a few words ("settled", "Game Loss given"), for the stale refusal."""
    verb = CHANGE_VERBS.get(change.action)
    if verb is not None:
        return str(verb)
    consequence = change.action.removeprefix("undo_")
    if consequence in CONSEQUENCE_NAMES:
        values = {"penalty": CONSEQUENCE_NAMES[consequence]}
        if change.action.startswith("undo_"):
            return _("%(penalty)s taken back") % values
        return _("%(penalty)s given") % values
    return change.action.replace("_", " ")


def result_version(match: Match) -> int:
    """The version of the match's result: the id of its latest ``ResultChange``, 0 if none.

    A judge's form and an API client send back the version they saw, so an entry made on
    a result someone else changed meanwhile is refused (``StaleResult``) instead of
    silently overwriting it. The services leave it on the match they return
    (``latest_change_id``), and listings annotate it (``models.with_result_versions``),
    so reading it costs no query there.
    """
    known = getattr(match, "latest_change_id", None)
    if known is not None:
        return known
    latest = match.changes.order_by("-pk").values_list("pk", flat=True).first()
    match.latest_change_id = latest or 0
    return match.latest_change_id


def version_from_form(raw: str | None) -> int | None:
    """The version a staff form was drawn with (its hidden ``version``); None if none."""
    return whole_number(raw) if raw else None


class StaleResult(ServiceError):
    """An entry made on a result that changed since it was seen: says what changed."""

    status = 409

    def __init__(self, message: str, match: Match):
        super().__init__(message, "version")
        self.match = match


class AnyVersion:
    """For callers that entered no version because they saw none (the world builder)."""


ANY_VERSION = AnyVersion()


def _check_version(match: Match, seen: int | AnyVersion | None) -> None:
    """Refuse an entry made on another version of the result than the current one."""
    if isinstance(seen, AnyVersion):
        return
    current = result_version(match)
    if seen is None and current:
        raise ServiceError(
            _(
                "Send the version of the result you saw (it is now %(version)s), so that "
                "your entry cannot overwrite a change you have not seen."
            )
            % {"version": current},
            "version",
        )
    if seen is not None and seen != current:
        raise StaleResult(what_changed(match, current), match)


def _result_words(match: Match) -> str:
    """The result as the table page reads it: "Ada 2-1 Bea" (no result yet: "—")."""
    score = games_of(match).score_text()
    if not score or match.player_b is None:
        return "—"
    return f"{match.player_a.display_name} {score} {match.player_b.display_name}"


def what_changed(match: Match, current: int) -> str:
    """The latest change in a sentence: what, by whom, when, and the result it left."""
    change = ResultChange.objects.select_related("changed_by").filter(pk=current).first()
    if change is None:  # the version seen is newer than any: it cannot be the current one
        return _("The result changed since you saw it: look again before deciding.")
    values = {
        "verb": change_verb(change),
        "who": change.changed_by.get_username() if change.changed_by else _("the system"),
        "time": date_format(timezone.localtime(change.changed_at), "H:i"),
        "result": _result_words(match),
        "status": match.get_status_display(),
    }
    if change.reason:
        values["reason"] = change.reason
        return (
            _(
                "The result changed since you saw it: %(verb)s by %(who)s at %(time)s "
                "(%(reason)s). It is now %(result)s (%(status)s): look again before deciding."
            )
            % values
        )
    return (
        _(
            "The result changed since you saw it: %(verb)s by %(who)s at %(time)s. "
            "It is now %(result)s (%(status)s): look again before deciding."
        )
        % values
    )


@transaction.atomic
def enter_result(
    match: Match,
    score: Score,
    actor,
    reason: str = "",
    *,
    seen_version: int | AnyVersion | None = ANY_VERSION,
) -> Match:
    """Staff enter or correct a result, in any state, or settle a dispute.

    ``score`` is in table order, the first player's wins first (as the judge reads the
    table and the staff forms and API name it), never one player's side.

    A reason is required where the entry overrides what the players said, or a closed
    round (``reason_needed``): the API, the match page and the judge's table page all
    come here, so they all follow that one rule. People's entries name the version of the
    result they saw (``seen_version``, None for none): when it is not the current one the
    entry is refused with what changed, so of two judges settling one dispute the second
    learns the first's decision instead of overwriting it. ``None`` is accepted only while
    the result has no change yet.
    """
    limited("reason", reason)
    match = locked_match(match)
    if match.is_bye:
        raise ServiceError(_("A bye needs no result."))
    _check_version(match, seen_version)
    validate_score(score, match.round.event.match_format, match.round.kind == Round.Kind.TOP_CUT)
    games = games_of(match).with_score(score)
    if games_of(match).in_order and games.same_result(games_of(match)):
        games = games_of(match)  # the same result: the order the players gave still stands
    check_forced_games(games, match)
    missing_reason = reason_needed(match, games)
    if missing_reason and not reason.strip():
        raise ServiceError(missing_reason, "reason")
    closed = match.round.status == Round.Status.CLOSED
    before = result_fields(match)
    _keep_games(match, games)
    match.status = Match.Status.FINAL
    match.save(update_fields=["games", "games_in_order", "status"])
    log_change(match, actor, _entry_action(before, closed), before, reason)
    return match
