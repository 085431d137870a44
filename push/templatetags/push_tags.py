"""The page's side of Web Push: the key a browser subscribes with, when push is on."""

from __future__ import annotations

from django import template

from push import config

register = template.Library()


@register.simple_tag
def push_public_key() -> str:
    """The VAPID public key, or "" when push is off (the page then offers no push)."""
    return config.public_key() if config.enabled() else ""
