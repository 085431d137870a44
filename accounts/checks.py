"""Start-up checks for account settings that an upgrade may have left behind."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security)
def retired_proxy_count(app_configs=None, **kwargs) -> list[Warning]:
    """TRUSTED_PROXY_COUNT was replaced by TRUSTED_PROXIES; a site still setting it may have
    proxies that are no longer believed, and then every client shares the proxy's address
    (and its log-in lock-outs)."""
    raw = os.environ.get("TRUSTED_PROXY_COUNT", "").strip()
    if raw in ("", "0"):
        return []
    return [
        Warning(
            f"TRUSTED_PROXY_COUNT={raw} is no longer read; X-Forwarded-For is believed only"
            f" from TRUSTED_PROXIES, now {','.join(settings.TRUSTED_PROXIES) or 'empty'}.",
            hint="Remove TRUSTED_PROXY_COUNT; if your proxies are not on this machine, set"
            " TRUSTED_PROXIES to their addresses (deploy/README.md, Reverse proxy).",
            id="accounts.W001",
        )
    ]
