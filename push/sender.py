"""Sending one message to one subscription through its push service (pywebpush, VAPID).

Every POST goes through the outbound guard (web.outbound): public addresses only, resolved
and vetted at connect time, no redirects. The push service answers 201 when it took the
message; 404 or 410 mean the browser has let the subscription go, so it is deleted. Anything
else (another status, a redirect, a refused or unreachable address) is a failure: after
``MAX_FAILURES`` in a row the subscription is deleted, and a message taken resets the count.
An endpoint no longer on the allow-list (kept before a rule changed) is deleted unsent.
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
from push.subscriptions import endpoint_error
from web import outbound

logger = logging.getLogger(__name__)

GONE = {404, 410}
TTL_SECONDS = 60 * 60  # a pairing a phone receives more than an hour late is no use
TIMEOUT_SECONDS = 5
MAX_FAILURES = 3  # failed sends in a row before a subscription is dropped


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


def send(
    subscription: PushSubscription,
    message: Message,
    session: outbound.VettedSession | None = None,
) -> bool:
    """Push ``message`` to one browser; whether its push service took it.

    ``session`` (from ``web.outbound.session()``) lets a batch share connections.
    """
    refusal = endpoint_error(subscription.endpoint)
    if refusal:
        logger.warning("push subscription %s refused (%s): deleted", subscription.pk, refusal)
        subscription.delete()
        return False
    guarded = session or outbound.session()
    try:
        webpush(
            subscription.info(),
            data=message.payload(),
            vapid_private_key=_vapid(),
            vapid_claims={"sub": config.subject()},
            content_encoding="aes128gcm",
            ttl=TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
            requests_session=guarded,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE:
            logger.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            subscription.delete()
        else:
            logger.warning("push to subscription %s failed: %s", subscription.pk, exc)
            _failed(subscription)
        return False
    except Exception as exc:  # refused by the guard, or unreachable: requests' own errors
        logger.warning("push to subscription %s failed: %r", subscription.pk, exc)
        _failed(subscription)
        return False
    finally:
        if session is None:
            guarded.close()
    _taken(subscription)
    return True


def _taken(subscription: PushSubscription) -> None:
    PushSubscription.objects.filter(pk=subscription.pk).update(
        ok_count=F("ok_count") + 1, last_ok=timezone.now(), failed_count=0
    )


def _failed(subscription: PushSubscription) -> None:
    """Count one more failure in a row; the last allowed one drops the subscription."""
    rows = PushSubscription.objects.filter(pk=subscription.pk)
    rows.update(failed_count=F("failed_count") + 1)
    dropped, _rows = rows.filter(failed_count__gte=MAX_FAILURES).delete()
    if dropped:
        logger.warning(
            "push subscription %s failed %s times in a row: deleted", subscription.pk, MAX_FAILURES
        )
