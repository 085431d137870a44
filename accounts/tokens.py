"""API tokens for tools: one key per user, kept only as its SHA-256 digest.

A key is 160 random bits, shown once when it is made (the page, ``manage.py api_token``);
the database keeps its digest and its first characters (to tell keys apart), so no copy
of the database (a backup, a dump) holds a key that works. A plain SHA-256 is enough for
a random key of that size and cheap enough for every API request to look it up; a
password hasher would cost each request tens of milliseconds for nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from accounts.models import ApiToken

KEY_BYTES = 20  # 40 hex digits: the length tools have always been given


class IssuedToken(NamedTuple):
    """A new key and its row: the only moment the key itself exists."""

    key: str
    token: ApiToken


class TokenExists(Exception):
    """The user already has a key; it cannot be shown again, only replaced."""


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def new_key() -> str:
    return secrets.token_hex(KEY_BYTES)


def current_token(user: AbstractBaseUser) -> ApiToken | None:
    return ApiToken.objects.filter(user=user).first()


def token_for_key(key: str) -> ApiToken | None:
    """The row a presented key belongs to (its user loaded), active user or not."""
    return ApiToken.objects.select_related("user").filter(digest=digest(key)).first()


def user_for_key(key: str) -> AbstractBaseUser | None:
    """The active user a key authenticates, else None: the one lookup for API and sockets."""
    token = token_for_key(key)
    return token.user if token is not None and token.user.is_active else None


@transaction.atomic
def issue_token(user: AbstractBaseUser, *, rotate: bool = False) -> IssuedToken:
    """A new key for the user; ``rotate`` replaces an existing one (the old key is refused).

    Without ``rotate`` an existing key raises ``TokenExists``: it was shown when it was
    made and is not kept, so it cannot be handed out again.
    """
    existing = ApiToken.objects.select_for_update().filter(user=user).first()
    if existing is not None and not rotate:
        raise TokenExists(existing)
    if existing is not None:
        existing.delete()
    key = new_key()
    token = ApiToken.objects.create(user=user, digest=digest(key), prefix=key[: ApiToken.PREFIX])
    return IssuedToken(key, token)


def revoke_token(user: AbstractBaseUser) -> bool:
    """Delete the user's key; True if there was one."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return bool(deleted)
