"""Judge calls: opening one at a table, answering it, and the time extension it may grant.

Each function is one transaction that locks the rows it changes, so two judges
answering the same call at once cannot both resolve it, and two extensions granted to
one match at once are both counted (903.1b).

Permissions are the views' business (judges and organisers of the event); these
functions only refuse what is wrong whoever asks.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from judging import routing
from judging.models import JudgeAlert, JudgeCall
from rules_engine import PayloadError, UnknownGame, UnknownQuestion, adjudicate
from tournaments import signals
from tournaments.clock import extensions as clock
from tournaments.event.roles import JUDGE, ORGANISER, has_role
from tournaments.models import Event, Match, Round
from web.errors import ServiceError

MAX_TEXT = 2_000
MAX_MINUTES = 180
MAX_TABLE = 2_147_483_647  # the column's ceiling: a larger number cannot be stored

# What each text field refuses, whole sentences per field (a field's name inside another
# sentence cannot be translated well).
TEXT_MESSAGES = {
    "question": (
        _lazy("Write the question."),
        _lazy("The question is %(length)s characters long; keep it to %(limit)s."),
    ),
    "resolution": (
        _lazy("Write the resolution."),
        _lazy("The resolution is %(length)s characters long; keep it to %(limit)s."),
    ),
}
NUMBER_MESSAGES = {
    "table number": (
        _lazy("The table number must be a whole number."),
        _lazy("The table number must be from %(low)s to %(high)s (got %(value)s)."),
    ),
    "minutes": (
        _lazy("The minutes must be a whole number."),
        _lazy("The minutes must be from %(low)s to %(high)s (got %(value)s)."),
    ),
}


def _text(value: Any, field: str) -> str:
    missing, too_long = TEXT_MESSAGES[field]
    if not isinstance(value, str) or not value.strip():
        raise ServiceError(str(missing), field)
    text = value.strip()
    if len(text) > MAX_TEXT:
        raise ServiceError(
            str(too_long) % {"length": f"{len(text):,}", "limit": f"{MAX_TEXT:,}"}, field
        )
    return text


def _whole_number(value: Any, field: str, what: str, low: int, high: int) -> int:
    not_whole, out_of_range = NUMBER_MESSAGES[what]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(str(not_whole), field)
    if not low <= value <= high:
        raise ServiceError(
            str(out_of_range) % {"low": low, "high": f"{high:,}", "value": value}, field
        )
    return value


def current_round(event: Event) -> Round | None:
    """The round being played: the latest one, unless it is already closed."""
    latest = event.rounds.order_by("-number").first()
    if latest is None or latest.status == Round.Status.CLOSED:
        return None
    return latest


@transaction.atomic
def open_call(
    event: Event,
    actor,
    *,
    question: str,
    table: int | None = None,
    match: Match | None = None,
    judge=None,
) -> JudgeCall:
    """Log a call at a table, tied to the match playing there so an extension can follow."""
    question = _text(question, "question")
    if match is not None:
        match = Match.objects.select_related("round").filter(pk=match.pk).first()
        if match is None or match.round.event_id != event.pk:
            raise ServiceError(_("That match is not part of this event."), "match")
        if match.is_bye:
            raise ServiceError(_("A bye has no table to call a judge to."), "match")
        if table is not None and table != match.table:
            raise ServiceError(
                _("The match is at table %(table)s, not table %(given)s: give one or the other.")
                % {"table": match.table, "given": table},
                "table",
            )
        table, round_ = match.table, match.round
    elif table is not None:
        table = _whole_number(table, "table", "table number", 1, MAX_TABLE)
        round_ = current_round(event)
        if round_ is not None:
            match = round_.matches.filter(table=table, is_bye=False).first()
    else:
        raise ServiceError(_("Give the table the judge is called to."), "table")
    if judge is not None and not has_role(judge, event, JUDGE, ORGANISER):
        raise ServiceError(
            _("%(user)s is not a judge of this event.") % {"user": judge.get_username()}, "judge"
        )
    call = JudgeCall.objects.create(
        event=event, round=round_, match=match, table=table, judge=judge, question=question
    )
    _announce(call)
    routing.raise_alert(
        event,
        JudgeAlert.Kind.CALL,
        table=table,
        round_number=round_.number if round_ is not None else None,
        call=call,
        actor=actor,
    )
    return call


def _announce(call: JudgeCall) -> None:
    """A call made or answered changes the judges' queue."""
    number = call.round.number if call.round_id else None
    signals.send_on_commit(
        signals.call_changed,
        JudgeCall,
        event_id=call.event_id,
        round_number=number,
        table=call.table,
    )


