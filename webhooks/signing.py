"""Standard Webhooks signatures (https://www.standardwebhooks.com/), by its reference
library: ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature`` over the body."""

from __future__ import annotations

import base64
import secrets
from datetime import datetime

from standardwebhooks.webhooks import Webhook

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32  # the specification asks for 24 to 64 random bytes


def new_secret() -> str:
    """A fresh signing secret, as the specification writes one: ``whsec_`` and base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def new_message_id() -> str:
    """A delivery's ``webhook-id``: the same on every attempt, so a receiver can skip one
    it already took."""
    return "msg_" + secrets.token_urlsafe(18)


def headers(secret: str, message_id: str, sent_at: datetime, body: bytes) -> dict[str, str]:
    """The three headers that let a receiver check ``body`` came from this site, unchanged,
    just now (the timestamp is fresh on each attempt, and signed with the body)."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(sent_at.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, sent_at, body),
    }
