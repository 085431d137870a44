"""Who hears of a judge call or a dispute, and when: the zone's judges first, every judge
after ``JUDGE_CALL_ESCALATE_SECONDS`` unanswered (issue 33).

Only events with zones route (an event without keeps the staff ``queue`` notice alone).
A call or dispute is kept as a :class:`~judging.models.JudgeAlert`. It goes at once to
the judges of the zone holding its table; outside every zone, or in a zone with no
judge, it goes to every judge at once. If it is still unanswered when its time is up it
is escalated to every judge, once: by a Celery task sent with a countdown (a real
worker), by a timer thread when tasks run eagerly (one process: the embedded default,
venue mode), and by beat's sweep (``judging.escalate_due``) should either be lost.
Whichever comes first escalates; the others find it done.

Each alert and escalation is logged in the event's log and announced with
:data:`judges_alerted` once it commits; ``live`` sends each judge named their own notice.
"""

from __future__ import annotations

import datetime
import logging
import threading

from django.conf import settings
from django.db import close_old_connections, transaction
from django.dispatch import Signal
from django.utils import timezone

from judging import roster
from judging.models import JudgeAlert, JudgeCall
from tournaments import signals
from tournaments.models import Event, EventLog, Match

logger = logging.getLogger(__name__)

ZONE, EVERYONE = "zone", "everyone"
# A task that runs a little early (clocks of two machines) still escalates.
EARLY_SLACK = datetime.timedelta(seconds=1)
# The sweep looks this far back: an alert older than this was answered or forgotten.
SWEEP_WINDOW = datetime.timedelta(hours=12)

judges_alerted = Signal()
"""Judges were told of a call or a dispute.

Keyword arguments: ``event_id``, ``alert_id`` (ints); ``kind`` ("call" or "dispute");
``round_number`` and ``table`` (ints or None); ``zone`` (the zone's name or None);
``stage``: :data:`ZONE` (its zone's judges first) or :data:`EVERYONE`; ``user_ids``
(list of ints): the judges told. Sender: ``JudgeAlert``.
"""


def delay_seconds() -> int:
    return max(0, int(getattr(settings, "JUDGE_CALL_ESCALATE_SECONDS", 60)))


def raise_alert(
    event: Event,
    kind: str,
    *,
    table: int | None,
    round_number: int | None,
    call: JudgeCall | None = None,
    match: Match | None = None,
    actor=None,
) -> JudgeAlert | None:
    """Tell the zone's judges of a call or a dispute (everyone, when it has no zone or
    the zone no judge); called inside the change's transaction.

    An event with no zones has no roster in use: every judge hears every call through the
    staff ``queue`` notice, as before, and nothing is routed (None)."""
    if not event.judge_zones.exists():
        return None
    zone = roster.zone_of(event, table)
    first = roster.judges_of_zone(zone) if zone is not None else []
    now = timezone.now()
    alert = JudgeAlert.objects.create(
        event=event,
        kind=kind,
        call=call,
        match=match,
        round_number=round_number,
        table=table,
        zone=zone if first else None,
        first_to=first or roster.everyone(event),
        raised_at=now,
        due_at=now + datetime.timedelta(seconds=delay_seconds()) if first else None,
    )
    stage = ZONE if first else EVERYONE
    _log_and_announce(alert, actor, "judge_alert", stage, alert.first_to)
    if alert.due_at is not None:
        transaction.on_commit(lambda: schedule(alert.pk), robust=True)
    return alert


def _log_and_announce(alert: JudgeAlert, actor, action: str, stage: str, users: list) -> None:
    zone = alert.zone.name if alert.zone_id else None
    data = {"alert": alert.pk, "kind": alert.kind, "table": alert.table, "zone": zone}
    EventLog.objects.create(
        event_id=alert.event_id,
        actor=actor,
        action=action,
        round_number=alert.round_number,
        data={**data, "stage": stage, "to": list(users)},
    )
    signals.send_on_commit(
        judges_alerted,
        JudgeAlert,
        event_id=alert.event_id,
        alert_id=alert.pk,
        kind=alert.kind,
        round_number=alert.round_number,
        table=alert.table,
        zone=zone,
        stage=stage,
        user_ids=list(users),
    )


