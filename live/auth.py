"""Who opened the socket: the session cookie for a browser, `Authorization: Token <key>`
for a tool (the same tokens as the REST API).

A socket keeps what it opened with (:class:`Credential`) so that its rights can be checked
again while it is open (live/access.py): the same token looked up again, the same session
read again and matched against the account's password, as a new request would be.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
from django.contrib.auth.models import AnonymousUser
from django.utils.crypto import constant_time_compare

# The model API keys live in; user_for_token is the one look-up of a key.
TOKEN_MODEL = "accounts.ApiToken"


def token_model():
    return apps.get_model(TOKEN_MODEL)


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


def _session_hash_matches(stored: str, user) -> bool:
    """The session was made under the account's current password (or an old secret key
    the site still accepts), as django.contrib.auth.get_user checks it."""
    if not stored:
        return False
    if constant_time_compare(stored, user.get_session_auth_hash()):
        return True
    return any(
        constant_time_compare(stored, user._get_session_auth_hash(secret=secret))
        for secret in settings.SECRET_KEY_FALLBACKS
    )


@database_sync_to_async
def user_for_session(key: str):
    """The user a stored session still logs in, or None: logged out, expired, made before
    a password change, or the account deactivated or removed. Reads only: the browser's
    next request settles the session itself."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    try:
        user_id, backend_path = session[SESSION_KEY], session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = load_backend(backend_path).get_user(user_id)
    if user is None or not _session_hash_matches(session.get(HASH_SESSION_KEY, ""), user):
        return None
    return user


@dataclass(frozen=True)
class Credential:
    """What the socket opened with: a token key, a session key, or nothing (anonymous)."""

    user_id: int | None = None
    token: str | None = None
    session: str | None = None

    async def user_now(self):
        """The same user as at opening if the credential still names them, else None."""
        if self.token is not None:
            user = await user_for_token(self.token)
        elif self.session is not None:
            user = await user_for_session(self.session)
        else:
            return None
        return user if user is not None and user.pk == self.user_id else None


def credential_of(scope) -> Credential:
    """The socket's credential, read from the scope the middlewares below filled in."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return Credential()
    if scope.get("token_key") is not None:
        return Credential(user_id=user.pk, token=scope["token_key"])
    return Credential(user_id=user.pk, session=scope["session"].session_key)


class TokenAuthMiddleware(BaseMiddleware):
    """A token on the upgrade request names the user; a wrong one is anonymous-and-refused."""

    async def __call__(self, scope, receive, send):
        key = token_key(scope.get("headers", []))
        if key is not None:
            user = await user_for_token(key)
            scope["user"] = user if user is not None else AnonymousUser()
            scope["token_refused"] = user is None
            scope["token_key"] = key
        return await super().__call__(scope, receive, send)


def live_auth(inner):
    """Session first (browsers), then a token if one was sent (tools)."""
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