def _locked(call: JudgeCall) -> JudgeCall:
    return JudgeCall.objects.select_for_update(of=("self",)).select_related("event").get(pk=call.pk)


def _rule(call: JudgeCall, game: Any, question: Any, payload: Any, prefix: str = "") -> None:
    """Ask the rules engine and keep question and answer on the call (saved by the caller)."""
    if not isinstance(game, str) or not game:
        raise ServiceError(
            _("Name the game of the ruling (iacta, superjack or dataclysm)."), f"{prefix}game"
        )
    if not isinstance(question, str) or not question:
        raise ServiceError(_("Name the rules question of the ruling."), f"{prefix}question")
    try:
        answer = adjudicate(game, question, payload)
    except UnknownGame:
        raise ServiceError(
            _("Arbiter has no game %(game)s.") % {"game": repr(game)}, f"{prefix}game"
        ) from None
    except UnknownQuestion:
        raise ServiceError(
            _("%(game)s has no rules question %(question)s.")
            % {"game": game, "question": repr(question)},
            f"{prefix}question",
        ) from None
    except PayloadError as exc:
        problems = "; ".join(f"{e['field']}: {e['message']}" for e in exc.errors)
        raise ServiceError(
            _("The game state does not fit %(game)s/%(question)s: %(problems)s")
            % {"game": game, "question": question, "problems": problems},
            errors=[
                {"field": _payload_field(prefix, e["field"]), "message": e["message"]}
                for e in exc.errors
            ],
        ) from None
    call.ruling_game, call.ruling_question = game, question
    call.ruling_payload, call.ruling_answer = payload, answer


def _payload_field(prefix: str, field: str) -> str:
    if field == "(payload)":
        return f"{prefix}payload"
    return f"{prefix}payload{'' if field.startswith('[') else '.'}{field}"


@transaction.atomic
def attach_ruling(call: JudgeCall, actor, *, game: str, question: str, payload: Any) -> JudgeCall:
    """Keep the rules engine's answer with the call, so the ruling given can be checked later.

    An open call's ruling may be replaced while the judge works it out; a resolved call's
    record is final.
    """
    call = _locked(call)
    if not call.is_open:
        raise ServiceError(_("This call is resolved: its record can no longer change."))
    _rule(call, game, question, payload)
    call.save(update_fields=["ruling_game", "ruling_question", "ruling_payload", "ruling_answer"])
    return call


@transaction.atomic
def resolve_call(
    call: JudgeCall,
    actor,
    *,
    resolution: str,
    minutes: int,
    grant_extension: bool = False,
    ruling: dict[str, Any] | None = None,
) -> JudgeCall:
    """Close a call with its answer; granted minutes go onto the match's clock (903.1b)."""
    call = _locked(call)
    if not call.is_open:
        raise ServiceError(_("This call is already resolved."))
    resolution = _text(resolution, "resolution")
    minutes = _whole_number(minutes, "minutes", "minutes", 0, MAX_MINUTES)
    fields = ["judge", "resolution", "resolved_at", "minutes"]
    if ruling is not None:
        if not isinstance(ruling, dict):
            raise ServiceError(_("A ruling needs its game, question and payload."), "ruling")
        _rule(call, ruling.get("game"), ruling.get("question"), ruling.get("payload"), "ruling.")
        fields += ["ruling_game", "ruling_question", "ruling_payload", "ruling_answer"]
    call.resolution = resolution
    if grant_extension:
        _extend(call, actor, minutes)
        fields.append("extension_minutes")
    if call.judge_id is None:
        call.judge = actor
    call.minutes = minutes
    call.resolved_at = timezone.now()
    call.save(update_fields=fields)
    _announce(call)
    return call


def _extend(call: JudgeCall, actor, minutes: int) -> None:
    """Grant the call's minutes to its table, the call's resolution as the reason."""
    if call.match_id is None:
        raise ServiceError(
            _("This call is not tied to a match: there is no clock to extend."), "grant_extension"
        )
    if minutes < 1:
        raise ServiceError(_("A time extension needs at least one minute."), "minutes")
    try:
        clock.grant_extension(call.match, minutes, call.resolution, actor, call=call.pk)
    except ServiceError as exc:
        field = "minutes" if exc.field == "minutes" else "grant_extension"
        raise ServiceError(str(exc), field) from None
    call.extension_minutes = minutes
