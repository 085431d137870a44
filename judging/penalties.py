"""Issuing and voiding penalties, and applying what they escalate to (900-series).

The event's game's tournament rules (``rules_engine.rules_for(event.game)``: Iacta's
900-series, which Superjack and Dataclysm adopt) decide the infractions a judge may
choose and the escalation from a match's penalties in issue order; this module decides
what that answer means now (what to apply, what to take back) and has
``tournaments.results.penalties`` apply it to results and entries, which logs every
change it makes.

Every change runs in one transaction that locks the match row (or the player's
row, for a penalty outside a match) before counting penalties, so two judges
penalising the same match at once are serialised: neither penalty is lost and no
consequence is applied twice.

What a consequence does:

* ``game_loss`` (905.1, 903.1b, 203.1): the opponent wins that game. The game is
  remembered on the match (``forced_games``), so a result reported later must count
  it; a result already entered has that game's winner changed.
* ``match_loss`` (905.2, 907.3c, 906.8): the match is recorded as lost, 0-2 (0-3 in a
  best of five), as a final result.
* ``disqualification`` (906, 903.1c, 907.4): the player is marked disqualified and
  dropped (never paired again, ranked last); an unfinished match they were in is lost.

Each applied consequence keeps what it replaced (the ``undo`` record the result
service returned), so voiding a penalty can restore it — unless the event has moved
on (a later round is paired), in which case the judge is told exactly what to put
right by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from judging.models import INFRACTION_LABELS, Penalty
from rules_engine.tournament import CONSEQUENCE_NAMES, DQ, GAME_LOSS, MATCH_LOSS, rules_for
from tournaments import signals
from tournaments.models import Event, Match, Registration, ResultChange, Round
from tournaments.record.match_games import (
    GameWinner,
    InvalidResult,
    MatchGames,
    NotInResult,
    UnknownGameWinner,
    check_game_reached,
)
from tournaments.results import penalties as penalty_results
from tournaments.results.penalties import (
    NOT_ASKED,
    Cause,
    JudgeSays,
    Left,
    Leftover,
    ResultState,
    needs_game_winner,
    needs_in_result,
    result_after,
)
from web.errors import ServiceError
from web.inputs import limited

MAX_PER_MATCH = 199  # the penalties question takes at most 200
CONSEQUENCE_LABELS = {
    GAME_LOSS: _lazy("Game Loss"),
    MATCH_LOSS: _lazy("Match Loss"),
    DQ: _lazy("Disqualification"),
}
"""The rules' names (``CONSEQUENCE_NAMES``, in English) in the reader's language. The logs
(a result change's reason) keep the English names."""
RESULT_WORDS = {
    Match.Status.REPORTED: _lazy("the reported result %(score)s"),
    Match.Status.CONFIRMED: _lazy("the confirmed result %(score)s"),
    Match.Status.DISPUTED: _lazy("the disputed result %(score)s"),
    Match.Status.FINAL: _lazy("the entered result %(score)s"),
}
"""How a change sentence names a result by its match's status: "the confirmed result 2-1"."""


def consequence_name(result: str) -> str:
    """``game_loss`` → "Game Loss", in the reader's language; an unknown key as itself."""
    label = CONSEQUENCE_LABELS.get(result)
    return str(label) if label is not None else result


def _result_words(status: str, score: str) -> str:
    words = RESULT_WORDS.get(status)
    if words is None:  # a status without words: "the <status> result 2-1", as it always read
        return f"the {status} result {score}"
    return str(words) % {"score": score}


@dataclass
class Preview:
    """What issuing a penalty would cause, for the judge to read before confirming.

    ``change`` says in words what it does to the result; ``confirmation`` is empty unless
    it changes a result the match already has, and then names that change exactly, so the
    form can insist the judge confirmed the change they read (and notice a stale one).
    """

    consequences: list[dict[str, Any]]
    explanation: str
    citations: list[str]
    tallies: dict[str, Any] = field(default_factory=dict)
    change: str = ""
    confirmation: str = ""
    result_change: dict[str, Any] | None = None
    asks_in_result: bool = False
    asks_game_winner: int | None = None
    says: JudgeSays = NOT_ASKED

    @property
    def unanswered(self) -> str:
        """The field the judge must still answer before the penalty can be issued, or ""."""
        if self.asks_in_result and self.says.in_result is None:
            return "in_result"
        if self.asks_game_winner is not None and (
            self.says.winner is None or not self.says.winner.known
        ):
            return "game_winner"
        return ""

    @property
    def summary(self) -> str:
        if not self.consequences:
            return _("A warning: nothing else happens yet.")
        return "; ".join(consequence_words(c) for c in self.consequences)


class UnansweredQuestion(ServiceError):
    """The penalty's Game Loss falls on a result already reported and the judge has not
    said what the preview asks (whether the result includes it; who won that game)."""

    def __init__(self, preview: Preview):
        if preview.unanswered == "in_result":
            message = _("Say whether the players' result already includes this Game Loss.")
        else:
            message = _("The result cannot tell who won game %(game)s: say who won it.") % {
                "game": preview.asks_game_winner
            }
        super().__init__(message, preview.unanswered)
        self.preview = preview


class UnconfirmedChange(ServiceError):
    """The penalty changes an existing result the judge has not confirmed (or confirmed
    as it was before the result changed): nothing is written, the preview is shown again."""

    def __init__(self, preview: Preview, stale: bool):
        message = (
            _("The result changed since the preview: read the change again and confirm it.")
            if stale
            else _("This penalty changes the result: read the change below and confirm it.")
        )
        super().__init__(message, "confirm_change")
        self.preview = preview


def describe(penalty: Penalty) -> str:
    """What the penalty caused, in a judge's words."""
    if not penalty.consequences:
        return _("A warning: no further consequence.")
    return "; ".join(consequence_words(c) for c in penalty.consequences) + "."


def consequence_words(consequence: dict) -> str:
    """One consequence, the one way pages, reports and the API write it:
    "Game Loss in game 2 (905.1)", "Match Loss (905.2)"."""
    return f"{_named(consequence)} ({consequence['rule']})"


def _named(consequence: dict, player: str = "") -> str:
    """ "Game Loss in game 2", with " for Ada Lovelace" when a player is named, in the
    reader's language (the logs' English is :func:`_logged_name`)."""
    result = consequence["result"]
    values = {"name": consequence_name(result), "game": consequence.get("game"), "player": player}
    if result == GAME_LOSS and consequence.get("game"):
        if player:
            return _("%(name)s in game %(game)s for %(player)s") % values
        return _("%(name)s in game %(game)s") % values
    return _("%(name)s for %(player)s") % values if player else values["name"]


def _logged_name(consequence: dict, player: str = "") -> str:
    """:func:`_named` in English, for what the logs keep (a result change's reason)."""
    result = consequence["result"]
    words = CONSEQUENCE_NAMES.get(result, result)
    if result == GAME_LOSS and consequence.get("game"):
        words += f" in game {consequence['game']}"
    return f"{words} for {player}" if player else words


def change_sentence(
    consequence: dict,
    player: str,
    before: ResultState | None,
    after: ResultState | None,
    says: JudgeSays = NOT_ASKED,
) -> str:
    """What one consequence does, in one sentence a judge can read to the players.

    ``before``/``after`` are the match's result around it (None outside a match; ``after``
    None too while the judge has still to say who won the game). ``says``: what the judge
    answered about a Game Loss on a result already in. It claims nothing the stored result
    cannot tell. Pure.
    """
    result, rule = consequence["result"], consequence["rule"]
    values = {
        "game": consequence.get("game"),
        "name": consequence_name(result),
        "player": player,
        "rule": rule,
    }
    if result == GAME_LOSS:
        what = _("makes game %(game)s a %(name)s for %(player)s (%(rule)s)") % values
    elif result == MATCH_LOSS:
        what = _("makes the match a %(name)s for %(player)s (%(rule)s)") % values
    else:
        what = _("is a %(name)s for %(player)s (%(rule)s)") % values
    effect = _effect_words(result, player, before, after, says, consequence.get("game"))
    if result == DQ:
        effect = (
            _("they are dropped from the event, and %(effect)s") % {"effect": effect}
            if effect
            else _("they are dropped from the event")
        )
    return _("This penalty %(what)s: %(effect)s.") % {"what": what, "effect": effect}


def _effect_words(
    result: str,
    player: str,
    before: ResultState | None,
    after: ResultState | None,
    says: JudgeSays = NOT_ASKED,
    game: int | None = None,
) -> str:
    if before is None:
        return "" if result == DQ else _("it is outside a match, so no result changes")
    if before.score is None:
        if result == GAME_LOSS:
            return _("the match has no result yet, so the result reported must count it")
        return _("the match has no result yet, so it is recorded as %(score)s") % {
            "score": after.score if after is not None else "—"
        }
    was = _result_words(before.status, before.score)
    if result == GAME_LOSS and needs_in_result(before, GAME_LOSS):
        if says.in_result is None:
            return _("say below whether the players' result (%(result)s) already includes it") % {
                "result": was
            }
        if says.in_result:
            return _("the players' result already includes it, so %(result)s stays as it is") % {
                "result": was
            }
        if after is None:
            return _("%(result)s cannot tell who won game %(game)s: say below who won it") % {
                "result": was,
                "game": game,
            }
    if after is None:
        return ""
    if before.score == after.score:
        if result == GAME_LOSS:
            return _("%(result)s stays as it is: game %(game)s already went to the opponent") % {
                "result": was,
                "game": game,
            }
        return _("%(result)s stays as it is") % {"result": was}
    return _("%(result)s becomes %(score)s") % {"result": was, "score": after.score}


def _changes_a_result(before: ResultState | None, after: ResultState | None) -> bool:
    """Whether a result the match already has would read differently."""
    return (
        before is not None
        and after is not None
        and before.score is not None
        and (before.score, before.status) != (after.score, after.status)
    )


def adopted_rules(game: str) -> str:
    """Whose tournament rules an event of ``game`` follows, said on the form when they are
    another game's (the rules engine's sentence, in English like the rules); "" for a
    game's own (Iacta: the page reads as it always did)."""
    rules = rules_for(game)
    return rules.applies if rules.adopted_from is not None else ""


def _ruling(game: str, penalties: list[dict]) -> dict[str, Any]:
    """The escalation by the tournament rules of the event's ``game`` (never a fixed game's)."""
    return rules_for(game).penalties(penalties)


def _engine_name(player: Registration) -> str:
    """How the engine's explanation names the player: their name (and id, to be unique)."""
    return f"{player.display_name} (#{player.pk})"


def _as_engine(penalty: Penalty) -> dict:
    return {
        "player": _engine_name(penalty.player),
        "infraction": penalty.infraction,
        "game": penalty.game,
    }


def _standing_penalties(match: Match | None, player: Registration) -> list[Penalty]:
    """The penalties that escalate together: the match's, or the player's outside matches."""
    live = (
        Penalty.objects.filter(voided_at__isnull=True)
        .select_related("player__user")
        .order_by("issued_at", "pk")
    )
    if match is not None:
        return list(live.filter(match=match))
    return list(live.filter(match__isnull=True, player=player, event=player.event))


def preview_penalty(
    player: Registration,
    infraction: str,
    game: int,
    match: Match | None = None,
    says: JudgeSays = NOT_ASKED,
) -> Preview:
    """The escalation this penalty would cause now, computed by the rules engine.

    ``says``: what the judge answered so far about a Game Loss on a result already in;
    the preview asks what is still needed (``asks_in_result``, ``asks_game_winner``).
    """
    check_infraction(infraction, player.event.game)
    check_player_in_match(player, match)
    if match is not None:  # the result as it is now
        match = Match.objects.select_related("round__event").get(pk=match.pk)
    check_game(game, player.event, match)
    standing = _standing_penalties(match, player)
    _check_room(standing)
    earlier = [_as_engine(p) for p in standing]
    proposed = {"player": _engine_name(player), "infraction": infraction, "game": game}
    ruling = _ruling(player.event.game, [*earlier, proposed])
    mine = [c for c in ruling["consequences"] if c["at"] == len(earlier)]
    tallies = ruling.get("players", {}).get(_engine_name(player), {})
    preview = Preview(mine, ruling["explanation"], ruling["citations"], tallies, says=says)
    _read_change(preview, player, match)
    return preview


def _read_change(preview: Preview, player: Registration, match: Match | None) -> None:
    """Fill in the preview's change: its sentences and, for an existing result, the
    exact change the judge must confirm. The after-result is ``result_after``'s."""
    state = ResultState.of(match) if match is not None and not match.is_bye else None
    first = state
    sentences, confirm = [], []
    says = preview.says
    for consequence in preview.consequences:
        after = None
        if state is not None:
            fmt = match.round.event.match_format
            kind, game = consequence["result"], consequence["game"]
            if needs_in_result(state, kind):
                preview.asks_in_result = True
            if needs_game_winner(state, kind, game, fmt, says):
                preview.asks_game_winner = game
            try:
                after = result_after(state, kind, player.pk, game, fmt, says=says)
            except InvalidResult as exc:  # the judge has still to say who won it, or said wrong
                if isinstance(exc, NotInResult):
                    raise ServiceError(str(exc), "in_result") from None
                if not isinstance(exc, UnknownGameWinner):
                    raise ServiceError(str(exc), "game_winner") from None
        sentences.append(change_sentence(consequence, player.display_name, state, after, says))
        if state is not None and after is None:  # nothing more is known until the judge answers
            break
        if _changes_a_result(state, after):
            confirm.append(
                f"{consequence['result']}:{consequence['game']}:{state.status}:"
                f"{state.score}:{after.score}"
            )
        state = after
    preview.change = " ".join(sentences) or _("This penalty is a warning: no result changes.")
    preview.confirmation = "|".join(confirm)
    if confirm:
        preview.result_change = {
            "status": first.status,
            "before": first.score,
            "after": state.score,
        }


def judge_says_from_form(data, match: Match | None) -> JudgeSays:
    """The judge's answers on a form, about a Game Loss on a result already in: whether the
    players' result includes it ("in_result": yes/no), and who won the game ("game_winner":
    a player of the table, or "draw"). Unanswered is None; anything else names its field."""
    raw = str(data.get("in_result") or "")
    if raw not in ("", "yes", "no"):
        raise ServiceError(_("Answer yes or no."), "in_result")
    in_result = {"yes": True, "no": False}.get(raw)
    said = str(data.get("game_winner") or "")
    winner = None
    if said == "draw":
        winner = GameWinner(True, None)
    elif said:
        pk = int(said) if said.isascii() and said.isdigit() else None
        if match is None or pk is None or pk not in (match.player_a_id, match.player_b_id):
            raise ServiceError(
                _("Choose who won the game: a player of the table, or a draw."), "game_winner"
            )
        winner = GameWinner(True, pk)
    return JudgeSays(in_result=in_result, winner=winner)


def check_infraction(infraction: str, game: str) -> None:
    """Refuse an infraction the tournament rules of the event's ``game`` do not name."""
    if infraction not in rules_for(game).infractions:
        raise ServiceError(_("Unknown infraction %(code)s.") % {"code": repr(infraction)})


def _check_room(standing: list[Penalty]) -> None:
    """The engine reads at most MAX_PER_MATCH penalties of one match (a sane bound)."""
    if len(standing) >= MAX_PER_MATCH:
        raise ServiceError(
            _("This match already has %(count)s penalties: call the head judge.")
            % {"count": len(standing)}
        )


def check_player_in_match(player: Registration, match: Match | None) -> None:
    if match is not None and player.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError(
            _("%(player)s is not a player of table %(table)s.")
            % {"player": player.display_name, "table": match.table}
        )


def check_game(game: int, event: Event, match: Match | None = None) -> None:
    """A game of the format, and in a match with a result, one it reached (field "game").

    A result a penalty imposed (a Match Loss, a Disqualification) says nothing of how far
    the games got: the game under way then may still be named (two judges' warnings
    for the same game, issued at once, are both kept).
    """
    games = MatchGames.of(match) if match is not None and not match.is_bye else None
    if games is not None and _result_imposed_by_penalty(match):
        games = None
    try:
        check_game_reached(games or MatchGames(0, None), game, event.match_format)
    except InvalidResult as exc:
        raise ServiceError(str(exc), "game") from None


def _result_imposed_by_penalty(match: Match) -> bool:
    """A standing Match Loss applied to the match, alone or as a Disqualification's."""
    return any(
        (consequence["result"] == MATCH_LOSS and "undo" in consequence)
        or (consequence["result"] == DQ and "match" in (consequence.get("undo") or {}))
        for penalty in Penalty.objects.filter(match=match, voided_at__isnull=True)
        for consequence in penalty.consequences
    )


@transaction.atomic
def issue_penalty(
    player: Registration,
    infraction: str,
    judge,
    *,
    game: int = 1,
    match: Match | None = None,
    notes: str = "",
    confirmed: str | None = None,
    says: JudgeSays = NOT_ASKED,
) -> Penalty:
    """Record a penalty and apply what it escalates to, all in one transaction.

    ``confirmed`` is the preview's ``confirmation`` the judge read (the page form always
    sends it; the API may): when given, a penalty that would change an existing result
    otherwise than that is refused with ``UnconfirmedChange``, nothing written.
    ``says``: the judge's answers about a Game Loss on a result already reported (does
    the players' result include it; who won that game): refused with
    ``UnansweredQuestion`` while the preview still asks one.
    """
    limited("notes", notes)
    player = Registration.objects.select_related("event").get(pk=player.pk)
    check_infraction(infraction, player.event.game)
    check_player_in_match(player, match)
    penalty_results.lock_for_penalty(player, match)
    if match is not None:
        match = Match.objects.select_related("round__event").get(pk=match.pk)
    check_game(game, player.event, match)
    _check_room(_standing_penalties(match, player))
    preview = preview_penalty(player, infraction, game, match, says)
    if preview.unanswered:
        raise UnansweredQuestion(preview)
    if confirmed is not None and preview.confirmation != confirmed:
        raise UnconfirmedChange(preview, stale=bool(confirmed))
    penalty = Penalty.objects.create(
        event=player.event,
        round=match.round if match is not None else None,
        match=match,
        player=player,
        game=game,
        infraction=infraction,
        judge=judge,
        notes=notes.strip(),
    )
    reconcile(match, player, judge, says_for={penalty.pk: says})
    penalty.refresh_from_db()
    _announce(penalty)
    return penalty


@transaction.atomic
def void_penalty(penalty: Penalty, judge, reason: str) -> list[str]:
    """Void a penalty and undo what it caused; returns what must be put right by hand."""
    limited("reason", reason)
    if not reason.strip():
        raise ServiceError(_("Give a reason for voiding the penalty: it stays in the record."))
    penalty_results.lock_for_penalty(penalty.player, penalty.match)
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.is_void:
        raise ServiceError(_("This penalty is already void."))
    penalty.voided_at = timezone.now()
    penalty.voided_by = judge
    penalty.void_reason = reason.strip()
    penalty.save(update_fields=["voided_at", "voided_by", "void_reason"])
    why = f"{_infraction(penalty)} voided: {penalty.void_reason}"  # logged: English
    by_hand = reconcile(penalty.match, penalty.player, judge, why)
    _announce(penalty)
    return by_hand


def _announce(penalty: Penalty) -> None:
    """Tell the other apps, once this commits, that the penalty was issued or voided."""
    signals.send_on_commit(
        signals.penalty_changed,
        Penalty,
        event_id=penalty.event_id,
        penalty_id=penalty.pk,
        voided=penalty.is_void,
    )


def reconcile(
    match: Match | None,
    player: Registration,
    judge=None,
    why: str = "",
    says_for: dict[int, JudgeSays] | None = None,
) -> list[str]:
    """Make applied consequences equal what the engine says the live penalties cause.

    ``judge`` and ``why`` are what the result logs keep for the changes this makes;
    ``says_for``: the judge's answers for a penalty being issued (by its id). A Game Loss
    that moves to another penalty (one before it voided) keeps the answers the judge gave
    for it; one with none is taken as already in the players' result: it changes no
    result, and a later report must count it.
    Returns instructions for whatever could not be undone automatically.
    """
    live = _standing_penalties(match, player)
    wanted: dict[int, list[dict]] = {p.pk: [] for p in live}
    if live:
        ruling = _ruling(player.event.game, [_as_engine(p) for p in live])
        for consequence in ruling["consequences"]:
            wanted[live[consequence["at"]].pk].append(consequence)
    involved = list(live) + _voided_penalties(match, player)
    involved.sort(key=lambda p: (p.issued_at, p.pk))
    kept_of = {
        p.pk: [c for c in p.consequences if _key(c) in {_key(t) for t in wanted.get(p.pk, [])}]
        for p in involved
    }
    # Undo first, newest first, so each restores the state it found; then apply, in order.
    manual: list[str] = []
    answered: dict[tuple, JudgeSays] = {}  # what the judge said for a consequence undone here
    for penalty in reversed(involved):
        for gone in reversed([c for c in penalty.consequences if c not in kept_of[penalty.pk]]):
            manual += _undo(penalty, gone, judge, why)
            if "in_result" in gone:
                answered[_key(gone)] = _said(gone)
    for penalty in involved:
        kept = kept_of[penalty.pk]
        present = {_key(c) for c in kept}
        for consequence in wanted.get(penalty.pk, []):
            if _key(consequence) not in present:
                says = (says_for or {}).get(penalty.pk) or answered.get(
                    _key(consequence), JudgeSays(in_result=True)
                )
                kept.append(_apply(penalty, consequence, judge, says))
        if kept != penalty.consequences:
            penalty.consequences = kept
            penalty.save(update_fields=["consequences"])
    return manual


def result_changes(penalty: Penalty) -> list[ResultChange]:
    """The result changes this penalty's consequences wrote (``source`` names it)."""
    return list(
        ResultChange.objects.filter(source=penalty_results.Cause(penalty.pk, "").source).order_by(
            "changed_at", "pk"
        )
    )


def changes_made(penalty: Penalty) -> list[str]:
    """Each result change the penalty made, for the judge's confirmation message."""
    changes = []
    for c in result_changes(penalty):
        values = {
            "before": c.before.get("score") or "—",
            "after": c.after.get("score") or "—",
            "reason": c.reason,
            "rule": c.rule,
        }
        if c.rule:
            changes.append(_("%(before)s became %(after)s (%(reason)s), rule %(rule)s.") % values)
        else:
            changes.append(_("%(before)s became %(after)s (%(reason)s).") % values)
    return changes


def _voided_penalties(match: Match | None, player: Registration) -> list[Penalty]:
    voided = Penalty.objects.filter(voided_at__isnull=False)
    if match is not None:
        voided = voided.filter(match=match)
    else:
        voided = voided.filter(match__isnull=True, player=player)
    return [p for p in voided if p.consequences]  # only those with something to undo


def _infraction(penalty: Penalty) -> str:
    """The infraction's English name, as the logs keep it (a result change's reason)."""
    return INFRACTION_LABELS.get(penalty.infraction, penalty.infraction)


def _key(consequence: dict) -> tuple:
    return (consequence["result"], consequence.get("game"), consequence["rule"])


def _apply(penalty: Penalty, consequence: dict, judge, says: JudgeSays = NOT_ASKED) -> dict:
    """Apply one consequence; return it with what it replaced (and the judge's answers)."""
    record = {key: consequence[key] for key in ("result", "game", "rule")}
    match = Match.objects.get(pk=penalty.match_id) if penalty.match_id else None
    reason = f"{_logged_name(consequence, penalty.player.display_name)}: {_infraction(penalty)}"
    cause = Cause(penalty.pk, reason, consequence["rule"])
    in_match = match is not None and not match.is_bye
    if consequence["result"] == GAME_LOSS and in_match:
        record["undo"] = penalty_results.force_game_loss(
            match, penalty.player, consequence["game"], judge, cause, says
        )
        if says.in_result is not None:
            record["in_result"] = says.in_result
        if says.winner is not None and says.winner.known:
            record["game_winner"] = {"winner": says.winner.winner}
    elif consequence["result"] == MATCH_LOSS and in_match:
        record["undo"] = penalty_results.force_match_loss(match, penalty.player, judge, cause)
    elif consequence["result"] == DQ:
        record["undo"] = penalty_results.disqualify(penalty.player, match, judge, cause)
    return record


def _said(consequence: dict) -> JudgeSays:
    """The judge's answers an applied Game Loss keeps (``_apply``)."""
    said = consequence.get("game_winner")
    winner = GameWinner(True, said["winner"]) if isinstance(said, dict) else None
    return JudgeSays(in_result=consequence.get("in_result"), winner=winner)


def _undo(penalty: Penalty, consequence: dict, judge, why: str) -> list[str]:
    """Reverse one applied consequence, or say what to reverse by hand."""
    undo = consequence.get("undo")
    if undo is None:
        return []
    match = Match.objects.select_related("round__event").filter(pk=penalty.match_id).first()
    player = Registration.objects.select_related("event").get(pk=penalty.player_id)
    words = _logged_name(consequence, player.display_name)  # logged: English
    cause = Cause(penalty.pk, f"{words} taken back, {why or 'no longer due'}", consequence["rule"])
    if consequence["result"] == DQ:
        left = penalty_results.undo_disqualification(player, match, undo, judge, cause)
    elif match is None:
        return []
    elif consequence["result"] == GAME_LOSS:
        left = penalty_results.undo_game_loss(match, player, undo, judge, cause)
    else:
        left = penalty_results.undo_match_loss(match, player, undo, judge, cause)
    return [_by_hand(item, consequence, player, match) for item in left]


def _by_hand(left: Leftover, consequence: dict, player: Registration, match: Match | None) -> str:
    """What the judge must put right because the reversal could not."""
    values = {
        "name": consequence_name(consequence["result"]),
        "player": player.display_name,
        "where": (
            _("table %(table)s of round %(round)s")
            % {"table": match.table, "round": match.round.number}
            if match is not None
            else ""
        ),
        "round": left.last_round,
        "match_loss": consequence_name(MATCH_LOSS),
        "dq": consequence_name(DQ),
    }
    if left.kind == Left.LATER_ROUND_PAIRED:
        return (
            _(
                "The %(name)s for %(player)s at %(where)s no longer applies, but round "
                "%(round)s is already paired: correct the result of "
                "%(where)s by hand (the pairings already made stand)."
            )
            % values
        )
    if left.kind == Left.REPORTED_SINCE:
        return (
            _(
                "The result of %(where)s was reported after the %(name)s and counts it: check "
                "the score with the players and correct it if needed."
            )
            % values
        )
    if left.kind == Left.MATCH_LOSS_STANDS:
        return (
            _(
                "The %(match_loss)s from the %(dq)s at %(where)s stands in the record: "
                "correct it by hand if needed."
            )
            % values
        )
    return (
        _(
            "%(player)s was not paired in the rounds paired while disqualified; "
            "they are paired again from the next round."
        )
        % values
    )


# --- what voiding would take back --------------------------------------------------------


def with_void_effects(penalties: list[Penalty]) -> list[Penalty]:
    """Each live penalty gets ``void_effect``: what voiding it takes back, in words, read
    before voiding. One engine ruling per penalty; no query per row (the rows come with
    their match and player, and the rounds paired are read once per event)."""
    last_round: dict[int, int] = {}
    games: dict[int, str] = {}  # each event's game, read once
    by_table: dict[tuple[str, int], list[Penalty]] = {}
    for penalty in penalties:
        if not penalty.is_void:
            key = ("match", penalty.match_id) if penalty.match_id else ("player", penalty.player_id)
            by_table.setdefault(key, []).append(penalty)
    for standing in by_table.values():
        standing.sort(key=lambda p: (p.issued_at, p.pk))
        for penalty in standing:
            if penalty.event_id not in last_round:
                last_round[penalty.event_id] = _last_round(penalty.event_id)
                games[penalty.event_id] = penalty.event.game
            penalty.void_effect = void_effect(
                penalty, standing, last_round[penalty.event_id], games[penalty.event_id]
            )
    return penalties


def _last_round(event_id: int) -> int:
    rounds = Round.objects.filter(event_id=event_id).order_by("-number")
    return rounds.values_list("number", flat=True).first() or 0


def void_effect(
    penalty: Penalty, standing: list[Penalty], last_round: int, game: str | None = None
) -> str:
    """What voiding ``penalty`` takes back: its own consequences, or those of later
    penalties it counted towards. ``standing``: the live penalties escalating with it;
    ``game``: its event's game (read from the penalty's event when not given)."""
    taken = _taken_back(penalty, standing, game or penalty.event.game)
    if not taken:
        return _("Voiding this penalty changes no result.")
    names = [_named(c, owner.player.display_name) for owner, c in taken]
    named = names[0]
    for name in names[1:]:
        named = _("%(first)s and the %(next)s") % {"first": named, "next": name}
    return _("Voiding this penalty takes back the %(named)s: %(effect)s.") % {
        "named": named,
        "effect": _reverse_words(taken, last_round),
    }


def _taken_back(penalty: Penalty, standing: list[Penalty], game: str) -> list[tuple[Penalty, dict]]:
    """The applied consequences no longer due once ``penalty`` is void."""
    rest = [p for p in standing if p.pk != penalty.pk]
    wanted: set[tuple[int, tuple]] = set()
    if rest:
        ruling = _ruling(game, [_as_engine(p) for p in rest])
        wanted = {(rest[c["at"]].pk, _key(c)) for c in ruling["consequences"]}
    return [(p, c) for p in standing for c in p.consequences if (p.pk, _key(c)) not in wanted]


def _reverse_words(taken: list[tuple[Penalty, dict]], last_round: int) -> str:
    """What the reversal does to the match's result (undone newest first, as ``reconcile``)."""
    owner, _first = taken[0]
    match = owner.match
    dq = any(c["result"] == DQ for _owner, c in taken)
    if match is None or match.is_bye:
        return _("the player is reinstated") if dq else _("no result changes")
    now = ResultState.of(match)
    if last_round > (owner.round.number if owner.round_id else last_round):
        return _(
            "round %(round)s is already paired, so the result %(score)s stays: "
            "correct it by hand if needed"
        ) % {"round": last_round, "score": now.score or "—"}
    then = now
    for _owner, consequence in reversed(taken):
        then = _state_before(consequence, then)
    if now.score is None and then.score is None:
        effect = _("the match has no result yet: the result reported need not count it")
    elif then.score == now.score:
        effect = _("the result %(score)s stays as it is") % {"score": now.score or "—"}
    elif then.score is None:
        effect = _("the result %(score)s is taken back: the match has no result again") % {
            "score": now.score
        }
    else:
        effect = _("the result %(score)s becomes %(earlier)s again") % {
            "score": now.score,
            "earlier": then.score,
        }
    return _("the player is reinstated, and %(effect)s") % {"effect": effect} if dq else effect


def _state_before(consequence: dict, state: ResultState) -> ResultState:
    """The result a consequence's undo record puts back (``penalty_results``' reversals)."""
    undo = consequence.get("undo") or {}
    if consequence["result"] == DQ:
        undo = undo.get("match") or {}
    if "games" not in undo:
        return state
    if consequence["result"] == GAME_LOSS and not undo["games"] and state.games.played:
        return state  # reported since, counting it: the reversal leaves the games
    games = MatchGames(state.games.player_a, state.games.player_b, tuple(undo["games"]))
    return ResultState(games, undo.get("status", state.status))
