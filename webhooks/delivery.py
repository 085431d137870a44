"""Sending one delivery once, through the outbound guard, and what its outcome changes.

Each attempt POSTs through ``web.outbound`` (public addresses only, resolved and vetted at
connect time, no redirects: a 3xx is a failure); a 2xx answer is delivered. Every attempt
is logged (``Attempt``) with its status and the start of the answer. When the last attempt
of a delivery fails, the subscription counts one failure more; ``disable_after()`` failed
deliveries in a row switch it off and its owner is told by e-mail. A delivery taken resets
the count.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.language import NO_CHOICE, saved_language
from web import outbound
from webhooks import discord, signing
from webhooks.models import Attempt, Delivery, Subscription

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10
USER_AGENT = "Arbiter-Webhooks/1"


def max_attempts() -> int:
    """Attempts per delivery (the first and its retries)."""
    return getattr(settings, "WEBHOOK_MAX_ATTEMPTS", 6)


def disable_after() -> int:
    """Failed deliveries in a row that switch a subscription off."""
    return getattr(settings, "WEBHOOK_DISABLE_AFTER", 5)


def retry_delay(attempt: int) -> int:
    """Seconds before the retry that follows attempt number ``attempt`` (1-based): the base
    (``WEBHOOK_RETRY_BASE_SECONDS``, 30 s) times 4 each time, at most six hours."""
    base = getattr(settings, "WEBHOOK_RETRY_BASE_SECONDS", 30)
    return min(base * 4 ** (attempt - 1), 6 * 60 * 60)


def encoded(payload: dict) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _excerpt(text: str) -> str:
    """The start of a text as the log keeps it (no NUL: PostgreSQL stores none)."""
    return text.replace("\x00", "")[: Delivery.EXCERPT]


def _answer_start(response) -> str:
    """The first characters of an answer, never reading more than a few kilobytes of it
    (a receiver's answer may be of any size)."""
    try:
        start = response.raw.read(Delivery.EXCERPT * 4, decode_content=True) or b""
    finally:
        response.close()
    return _excerpt(start.decode(response.encoding or "utf-8", errors="replace"))


def _post(subscription: Subscription, delivery: Delivery) -> tuple[int | None, str, str]:
    """One POST (or, to Discord, one per message): (status, answer's start, error)."""
    base = {"User-Agent": USER_AGENT, "Content-Type": "application/json"}
    if discord.is_discord(subscription.url):
        with translation.override(_language(subscription.owner)):
            bodies = [encoded(discord.body(text)) for text in discord.messages(delivery.payload)]
        sign = False
    else:
        bodies, sign = [encoded(delivery.payload)], True
    status, answer = None, ""
    with outbound.session() as guarded:
        for body in bodies:
            headers = dict(base)
            if sign:
                signed = signing.headers(
                    subscription.secret, delivery.message_id, timezone.now(), body
                )
                headers.update(signed)
            response = guarded.post(
                subscription.url,
                data=body,
                headers=headers,
                timeout=TIMEOUT_SECONDS,
                stream=True,
            )
            status, answer = response.status_code, _answer_start(response)
            if not 200 <= status < 300:
                break
    return status, answer, ""


def attempt(delivery_id: int, *, replay: bool = False) -> bool:
    """Try the delivery once and log the try; whether the receiver took it (a 2xx)."""
    delivery = Delivery.objects.select_related("subscription__owner").get(pk=delivery_id)
    subscription = delivery.subscription
    try:
        status, answer, error = _post(subscription, delivery)
    except outbound.OutboundRefused as refusal:
        status, answer, error = None, "", str(refusal)
    except Exception as exc:  # unreachable, timed out, TLS: requests' own errors
        status, answer, error = None, "", _excerpt(f"{type(exc).__name__}: {exc}")
    ok = status is not None and 200 <= status < 300
    if not ok and not error:
        error = _("The receiver answered %(status)s.") % {"status": status}
    now = timezone.now()
    with transaction.atomic():
        number = delivery.attempts + 1
        Attempt.objects.create(
            delivery=delivery,
            number=number,
            status_code=status,
            response_excerpt=answer,
            error=error[:500],
            replay=replay,
        )
        fields = {
            "attempts": F("attempts") + 1,
            "status_code": status,
            "response_excerpt": answer,
            "error": error[:500],
            "last_attempt_at": now,
        }
        if ok:
            fields.update(outcome=Delivery.Outcome.DELIVERED, delivered_at=now)
        Delivery.objects.filter(pk=delivery.pk).update(**fields)
        if ok:
            Subscription.objects.filter(pk=subscription.pk).update(failures=0)
    logger.info("webhook delivery %s attempt %s: %s %s", delivery.pk, number, status, error)
    return ok


def gave_up(delivery_id: int) -> None:
    """The delivery's last attempt failed: count it, and switch the subscription off when
    that makes ``disable_after()`` in a row."""
    with transaction.atomic():
        delivery = Delivery.objects.select_related("subscription").get(pk=delivery_id)
        Delivery.objects.filter(pk=delivery_id).update(outcome=Delivery.Outcome.FAILED)
        subscription = Subscription.objects.select_for_update().get(pk=delivery.subscription_id)
        subscription.failures += 1
        subscription.save(update_fields=["failures"])
        if not subscription.active or subscription.failures < disable_after():
            return
        subscription.active = False
        subscription.disabled_at = timezone.now()
        subscription.disabled_reason = _(
            "%(count)s deliveries in a row failed; the last: %(error)s"
        ) % {"count": subscription.failures, "error": delivery.error or delivery.status_code}
        subscription.save(update_fields=["active", "disabled_at", "disabled_reason"])
    logger.warning("webhook %s turned off after %s failures", subscription.pk, disable_after())
    tell_owner(subscription)


def _language(user) -> str:
    code = saved_language(user)
    return settings.LANGUAGE_CODE if code == NO_CHOICE else code


def manage_link(subscription: Subscription) -> str:
    if subscription.event_id is not None:
        return settings.SITE_URL + reverse("webhooks:event", args=[subscription.event_id])
    return settings.SITE_URL + reverse("series:manage", args=[subscription.series_id])


def tell_owner(subscription: Subscription) -> None:
    """E-mail the owner that their webhook was switched off, why, and where to turn it on."""
    owner = subscription.owner
    if not owner.email:
        return
    context = {"subscription": subscription, "link": manage_link(subscription)}
    with translation.override(_language(owner)):
        send_mail(
            _("Your webhook to %(url)s was turned off") % {"url": subscription.url[:80]},
            render_to_string("webhooks/disabled_email.txt", context),
            None,
            [owner.email],
        )
