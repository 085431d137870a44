"""Whether Web Push is on, and the VAPID settings it signs with (all three, or it is off)."""

from __future__ import annotations

from django.conf import settings


def enabled() -> bool:
    """Push is offered and sent only with a public key, a private key and a subject."""
    return bool(public_key() and private_key() and subject())


def public_key() -> str:
    """The application server key a browser subscribes with (base64url, uncompressed)."""
    return settings.WEBPUSH_VAPID_PUBLIC_KEY


def subject() -> str:
    return settings.WEBPUSH_VAPID_SUBJECT


def private_key() -> str:
    """The VAPID private key (base64url raw or DER), never shown anywhere."""
    return settings.WEBPUSH_VAPID_PRIVATE_KEY
