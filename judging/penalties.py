"""Issuing and voiding penalties, and applying what they escalate to (900-series).

The rules engine's ``penalties`` question decides the escalation from a match's
penalties in issue order; this module decides what that answer means now (what to
apply, what to take back) and has ``tournaments.penalty_results`` apply it to
results and entries, which logs every change it makes.

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

from judging.models import INFRACTION_LABELS, Penalty
from rules_engine import adjudicate
from rules_engine.iacta.tournament import INFRACTIONS
from tournaments import penalty_results
from tournaments.match_games import InvalidResult, check_game_number
from tournaments.models import Event, Match, Registration
from tournaments.penalty_results import Cause, Left, Leftover
from web.errors import ServiceError
from web.inputs import limited

GAME_LOSS, MATCH_LOSS, DQ = "game_loss", "match_loss", "disqualification"
MAX_PER_MATCH = 199  # the penalties question takes at most 200
RESULT_WORDS = {GAME_LOSS: "Game Loss", MATCH_LOSS: "Match Loss", DQ: "Disqualification"}


@dataclass
class Preview:
    """What issuing a penalty would cause, for the judge to read before confirming."""

    consequences: list[dict[str, Any]]
    explanation: str
    citations: list[str]
    tallies: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        if not self.consequences:
            return "A warning: nothing else happens yet."
        return "; ".join(_consequence_words(c) for c in self.consequences)


def describe(penalty: Penalty) -> str:
    """What the penalty caused, in a judge's words."""
    if not penalty.consequences:
        return "A warning: no further consequence."
    return "; ".join(_consequence_words(c) for c in penalty.consequences) + "."


def _consequence_words(consequence: dict) -> str:
    game = f" in game {consequence['game']}" if consequence["result"] == GAME_LOSS else ""
    return f"{RESULT_WORDS[consequence['result']]}{game} ({consequence['rule']})"


def _ruling(penalties: list[dict]) -> dict[str, Any]:
    return adjudicate("iacta", "penalties", {"penalties": penalties})


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
    player: Registration, infraction: str, game: int, match: Match | None = None
) -> Preview:
    """The escalation this penalty would cause now, computed by the rules engine."""
    check_infraction(infraction)
    check_player_in_match(player, match)
    check_game(game, player.event)
    standing = _standing_penalties(match, player)
    _check_room(standing)
    earlier = [_as_engine(p) for p in standing]
    proposed = {"player": _engine_name(player), "infraction": infraction, "game": game}
    ruling = _ruling([*earlier, proposed])
    mine = [c for c in ruling["consequences"] if c["at"] == len(earlier)]
    tallies = ruling.get("players", {}).get(_engine_name(player), {})
    return Preview(mine, ruling["explanation"], ruling["citations"], tallies)


def check_infraction(infraction: str) -> None:
    if infraction not in INFRACTIONS:
        raise ServiceError(f"Unknown infraction {infraction!r}.")


def _check_room(standing: list[Penalty]) -> None:
    """The engine reads at most MAX_PER_MATCH penalties of one match (a sane bound)."""
    if len(standing) >= MAX_PER_MATCH:
        raise ServiceError(
            f"This match already has {len(standing)} penalties: call the head judge."
        )


def check_player_in_match(player: Registration, match: Match | None) -> None:
    if match is not None and player.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError(f"{player.display_name} is not a player of table {match.table}.")


def check_game(game: int, event: Event) -> None:
    try:
        check_game_number(game, event.match_format)
    except InvalidResult as exc:
        raise ServiceError(str(exc)) from None


@transaction.atomic
def issue_penalty(
    player: Registration,
    infraction: str,
    judge,
    *,
    game: int = 1,
    match: Match | None = None,
    notes: str = "",
) -> Penalty:
    """Record a penalty and apply what it escalates to, all in one transaction."""
    limited("notes", notes)
    check_infraction(infraction)
    player = Registration.objects.select_related("event").get(pk=player.pk)
    check_player_in_match(player, match)
    check_game(game, player.event)
    penalty_results.lock_for_penalty(player, match)
    _check_room(_standing_penalties(match, player))
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
    reconcile(match, player, judge)
    penalty.refresh_from_db()
    return penalty


