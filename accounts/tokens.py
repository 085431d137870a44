"""API tokens for tools: one key per user, shown, created, regenerated or revoked."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from rest_framework.authtoken.models import Token


def current_token(user: AbstractBaseUser) -> Token | None:
    return Token.objects.filter(user=user).first()


@transaction.atomic
def issue_token(user: AbstractBaseUser, *, rotate: bool = False) -> Token:
    """The user's key, created if missing; ``rotate`` replaces it so the old key stops working."""
    token = Token.objects.select_for_update().filter(user=user).first()
    if token is not None and not rotate:
        return token
    if token is not None:
        token.delete()
    return Token.objects.create(user=user)


def revoke_token(user: AbstractBaseUser) -> bool:
    """Delete the user's key; True if there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
