"""A table's clock: minutes granted on top of the round's time (903.1b).

Each grant is a ``TimeExtension`` row, never deleted: removing one keeps who removed it
and why. ``Match.extension_minutes`` is the sum of the extensions still standing, kept
here and nowhere else, so every clock, slip and page reads one number. Judges grant
time from the table page, the console, the API or while resolving a judge call
(``judging.calls``); all of them come through :func:`grant_extension`.

Each service locks the event, then the match with its round (the order closing a round
and the result services take), so the round cannot close under it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tournaments import signals
from tournaments.models import Event, EventLog, Match, Round, TimeExtension
from tournaments.results.services import games_of
from web.errors import ServiceError
from web.inputs import MAX_NOTE, limited

MAX_STANDING = 32_767  # the column's ceiling (a small integer): a table's total extension

# How a warning names a result that is already in.
RESULT_WORDS = {
    Match.Status.REPORTED: _lazy("reported"),
    Match.Status.CONFIRMED: _lazy("confirmed"),
    Match.Status.FINAL: _lazy("entered by staff"),
}


def warning_for(match: Match) -> str | None:
    """What a judge should read before granting time to a table whose result is in.

    The grant is allowed (a result may still be corrected), but the time changes nothing
    otherwise; None when the table is still playing or its result is disputed.
    """
    words = RESULT_WORDS.get(match.status)
    if words is None or match.is_bye:
        return None
    score = games_of(match).score_text() or _("no score")
    return _(
        "Table %(table)s already has a result (%(score)s, %(status)s): "
        "the extra time changes nothing unless the result is corrected."
    ) % {"table": match.table, "score": score, "status": words}


def _locked(match: Match) -> Match:
    """The match and its round, locked after their event, in the order close_round and
    the result services lock them: the log row's key share on the event would otherwise
    wait for a closing round that waits for this one (a deadlock). With the round locked
    the round cannot close under the change."""
    event_id = Round.objects.filter(matches=match.pk).values_list("event_id", flat=True)
    Event.objects.select_for_update().filter(pk__in=event_id).first()
    return (
        Match.objects.select_for_update(of=("self", "round"))
        .select_related("round__event")
        .get(pk=match.pk)
    )


def _check_open(match: Match) -> None:
    if match.is_bye:
        raise ServiceError(_("A bye has no clock: it gets no time extension."), "match")
    if match.round.status == Round.Status.CLOSED:
        raise ServiceError(
            _("Round %(round)s is closed: table %(table)s can get no more time.")
            % {"round": match.round.number, "table": match.table}
        )


def check_minutes(minutes: Any, round_minutes: int) -> int:
    """A whole number of minutes from 1 to the round's length, else a ServiceError."""
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise ServiceError(_("The minutes of a time extension are a whole number."), "minutes")
    if minutes < 1:
        raise ServiceError(_("A time extension needs at least one minute."), "minutes")
    if minutes > round_minutes:
        raise ServiceError(
            _("A time extension is at most the round's length, %(limit)s minutes (got %(got)s).")
            % {"limit": round_minutes, "got": minutes},
            "minutes",
        )
    return minutes


def _reason(reason: Any, field: str, missing: str) -> str:
    """The reason given, else a ServiceError saying ``missing`` (it names what for)."""
    if not isinstance(reason, str) or not reason.strip():
        raise ServiceError(missing, field)
    return limited(field, reason.strip(), MAX_NOTE)


def _standing_total(match: Match) -> int:
    standing = match.extensions.filter(removed_at__isnull=True)
    return standing.aggregate(total=Sum("minutes"))["total"] or 0


def _keep_total(match: Match) -> None:
    match.extension_minutes = _standing_total(match)
    match.save(update_fields=["extension_minutes"])
    signals.send_on_commit(
        signals.extension_changed,
        Match,
        event_id=match.round.event_id,
        match_id=match.pk,
        minutes=match.extension_minutes,
    )


def _log(extension: TimeExtension, match: Match, actor, action: str, reason: str) -> None:
    EventLog.objects.create(
        event_id=match.round.event_id,
        round_number=match.round.number,
        actor=actor,
        action=action,
        reason=reason,
        data={
            "table": match.table,
            "minutes": extension.minutes,
            "reason": reason,
            "call": extension.call,
            "extension": extension.pk,
            "standing": match.extension_minutes,
        },
    )


@transaction.atomic
def grant_extension(
    match: Match, minutes: int, reason: str, actor, *, call: int | None = None
) -> TimeExtension:
    """Give the table ``minutes`` more on its clock, for ``reason`` (and the judge call).

    A table whose result is already in may still get time; :func:`warning_for` says so.
    """
    match = _locked(match)
    _check_open(match)
    minutes = check_minutes(minutes, match.round.event.round_minutes)
    reason = _reason(reason, "reason", _("Give the reason for the extension: it is logged."))
    if match.extension_minutes + minutes > MAX_STANDING:
        raise ServiceError(
            _(
                "Table %(table)s already has %(minutes)s minutes of extension: "
                "remove one before granting more."
            )
            % {"table": match.table, "minutes": f"{match.extension_minutes:,}"},
            "minutes",
        )
    extension = TimeExtension.objects.create(
        match=match, minutes=minutes, reason=reason, granted_by=actor, call=call
    )
    _keep_total(match)
    _log(extension, match, actor, "time_extension", reason)
    extension.match = match
    return extension


@transaction.atomic
def remove_extension(extension: TimeExtension, actor, reason: str) -> TimeExtension:
    """Take a granted extension back, keeping it on record with who removed it and why."""
    match = _locked(extension.match)
    extension = TimeExtension.objects.select_for_update().get(pk=extension.pk)
    if not extension.is_standing:
        raise ServiceError(_("This time extension was already removed."))
    _check_open(match)
    missing = _("Give the reason for removing the extension: it is logged.")
    reason = _reason(reason, "reason", missing)
    extension.removed_at = timezone.now()
    extension.removed_by = actor
    extension.removal_reason = reason
    extension.save(update_fields=["removed_at", "removed_by", "removal_reason"])
    _keep_total(match)
    _log(extension, match, actor, "time_extension_removed", reason)
    extension.match = match
    return extension
