"""Browsers send Origin on a WebSocket upgrade; another site's page must not ride our
visitor's session cookie. Tools (a bot, a stream overlay) send no Origin, only a token."""

from __future__ import annotations

from channels.security.websocket import OriginValidator
from django.conf import settings


class SiteOriginValidator(OriginValidator):
    """The Origin, when sent, must be one of ALLOWED_HOSTS; no Origin at all is a tool."""

    def __init__(self, application):
        super().__init__(application, settings.ALLOWED_HOSTS)

    def valid_origin(self, parsed_origin) -> bool:
        if parsed_origin is None:
            return True
        return super().valid_origin(parsed_origin)
