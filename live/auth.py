"""Who opened the socket: the session cookie for a browser, `Authorization: Token <key>`
for a tool (the same tokens as the REST API)."""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser


def token_key(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The key of an `Authorization: Token <key>` header, if the upgrade request sent one."""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, key = value.decode("latin-1").strip().partition(" ")
            if scheme.lower() == "token" and key.strip():
                return key.strip()
    return None


@database_sync_to_async
def user_for_token(key: str):
    from accounts.tokens import user_for_key

    return user_for_key(key)


class TokenAuthMiddleware(BaseMiddleware):
    """A token on the upgrade request names the user; a wrong one is anonymous-and-refused."""

    async def __call__(self, scope, receive, send):
        key = token_key(scope.get("headers", []))
        if key is not None:
            user = await user_for_token(key)
            scope["user"] = user if user is not None else AnonymousUser()
            scope["token_refused"] = user is None
        return await super().__call__(scope, receive, send)


def live_auth(inner):
    """Session first (browsers), then a token if one was sent (tools)."""
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
