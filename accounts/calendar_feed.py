"""An account's private calendar address: a secret token, made, found and replaced here.

The token is an HMAC of the row's random ``secret`` under the site's key, so My events can
show the same address on every visit while the database keeps only the secret and the
token's digest. Changing ``SECRET_KEY`` (without listing the old one among its fallbacks)
changes every address; a player who needs a new one asks for it on My events.
"""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.crypto import salted_hmac

from accounts.models import CalendarFeed

SALT = "accounts.calendar_feed"
SECRET_BYTES = 32


def token_for(feed: CalendarFeed) -> str:
    return salted_hmac(SALT, feed.secret, algorithm="sha256").hexdigest()


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def _fill(feed: CalendarFeed) -> CalendarFeed:
    feed.secret = secrets.token_hex(SECRET_BYTES)
    feed.digest = digest(token_for(feed))
    return feed


def feed_token(user: AbstractBaseUser) -> str:
    """The account's token, made on first asking (two first askings at once get one)."""
    feed = CalendarFeed.objects.filter(user=user).first()
    if feed is None:
        try:
            with transaction.atomic():
                feed = _fill(CalendarFeed(user=user))
                feed.save()
        except IntegrityError:
            feed = CalendarFeed.objects.get(user=user)
    token = token_for(feed)
    if digest(token) != feed.digest:  # the site's key has changed: so has the address
        feed.digest = digest(token)
        feed.save(update_fields=["digest"])
    return token


def new_feed_token(user: AbstractBaseUser) -> str:
    """A new token for the account: the address it replaces stops answering at once."""
    feed = CalendarFeed.objects.filter(user=user).first() or CalendarFeed(user=user)
    _fill(feed).save()
    return token_for(feed)


def user_for(token: str):
    """The account whose address carries ``token``, or None (unknown, replaced, malformed)."""
    if not token or len(token) > 128:
        return None
    feed = CalendarFeed.objects.filter(digest=digest(token)).select_related("user").first()
    if feed is None or not feed.user.is_active:
        return None
    return feed.user