@transaction.atomic
def void_penalty(penalty: Penalty, judge, reason: str) -> list[str]:
    """Void a penalty and undo what it caused; returns what must be put right by hand."""
    limited("reason", reason)
    if not reason.strip():
        raise ServiceError("Give a reason for voiding the penalty: it stays in the record.")
    penalty_results.lock_for_penalty(penalty.player, penalty.match)
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.is_void:
        raise ServiceError("This penalty is already void.")
    penalty.voided_at = timezone.now()
    penalty.voided_by = judge
    penalty.void_reason = reason.strip()
    penalty.save(update_fields=["voided_at", "voided_by", "void_reason"])
    why = f"penalty {penalty.pk} voided ({penalty.void_reason})"
    return reconcile(penalty.match, penalty.player, judge, why)


def reconcile(match: Match | None, player: Registration, judge=None, why: str = "") -> list[str]:
    """Make applied consequences equal what the engine says the live penalties cause.

    ``judge`` and ``why`` are what the result logs keep for the changes this makes.
    Returns instructions for whatever could not be undone automatically.
    """
    live = _standing_penalties(match, player)
    wanted: dict[int, list[dict]] = {p.pk: [] for p in live}
    if live:
        ruling = _ruling([_as_engine(p) for p in live])
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
    for penalty in reversed(involved):
        for gone in reversed([c for c in penalty.consequences if c not in kept_of[penalty.pk]]):
            manual += _undo(penalty, gone, judge, why)
    for penalty in involved:
        kept = kept_of[penalty.pk]
        present = {_key(c) for c in kept}
        for consequence in wanted.get(penalty.pk, []):
            if _key(consequence) not in present:
                kept.append(_apply(penalty, consequence, judge))
        if kept != penalty.consequences:
            penalty.consequences = kept
            penalty.save(update_fields=["consequences"])
    return manual


def _voided_penalties(match: Match | None, player: Registration) -> list[Penalty]:
    voided = Penalty.objects.filter(voided_at__isnull=False)
    if match is not None:
        voided = voided.filter(match=match)
    else:
        voided = voided.filter(match__isnull=True, player=player)
    return [p for p in voided if p.consequences]  # only those with something to undo


def _key(consequence: dict) -> tuple:
    return (consequence["result"], consequence.get("game"), consequence["rule"])


def _apply(penalty: Penalty, consequence: dict, judge) -> dict:
    """Apply one consequence; return it with what it replaced."""
    record = {key: consequence[key] for key in ("result", "game", "rule")}
    match = Match.objects.get(pk=penalty.match_id) if penalty.match_id else None
    reason = f"{_consequence_words(consequence)} for {penalty.player.display_name}: " + (
        INFRACTION_LABELS.get(penalty.infraction, penalty.infraction)
    )
    cause = Cause(penalty.pk, reason)
    in_match = match is not None and not match.is_bye
    if consequence["result"] == GAME_LOSS and in_match:
        record["undo"] = penalty_results.force_game_loss(
            match, penalty.player, consequence["game"], judge, cause
        )
    elif consequence["result"] == MATCH_LOSS and in_match:
        record["undo"] = penalty_results.force_match_loss(match, penalty.player, judge, cause)
    elif consequence["result"] == DQ:
        record["undo"] = penalty_results.disqualify(penalty.player, match, judge, cause)
    return record


def _undo(penalty: Penalty, consequence: dict, judge, why: str) -> list[str]:
    """Reverse one applied consequence, or say what to reverse by hand."""
    undo = consequence.get("undo")
    if undo is None:
        return []
    match = Match.objects.select_related("round__event").filter(pk=penalty.match_id).first()
    player = Registration.objects.select_related("event").get(pk=penalty.player_id)
    words = _consequence_words(consequence)
    cause = Cause(
        penalty.pk, f"{words} for {player.display_name} taken back: {why or 'no longer due'}"
    )
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
    word = RESULT_WORDS[consequence["result"]]
    where = f"table {match.table} of round {match.round.number}" if match is not None else ""
    if left.kind == Left.LATER_ROUND_PAIRED:
        return (
            f"The {word} for {player.display_name} at {where} no longer applies, but round "
            f"{left.last_round} is already paired: correct the result of "
            f"{where} by hand (the pairings already made stand)."
        )
    if left.kind == Left.REPORTED_SINCE:
        return (
            f"The result of {where} was reported after the {word} and counts it: check the "
            "score with the players and correct it if needed."
        )
    if left.kind == Left.MATCH_LOSS_STANDS:
        return (
            f"The match loss from the disqualification at {where} stands in the record: "
            "correct it by hand if needed."
        )
    return (
        f"{player.display_name} was not paired in the rounds paired while disqualified; "
        "they are paired again from the next round."
    )
