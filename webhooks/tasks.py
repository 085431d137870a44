"""Celery finds an app's tasks in its ``tasks`` module: sending webhook deliveries.

A delivery is tried up to ``delivery.max_attempts()`` times, the retries spaced by
``delivery.retry_delay`` (30 s, 2 min, 8 min, 32 min, about 2 h by default: exponential
back-off). A retry is a new message with a countdown, queued by the failed attempt (as
``Task.retry`` does, without its exception, which eager mode would raise to the caller);
under eager Celery (the embedded default and the tests) it runs at once.
"""

from __future__ import annotations

from celery import shared_task

from webhooks import delivery
from webhooks.models import Delivery


@shared_task(ignore_result=True)
def deliver(delivery_id: int) -> bool:
    """One attempt; on failure a retry later, or, attempts spent, the failure counted."""
    row = Delivery.objects.filter(pk=delivery_id).select_related("subscription").first()
    if row is None or row.outcome != Delivery.Outcome.PENDING:
        return False  # deleted with its subscription, or settled (by a replay) meanwhile
    if not row.subscription.active:
        Delivery.objects.filter(pk=delivery_id).update(outcome=Delivery.Outcome.FAILED)
        return False
    if delivery.attempt(delivery_id):
        return True
    tried = row.attempts + 1
    if tried < delivery.max_attempts():
        deliver.apply_async((delivery_id,), countdown=delivery.retry_delay(tried))
        return False
    delivery.gave_up(delivery_id)
    return False


@shared_task(ignore_result=True)
def replay(delivery_id: int) -> bool:
    """Send a logged delivery again, once, as it was (same ``webhook-id``, fresh signature)."""
    if not Delivery.objects.filter(pk=delivery_id).exists():
        return False
    return delivery.attempt(delivery_id, replay=True)
