"""What a tournament change tells the people following the event (live-updates.md).

The services that make a change call one function here inside their transaction; the
notices leave once it commits (``live.notify``), never for a rolled-back change. Each
function names one kind of change and sends every notice the contract lists for it:
the public one, the staff queue's, and each affected player's own ``my_match``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.core.cache import cache
from django.utils import timezone

from live import notify
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


def announce_pairings(round_: Round, matches: Iterable[Match] | None = None) -> None:
    """The round's pairings are published, re-paired or swapped.

    Everyone learns the round has pairings; each player at ``matches`` (every table of
    the round by default) learns their own seat. Web Push, where it is set up, follows.
    """
    event_id = round_.event_id
    seated = list(round_.matches.all()) if matches is None else list(matches)
    public = (
        notify.public_group(event_id),
        notify.notice(event_id, "pairings", round=round_.number),
    )
    notify.send_many([public, *_my_match(event_id, round_.number, seated)])
    _push_pairings(round_)


def _push_pairings(round_: Round) -> None:
    """Hand the pairing to Web Push (``push.announce``), where that part is installed."""
    try:
        from push.announce import push_pairings
    except ImportError:
        return
    push_pairings(round_)


def announce_round(round_: Round) -> None:
    """The round changed status or its clock was set: status and when time is up."""
    notify.send(
        round_.event_id,
        "round",
        round=round_.number,
        status=ROUND_STATUS[round_.status],
        ends_at=_iso(round_.ends_at),
    )


def announce_event(event: Event, status: str | None = None) -> None:
    """The event's status changed (registration, running, top cut, finished).

    A draft is nobody's live event: nothing is said of it.
    """
    status = status or event.status
    if status == Event.Status.DRAFT:
        return
    notify.send(event.pk, "event", status=str(status))


def announce_standings(round_: Round) -> None:
    """Standings changed as of ``round_``: it closed, or a result in it was corrected."""
    notify.send(round_.event_id, "standings", round=round_.number)


def announce_result(match: Match, before: dict) -> None:
    """A match's result changed (``before`` as ``results.result_fields`` kept it).

    The public hears the table's new status, both players their own match; the judges'
    queue changes when the match goes to or leaves the judges (a dispute), and the
    standings when the round was already closed (a correction).
    """
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
    was, now = before.get("status"), match.status
    if was != now and Match.Status.DISPUTED in (was, now):
        messages.append(_queue(event_id, QUEUE_DISPUTE, round_.number, match.table))
    if round_.status == Round.Status.CLOSED:
        messages.append(
            (
                notify.public_group(event_id),
                notify.notice(event_id, "standings", round=round_.number),
            )
        )
    notify.send_many(messages)


def _queue(event_id: int, kind: str, round_number: int | None, table: int | None):
    body = notify.notice(event_id, "queue", kind=kind, round=round_number, table=table)
    return notify.staff_group(event_id), body


def announce_queue(event_id: int, kind: str, round_number: int | None, table: int | None) -> None:
    """The judges' queue changed: a dispute, a judge call made or answered, time up."""
    notify.send_many([_queue(event_id, kind, round_number, table)])


def announce_extension(match: Match) -> None:
    """A table's time extension was granted, changed or removed: its standing total."""
    notify.send(
        match.round.event_id,
        "extension",
        round=match.round.number,
        table=match.table,
        minutes=match.extension_minutes,
    )


TIME_UP_KEPT = 24 * 60 * 60  # how long the cache remembers a table's time was told


def announce_time_up(now: datetime.datetime | None = None) -> int:
    """Tell the judges of each table still playing whose time (with its extension) is up.

    Once per table and end of time: a later extension gives the table a new end, told
    again when it comes. Celery beat runs this every few seconds; it returns how many
    tables it told of.
    """
    now = now or timezone.now()
    running = Round.objects.filter(
        status=Round.Status.RUNNING, started_at__isnull=False, event__status=Event.Status.RUNNING
    ).select_related("event")
    told = 0
    for round_ in running:
        if round_.ends_at > now:
            continue
        pending = round_.matches.filter(is_bye=False, status=Match.Status.PENDING)
        for match in pending.only("pk", "table", "extension_minutes"):
            time_up = round_.ends_at + datetime.timedelta(minutes=match.extension_minutes)
            if time_up > now:
                continue
            if cache.add(f"live:time-up:{match.pk}:{time_up.isoformat()}", 1, TIME_UP_KEPT):
                announce_queue(round_.event_id, QUEUE_TIME, round_.number, match.table)
                told += 1
    return told
