"""What an account keeps beyond Django's user: its page language and its API key's digest."""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import models
from django.utils import timezone

from accounts import language


class LanguagePreference(models.Model):
    """The language an account chose in the switcher; it beats the browser's Accept-Language
    (``accounts.language.AccountLanguageMiddleware``). No row: the browser decides."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference"
    )
    language = models.CharField(max_length=16, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user} · {self.language}"


# Each log-in copies the account's choice into its session, so pages read it from there.
user_logged_in.connect(language.remember_on_login, dispatch_uid="accounts.language.login")


class ApiToken(models.Model):
    """An account's key for tools (``Authorization: Token <key>``), kept as its SHA-256
    digest: the key itself is shown once and never stored (``accounts.tokens``)."""

    PREFIX = 8  # the key's first characters, shown so a user can tell which key a tool has

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token"
    )
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=PREFIX)
    created = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user} · {self.prefix}…"


class CalendarFeed(models.Model):
    """An account's private calendar address (``accounts.calendar_feed``): its events,
    for a calendar app to subscribe to without logging in.

    The address carries a token made from ``secret`` with the site's key, and the row keeps
    the token's SHA-256 to find it: a copy of the database alone holds no address that
    works. A new secret (the player's "new address") makes the old address answer 404."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    secret = models.CharField(max_length=64)
    digest = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user} · calendar"
