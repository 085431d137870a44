"""Browsers send Origin on a WebSocket upgrade; another site's page must not ride our
visitor's session cookie. Tools (a bot, a stream overlay) send no Origin, only a token.

An Origin is the site's own when scheme, host and port all match one of the site's own
origins, as Django's CSRF check decides for the HTTP side:

* the address the upgrade was sent to: its Host header (which must be one of
  ALLOWED_HOSTS) with ``http`` for ``ws://`` and ``https`` for ``wss://``; behind a TLS
  proxy, the scheme the proxy forwards (SECURE_PROXY_SSL_HEADER), believed as the HTTP
  side believes it;
* or one of CSRF_TRUSTED_ORIGINS (``https://*.example.org`` covers its subdomains).

Venue mode (plain HTTP on port 8000 from the hall's addresses) matches the first way: a
phone's page at http://192.168.1.20:8000 opens ws://192.168.1.20:8000.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

logger = logging.getLogger(__name__)

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the default port filled in; None if malformed."""
    try:
        parts = urlsplit(origin.strip())
        scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not host or port is None:
        return None
    return scheme, host, port


def upgrade_scheme(scope) -> str:
    """http or https, as the page that opened the socket was served: a TLS proxy's
    forwarded scheme first (as Django's request.scheme reads it), else ws/wss."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        forwarded = _header(scope, name)
        if forwarded is not None:
            return "https" if forwarded.split(",", 1)[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") == "wss" else "http"


def own_origin(scope) -> str | None:
    """The origin of the address the upgrade was sent to, when its Host is one of ours."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return f"{upgrade_scheme(scope)}://{host}"


def is_own_origin(origin: str, scope) -> bool:
    key = origin_key(origin)
    if key is None:
        return False
    own = own_origin(scope)
    if own is not None and origin_key(own) == key:
        return True
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:  # https://*.example.org: that scheme, any subdomain (as Django)
            parts = urlsplit(trusted)
            netloc = origin.strip().split("://", 1)[-1].lower()
            pattern = parts.netloc.lower().lstrip("*")
            if parts.scheme == key[0] and is_same_domain(netloc, pattern):
                return True
        elif origin_key(trusted) == key:
            return True
    return False


class SiteOriginValidator:
    """Refuses the handshake (HTTP 403) when a sent Origin is not the site's own."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        origin = _header(scope, b"origin") if scope["type"] == "websocket" else None
        if origin is not None and not is_own_origin(origin, scope):
            logger.info("live socket refused: Origin %r is not this site's", origin[:200])
            return await _deny(receive, send)
        return await self.application(scope, receive, send)


async def _deny(receive, send) -> None:
    """Close before accepting: the server answers the handshake with 403. No channel layer
    is needed for that (channels' own denier opens a channel first)."""
    await receive()  # websocket.connect
    await send({"type": "websocket.close"})
