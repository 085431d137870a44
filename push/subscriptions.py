"""Keeping a user's push subscriptions: what a browser's ``PushSubscription.toJSON()`` gives.

Every field is checked before anything is written; a refusal names the field. The endpoint
is where the server will later POST, so it must pass the outbound guard (web.outbound: https,
no numeric or private hosts) and its host must be a push service of
``WEBPUSH_ALLOWED_HOSTS``. An endpoint is one browser of one account: it is never moved to
another account.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from push.models import PushSubscription
from web import outbound
from web.errors import FieldError, ServiceError

MAX_ENDPOINT = 2000
MAX_PER_USER = 10  # browsers one account keeps subscribed; the oldest goes first
P256DH_BYTES = 65  # an uncompressed P-256 point: 0x04, x, y
AUTH_BYTES = 16


def _b64url(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def endpoint_error(endpoint: Any) -> str | None:
    """Why the server will not POST to ``endpoint``; None when it is a listed push service.

    Checked at subscribe and again before each send (rows kept before a rule changed).
    """
    if not isinstance(endpoint, str) or not endpoint.strip():
        return _("The endpoint is missing: send the subscription's toJSON().")
    if len(endpoint) > MAX_ENDPOINT:
        return _("The endpoint is longer than %(limit)s characters.") % {"limit": MAX_ENDPOINT}
    try:
        target = outbound.checked_url(endpoint)
    except outbound.OutboundRefused as refusal:
        return str(refusal)
    if not outbound.host_matches(target.host, settings.WEBPUSH_ALLOWED_HOSTS):
        return _(
            "The endpoint is not at a push service this site sends to (%(hosts)s): "
            "use a browser with its own push service."
        ) % {"hosts": ", ".join(settings.WEBPUSH_ALLOWED_HOSTS)}
    return None


def _key_error(keys: dict, name: str, size: int) -> str | None:
    value = keys.get(name)
    if not isinstance(value, str) or not value:
        return _("The key %(key)s is missing: send the subscription's toJSON().") % {"key": name}
    decoded = _b64url(value) if len(value) < 200 else None
    if decoded is None or len(decoded) != size:
        return _("The key %(key)s is not %(size)s bytes in base64url.") % {
            "key": name,
            "size": size,
        }
    if name == "p256dh" and decoded[0] != 4:
        return _("The key p256dh is not an uncompressed P-256 public key.")
    return None


def checked(data: Any) -> dict[str, str]:
    """The endpoint and keys of a subscription, or a ServiceError naming each bad field."""
    if not isinstance(data, dict):
        raise ServiceError(_("Send the subscription as a JSON object (its toJSON())."))
    problems: list[FieldError] = []
    keys = data.get("keys")
    checks = [("endpoint", endpoint_error(data.get("endpoint")))]
    if isinstance(keys, dict):
        checks.append(("keys.p256dh", _key_error(keys, "p256dh", P256DH_BYTES)))
        checks.append(("keys.auth", _key_error(keys, "auth", AUTH_BYTES)))
    else:
        checks.append(("keys", _("The keys (p256dh, auth) are missing: send its toJSON().")))
    for field, message in checks:
        if message:
            problems.append(FieldError(field=field, message=message))
    if problems:
        raise ServiceError.of(problems)
    return {"endpoint": data["endpoint"], "p256dh": keys["p256dh"], "auth": keys["auth"]}


@transaction.atomic
def subscribe(user, data: Any) -> PushSubscription:
    """Keep this browser's subscription for ``user``, or renew its keys.

    An endpoint held by another account stays that account's: whoever sends it cannot
    take its messages, and its owner can still turn it off.
    """
    fields = checked(data)
    subscription, created = PushSubscription.objects.select_for_update().get_or_create(
        endpoint=fields["endpoint"],
        defaults={"user": user, "p256dh": fields["p256dh"], "auth": fields["auth"]},
    )
    if subscription.user_id != user.pk:
        raise ServiceError(
            _(
                "This browser's notices belong to another account: log that account out "
                "on this browser (it turns them off), then turn them on again here."
            ),
            "endpoint",
        )
    if not created:
        subscription.p256dh, subscription.auth = fields["p256dh"], fields["auth"]
        subscription.save(update_fields=["p256dh", "auth"])
    extra = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")[MAX_PER_USER:]
    PushSubscription.objects.filter(pk__in=[s.pk for s in extra]).delete()
    return subscription


def unsubscribe(user, data: Any) -> int:
    """Forget this browser's subscription of ``user``; how many rows went (0 or 1)."""
    if not isinstance(data, dict):
        raise ServiceError(_("Send the subscription as a JSON object (its toJSON())."))
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise ServiceError(
            _("The endpoint is missing: send the subscription's toJSON()."), "endpoint"
        )
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted
