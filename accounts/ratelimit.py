"""A small rate limiter over Django's cache: so many uses per identity per window.

The cache is Redis in production, shared by every web process, so a count holds across
them; the embedded default's memory cache counts per process, which is enough for one.
A window starts with its first use and lasts ``window`` seconds (Redis keeps the key's
expiry through INCR), so a burst cannot straddle a boundary for twice the limit.
Identities are hashed into the key: no e-mail address or client address is stored.

When the cache is down the limiter lets requests through: refusing every password reset
during a Redis outage would be worse than a few extra e-mails (the outage is logged by
web.cache and reported by /healthz).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """``count`` uses per identity in ``window`` seconds, counted under ``scope``."""

    scope: str
    count: int
    window: int


def _key(limit: Limit, identity: str) -> str:
    digest = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    namespace = getattr(settings, "RATE_LIMIT_NAMESPACE", "ratelimit")
    return f"{namespace}:{limit.scope}:{digest}"


def hit(limit: Limit, identity: str) -> bool:
    """Count one use by ``identity``; True while it is within the limit, False past it."""
    key = _key(limit, identity)
    if cache.add(key, 1, timeout=limit.window):
        return limit.count >= 1
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr, or the cache is down
        if not cache.add(key, 1, timeout=limit.window):
            log.warning("rate limit %s not counted: the cache is unavailable", limit.scope)
            return True
        used = 1
    return used <= limit.count