def schedule(alert_id: int) -> None:
    """Have the alert escalated when its time is up: a worker's countdown, or (tasks run
    eagerly, in this one process) a timer thread."""
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        start_timer(alert_id, delay_seconds())
        return
    from judging.tasks import escalate_alert

    try:
        escalate_alert.apply_async((alert_id,), countdown=delay_seconds())
    except Exception:  # the broker is down: beat's sweep escalates it when it is back
        logger.warning("judge alert %s: escalation not queued; the sweep will", alert_id)


def start_timer(alert_id: int, seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _escalate_in_thread, args=(alert_id,))
    timer.daemon = True
    timer.start()
    return timer


def _escalate_in_thread(alert_id: int) -> None:
    try:
        escalate(alert_id)
    except Exception:
        logger.exception("judge alert %s: escalation failed", alert_id)
    finally:
        close_old_connections()


def answered(alert: JudgeAlert) -> bool:
    """A call resolved, a dispute settled: nobody more needs to hear of it."""
    if alert.call_id is not None:
        return JudgeCall.objects.filter(pk=alert.call_id, resolved_at__isnull=False).exists()
    if alert.match_id is not None:
        return not Match.objects.filter(pk=alert.match_id, status=Match.Status.DISPUTED).exists()
    return False


@transaction.atomic
def escalate(alert_id: int, now: datetime.datetime | None = None) -> bool:
    """Tell every judge of the alert if its time is up and it is unanswered; once only.
    True when it was escalated now."""
    now = now or timezone.now()
    alert = (
        JudgeAlert.objects.select_for_update(of=("self",))
        .select_related("zone")
        .filter(pk=alert_id)
        .first()
    )
    if alert is None or alert.due_at is None or alert.escalated_at is not None:
        return False
    if now + EARLY_SLACK < alert.due_at or answered(alert):
        return False
    alert.escalated_at = now
    alert.save(update_fields=["escalated_at"])
    users = roster.everyone(alert.event)
    _log_and_announce(alert, None, "judge_alert_escalated", EVERYONE, users)
    return True


def escalate_due(now: datetime.datetime | None = None) -> int:
    """Escalate every alert whose time is up (beat's safety net); how many were."""
    now = now or timezone.now()
    due = JudgeAlert.objects.filter(
        escalated_at__isnull=True, due_at__lte=now, due_at__gte=now - SWEEP_WINDOW
    ).values_list("pk", flat=True)
    return sum(escalate(pk, now) for pk in list(due))


def reached(alert: JudgeAlert | None, user_id: int, now: datetime.datetime) -> bool:
    """Whether the judge has been told of the alert by ``now`` (the console shows it)."""
    if alert is None or alert.to_everyone or user_id in alert.first_to:
        return True
    return alert.due_at is not None and alert.due_at <= now


# --- disputes: heard from tournaments' signal ------------------------------------------


def dispute_changed(sender, *, match_id: int, status_before: str, **kwargs) -> None:
    """A match newly disputed: its zone's judges hear of it first (connected in ready)."""
    match = Match.objects.select_related("round__event").filter(pk=match_id).first()
    if match is None or match.status != Match.Status.DISPUTED:
        return
    if status_before == Match.Status.DISPUTED:
        return
    with transaction.atomic():
        raise_alert(
            match.round.event,
            JudgeAlert.Kind.DISPUTE,
            table=match.table,
            round_number=match.round.number,
            match=match,
        )


# --- the console: what a judge's own view holds -----------------------------------------


def queue_for(queue, event: Event, user_id: int, scope: roster.Scope):
    """The console's queue as the judge's own view holds it: the items at their zone's
    tables and those with no table, plus every call or dispute that has reached them
    (sent to them, to everyone, or escalated by now). The head judge's view holds all."""
    from judging.queue import CALL, DISPUTE, Queue

    if scope.everything or scope.zone is None:
        return queue
    alerts = {}
    for alert in event.judge_alerts.filter(raised_at__gte=queue.now - SWEEP_WINDOW).order_by(
        "raised_at", "pk"
    ):
        if alert.call_id is not None:
            alerts[(CALL, alert.call_id)] = alert
        elif alert.match_id is not None:
            alerts[(DISPUTE, alert.match_id)] = alert

    def shown(item) -> bool:
        if item.table is None or scope.holds(item.table):
            return True
        key = (item.kind, item.call_id if item.kind == CALL else item.match_id)
        if item.kind in (CALL, DISPUTE):
            return reached(alerts.get(key), user_id, queue.now)
        return False

    return Queue(
        queue.now,
        [i for i in queue.waiting if shown(i)],
        [i for i in queue.penalties if shown(i)],
    )
