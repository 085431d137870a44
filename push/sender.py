"""Sending one message to one subscription through its push service (pywebpush, VAPID).

The push service answers 201 when it took the message; 404 or 410 mean the browser has
let the subscription go, so it is deleted; anything else is counted as a failure and the
subscription kept for the next message.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from django.db.models import F
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from push import config
from push.models import PushSubscription

logger = logging.getLogger(__name__)

GONE = {404, 410}
TTL_SECONDS = 60 * 60  # a pairing a phone receives more than an hour late is no use
TIMEOUT_SECONDS = 5


@dataclass(frozen=True)
class Message:
    """What the phone shows: a title, the text, the page a tap opens, and a tag that
    replaces the previous message of the same kind instead of stacking them."""

    title: str
    body: str
    url: str
    tag: str

    def payload(self) -> str:
        return json.dumps(
            {"title": self.title, "body": self.body, "url": self.url, "tag": self.tag}
        )


def _vapid() -> Vapid:
    return Vapid.from_string(private_key=config.private_key())


def send(subscription: PushSubscription, message: Message) -> bool:
    """Push ``message`` to one browser; whether its push service took it."""
    try:
        webpush(
            subscription.info(),
            data=message.payload(),
            vapid_private_key=_vapid(),
            vapid_claims={"sub": config.subject()},
            content_encoding="aes128gcm",
            ttl=TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE:
            logger.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            subscription.delete()
        else:
            logger.warning("push to subscription %s failed: %s", subscription.pk, exc)
            _count(subscription, failed=True)
        return False
    except Exception as exc:  # the push service unreachable: requests' own errors
        logger.warning("push to subscription %s failed: %r", subscription.pk, exc)
        _count(subscription, failed=True)
        return False
    _count(subscription, failed=False)
    return True


def _count(subscription: PushSubscription, *, failed: bool) -> None:
    rows = PushSubscription.objects.filter(pk=subscription.pk)
    if failed:
        rows.update(failed_count=F("failed_count") + 1)
    else:
        rows.update(ok_count=F("ok_count") + 1, last_ok=timezone.now())
