"""What a tournament change tells the people following the event (live-updates.md).

Each function below hears one of ``tournaments.signals`` once the change has committed
(``connect`` wires them in ``LiveConfig.ready``) and sends every notice the contract
lists for it: the public one, the staff queue's, and each affected player's own
``my_match``. Tournaments never imports this module: a change is announced whether or
not live notices are installed, and a listener that fails is logged by the signal's
sender and never undoes the change.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from live import notify
from tournaments import signals
from tournaments.models import Event, Match, Round

# The contract's round statuses, by the round's own.
ROUND_STATUS = {
    Round.Status.PAIRED: "paired",
    Round.Status.RUNNING: "started",
    Round.Status.CLOSED: "closed",
}
TOP_CUT = "top_cut"  # the event's status while its top cut is played (the model says running)
QUEUE_DISPUTE, QUEUE_CALL, QUEUE_TIME = "dispute", "call", "time"


def _iso(moment: datetime.datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _my_match(event_id: int, round_number: int, matches: Iterable[Match]):
    """Each seated player's own ``my_match`` notice for the given matches (a bye too)."""
    for match in matches:
        for player_id in (match.player_a_id, match.player_b_id):
            if player_id is not None:
                group = notify.player_group(event_id, player_id)
                body = notify.notice(event_id, "my_match", round=round_number, table=match.table)
                yield group, body


def _round_notice(round_: Round):
    body = notify.notice(
        round_.event_id,
        "round",
        round=round_.number,
        status=ROUND_STATUS[round_.status],
        ends_at=_iso(round_.ends_at),
    )
    return notify.public_group(round_.event_id), body


def pairings_changed(sender, *, round_id: int, how: str, match_ids, **kwargs) -> None:
    """The round's pairings are published, re-paired or swapped.

    Everyone learns the round has pairings; each player at ``match_ids`` learns their
    own seat. The top cut's first round says the event is in its top cut; a new round's
    status follows with ``round_status_changed``.
    """
    round_ = Round.objects.get(pk=round_id)
    event_id = round_.event_id
    seated = round_.matches.filter(pk__in=match_ids).order_by("table")
    messages = [
        (notify.public_group(event_id), notify.notice(event_id, "pairings", round=round_.number)),
        *_my_match(event_id, round_.number, seated),
    ]
    if how == signals.CUT:
        messages.append(
            (notify.public_group(event_id), notify.notice(event_id, "event", status=TOP_CUT))
        )
    notify.send_many(messages)


def round_status_changed(sender, *, round_id: int, **kwargs) -> None:
    """The round was paired, started or closed: its status and when time is up; the
    standings when it closed."""
    round_ = Round.objects.get(pk=round_id)
    messages = [_round_notice(round_)]
    if round_.status == Round.Status.CLOSED:
        messages.append(
            (
                notify.public_group(round_.event_id),
                notify.notice(round_.event_id, "standings", round=round_.number),
            )
        )
    notify.send_many(messages)


def event_status_changed(sender, *, event_id: int, status: str, **kwargs) -> None:
    """The event's status changed (registration, running, finished).

    A draft is nobody's live event: nothing is said of it.
    """
    if status == Event.Status.DRAFT:
        return
    notify.send(event_id, "event", status=str(status))


def result_changed(sender, *, match_id: int, status_before: str, **kwargs) -> None:
    """A match's result changed.

    The public hears the table's new status, both players their own match; the judges'
    queue changes when the match goes to or leaves the judges (a dispute), and the
    standings when the round was already closed (a correction).
    """
    match = Match.objects.select_related("round").get(pk=match_id)
    round_ = match.round
    event_id = round_.event_id
    messages = [
        (
            notify.public_group(event_id),
            notify.notice(
                event_id, "result", round=round_.number, table=match.table, status=match.status
            ),
        ),
        *_my_match(event_id, round_.number, [match]),
    ]
    if status_before != match.status and Match.Status.DISPUTED in (status_before, match.status):
        messages.append(_queue(event_id, QUEUE_DISPUTE, round_.number, match.table))
    if round_.status == Round.Status.CLOSED:
        messages.append(
            (
                notify.public_group(event_id),
                notify.notice(event_id, "standings", round=round_.number),
            )
        )
    notify.send_many(messages)


def penalty_changed(sender, *, penalty_id: int, **kwargs) -> None:
    """A penalty was issued or voided at a table: both players' My match learns of it (the
    notice of the penalty, or of the result it changed, shows there)."""
    from judging.models import Penalty  # judging's model: live hears that app too

    penalty = Penalty.objects.select_related("match__round").filter(pk=penalty_id).first()
    if penalty is None or penalty.match is None:
        return
    match = penalty.match
    notify.send_many(list(_my_match(penalty.event_id, match.round.number, [match])))


def _queue(event_id: int, kind: str, round_number: int | None, table: int | None):
    body = notify.notice(event_id, "queue", kind=kind, round=round_number, table=table)
    return notify.staff_group(event_id), body


def announce_queue(event_id: int, kind: str, round_number: int | None, table: int | None) -> None:
    """The judges' queue changed: a dispute, a judge call made or answered, time up."""
    notify.send_many([_queue(event_id, kind, round_number, table)])


def call_changed(sender, *, event_id: int, round_number, table, **kwargs) -> None:
    """A judge call was made or answered."""
    announce_queue(event_id, QUEUE_CALL, round_number, table)


def time_ran_out(sender, *, event_id: int, round_number: int, table: int, **kwargs) -> None:
    """A table's time is up: the judges' queue hears it."""
    announce_queue(event_id, QUEUE_TIME, round_number, table)


def extension_changed(sender, *, match_id: int, minutes: int, **kwargs) -> None:
    """A table's time extension was granted, changed or removed: its standing total."""
    match = Match.objects.select_related("round").get(pk=match_id)
    notify.send(
        match.round.event_id,
        "extension",
        round=match.round.number,
        table=match.table,
        minutes=minutes,
    )


def judges_alerted(
    sender,
    *,
    event_id: int,
    alert_id: int,
    kind: str,
    round_number,
    table,
    zone,
    stage: str,
    user_ids,
    **kwargs,
) -> None:
    """A judge call or dispute was routed (judging.routing): each judge named hears it on
    their own socket, the zone's judges first, everyone once it escalates."""
    body = notify.notice(
        event_id,
        "judge_call",
        kind=kind,
        round=round_number,
        table=table,
        zone=zone,
        stage=stage,
        alert=alert_id,
    )
    notify.send_many([(notify.judge_group(event_id, user_id), body) for user_id in user_ids])


def roster_changed(sender, *, event_id: int, **kwargs) -> None:
    """The judge roster changed (roles, teams, zones, deck-check tables): staff refetch."""
    notify.send(event_id, "roster", audience=notify.STAFF)


LISTENERS = {
    signals.round_paired: pairings_changed,
    signals.round_status_changed: round_status_changed,
    signals.event_status_changed: event_status_changed,
    signals.result_changed: result_changed,
    signals.call_changed: call_changed,
    signals.time_ran_out: time_ran_out,
    signals.extension_changed: extension_changed,
    signals.penalty_changed: penalty_changed,
}


def connect() -> None:
    """Hear each change the contract has a notice for (called once, from ``ready``)."""
    from judging import roster, routing  # judging's signals: live hears that app too

    listeners = {**LISTENERS, routing.judges_alerted: judges_alerted}
    listeners[roster.roster_changed] = roster_changed
    for signal, listener in listeners.items():
        signal.connect(listener, dispatch_uid=f"live.listeners.{listener.__name__}")
