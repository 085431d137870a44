"""Webhooks hear the domain's announcements (``tournaments.signals``), each once after it
committed, and queue a delivery for each subscription of the event or its series.

The body is built here, once per announcement and only when someone subscribed, so every
subscription gets the same body and a retry sends what the change was.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction
from django.db.models import Q

from tournaments import signals
from tournaments.models import Round
from webhooks import announcements as kinds
from webhooks import signing
from webhooks.models import Delivery, Subscription

logger = logging.getLogger(__name__)


def subscribed(event_id: int, kind: str) -> list[Subscription]:
    """The active subscriptions that hear ``kind`` from this event, directly or through a
    series it is in."""
    rows = Subscription.objects.filter(
        Q(event_id=event_id) | Q(series__entries__event_id=event_id), active=True
    ).distinct()
    return [s for s in rows if s.hears(kind)]


def queue(subscriptions: list[Subscription], payload: dict) -> list[Delivery]:
    """A delivery per subscription, each sent by Celery once this transaction commits."""
    from webhooks.tasks import deliver

    with transaction.atomic():
        made = [
            Delivery.objects.create(
                subscription=s,
                message_id=signing.new_message_id(),
                kind=payload["type"],
                payload=payload,
            )
            for s in subscriptions
        ]
        for row in made:
            # robust: a broker that is down costs the delivery (logged), never the change.
            transaction.on_commit(lambda pk=row.pk: deliver.delay(pk), robust=True)
    return made


def announce(event_id: int, kind: str, build: Callable[[], dict]) -> None:
    """Build the body and queue it, when a subscription hears ``kind``."""
    listening = subscribed(event_id, kind)
    if listening:
        queue(listening, build())


def round_paired(sender, *, event_id: int, round_id: int, how: str, **kwargs) -> None:
    announce(event_id, kinds.ROUND_PAIRED, lambda: kinds.round_paired(round_id, how))


STATUS_KINDS = {Round.Status.RUNNING: kinds.ROUND_STARTED, Round.Status.CLOSED: kinds.ROUND_CLOSED}


def round_status_changed(sender, *, event_id: int, round_id: int, status: str, **kwargs) -> None:
    """Started and closed; a new round's "paired" is ``round.paired``'s to tell."""
    kind = STATUS_KINDS.get(status)
    if kind is not None:
        announce(event_id, kind, lambda: kinds.round_status(round_id, kind))


def result_changed(sender, *, event_id: int, match_id: int, status_before: str, **kwargs) -> None:
    announce(event_id, kinds.RESULT_CHANGED, lambda: kinds.result_changed(match_id, status_before))


def entry_changed(sender, *, event_id: int, registration_id: int, what: str, **kwargs) -> None:
    announce(event_id, kinds.ENTRY_CHANGED, lambda: kinds.entry_changed(registration_id, what))


def event_status_changed(sender, *, event_id: int, status: str, previous: str, **kwargs) -> None:
    finished = status == "finished"
    kind = kinds.EVENT_FINISHED if finished else kinds.EVENT_STATUS_CHANGED
    announce(event_id, kind, lambda: kinds.event_status_changed(event_id, status, previous))


def connect() -> None:
    """Called once from ``WebhooksConfig.ready``."""
    hears = [
        (signals.round_paired, round_paired),
        (signals.round_status_changed, round_status_changed),
        (signals.result_changed, result_changed),
        (signals.entry_changed, entry_changed),
        (signals.event_status_changed, event_status_changed),
    ]
    for signal, listener in hears:
        signal.connect(listener, dispatch_uid=f"webhooks.listeners.{listener.__name__}")
