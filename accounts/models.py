"""What an account keeps beyond Django's user: the language its pages are shown in."""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import models

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
