"""Marking rulings as precedents, and keeping an appeal's outcome with them (issue 35).

One owner for ``Precedent`` rows made on this site: :func:`mark` turns a resolved judge
call that carries a rules-engine ruling into a precedent (or updates the one it is), with
the players' names taken out of everything that leaves the event; :func:`record_appeal`
keeps the outcome of an appeal. Each change is logged on the event and announced once, on
commit, by :data:`precedents.signals.precedent_changed`.

Who may: the event's organisers and its head judge (``judging.roster.may_manage``), the
same people who set its judge roster.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from judging.models import JudgeCall
from judging.roster import may_manage
from precedents import extract, index
from precedents.models import Precedent
from precedents.signals import precedent_changed
from rules_engine.reference import rule_text
from tournaments.models import EventLog, Registration
from tournaments.signals import send_on_commit
from web.errors import ServiceError

MAX_NOTE = 2_000


class NotAllowed(ServiceError):
    """Only the event's organisers and head judge keep its rulings as precedents."""

    status = 403


@transaction.atomic
def mark(
    call: JudgeCall,
    actor,
    *,
    decision: str,
    note: str = "",
    status: str = Precedent.Status.FOLLOW,
    visibility: str = Precedent.Visibility.JUDGES,
) -> Precedent:
    """Keep ``call``'s ruling as a precedent (or mark it not to be followed).

    Marking the same call again updates its precedent: the decision, note, status and
    who may read it change; the ruling itself is the call's, as it was resolved.
    """
    call = (
        JudgeCall.objects.select_for_update(of=("self",))
        .select_related("event", "round")
        .get(pk=call.pk)
    )
    if not may_manage(actor, call.event):
        raise NotAllowed(
            _("Only the event's organisers and its head judge keep rulings as precedents.")
        )
    _check_choice(
        decision,
        Precedent.Decision,
        "decision",
        _("Say whether the judge upheld or overturned the engine's ruling."),
    )
    _check_choice(
        status, Precedent.Status, "status", _("Say whether later judges should follow this ruling.")
    )
    _check_choice(
        visibility, Precedent.Visibility, "visibility", _("Say who may read this precedent.")
    )
    note = checked_note(note, "note")
    if call.is_open:
        raise ServiceError(_("Resolve the call first: a precedent is a ruling that was given."))
    if not call.ruling_game or not isinstance(call.ruling_answer, dict):
        raise ServiceError(
            _("This call has no rules-engine ruling to keep: attach one when answering it.")
        )
    hide = extract.Anonymiser(names_in_event(call.event))
    precedent = Precedent.objects.filter(call=call).first() or Precedent(call=call)
    precedent.event = call.event
    precedent.event_name = call.event.name
    precedent.round_number = call.round.number if call.round_id else None
    precedent.ruled_on = (call.resolved_at or call.called_at).date()
    precedent.ruled_by = _judge_name(call)
    precedent.game, precedent.question = call.ruling_game, call.ruling_question
    precedent.payload = hide.value(call.ruling_payload or {})
    precedent.answer = hide.value(call.ruling_answer)
    precedent.asked = hide.text(call.question)
    precedent.cards = extract.cards_named(call.ruling_payload or {})
    precedent.rules = extract.rules_cited(call.ruling_answer)
    precedent.rule_texts = rule_texts(precedent.rules)
    precedent.review, precedent.needs_review = {}, False
    precedent.decision, precedent.status, precedent.visibility = decision, status, visibility
    precedent.note = hide.text(note)
    precedent.marked_by = actor
    precedent.save()
    index.refresh(precedent)
    EventLog.objects.create(
        event=call.event,
        round_number=precedent.round_number,
        actor=actor,
        action="precedent",
        data={"precedent": str(precedent.uid), "status": status, "decision": decision},
    )
    send_on_commit(precedent_changed, Precedent, precedent_id=precedent.pk, action="marked")
    return precedent


@transaction.atomic
def record_appeal(precedent: Precedent, actor, *, upheld: bool, note: str) -> Precedent:
    """Keep an appeal's outcome with the precedent it was about."""
    precedent = (
        Precedent.objects.select_for_update(of=("self",))
        .select_related("event")
        .get(pk=precedent.pk)
    )
    if precedent.event is None or not may_manage(actor, precedent.event):
        raise NotAllowed(
            _("Only the organisers and the head judge of the ruling's event record its appeal.")
        )
    if not isinstance(upheld, bool):
        raise ServiceError(_("Say whether the appeal upheld the ruling."), "upheld")
    note = checked_note(note, "appeal")
    if not note:
        raise ServiceError(_("Write what the appeal decided."), "appeal")
    precedent.appeal = extract.Anonymiser(names_in_event(precedent.event)).text(note)
    precedent.appeal_upheld = upheld
    precedent.save(update_fields=["appeal", "appeal_upheld", "marked_at"])
    index.refresh(precedent)
    EventLog.objects.create(
        event=precedent.event,
        round_number=precedent.round_number,
        actor=actor,
        action="precedent_appeal",
        data={"precedent": str(precedent.uid), "upheld": upheld},
    )
    send_on_commit(precedent_changed, Precedent, precedent_id=precedent.pk, action="appeal")
    return precedent


def rule_texts(rules: list[str]) -> dict[str, str]:
    """Each cited rule's text as the rules file says it now (kept to notice a later edit)."""
    return {rule: text for rule in rules if (text := rule_text(rule)) is not None}


def _check_choice(value: Any, choices, field: str, message: str) -> None:
    if value not in choices.values:
        raise ServiceError(message, field)


def checked_note(value: Any, field: str) -> str:
    """A note as kept: text, trimmed, at most MAX_NOTE characters (else an error naming it)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ServiceError(_("Write the note as text."), field)
    value = value.strip()
    if len(value) > MAX_NOTE:
        raise ServiceError(
            _("The note is %(length)s characters long; keep it to %(limit)s.")
            % {"length": len(value), "limit": MAX_NOTE},
            field,
        )
    return value


def names_in_event(event) -> list[str]:
    """Every name a player of the event may be written by: entered names, account names."""
    names: list[str] = []
    rows = Registration.objects.filter(event=event).values_list(
        "name", "user__first_name", "user__last_name", "user__username"
    )
    for name, first, last, username in rows:
        full = f"{first} {last}".strip()
        names.extend(n for n in (name, full, first, last, username) if n)
    return names


def _judge_name(call: JudgeCall) -> str:
    judge = call.judge
    if judge is None:
        return ""
    return f"{judge.first_name} {judge.last_name}".strip() or judge.username
