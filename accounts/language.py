"""The language a page is shown in when a signed-in account has chosen one.

The order, in ``settings.MIDDLEWARE``: Django's ``LocaleMiddleware`` picks the language
cookie (``LANGUAGE_COOKIE_NAME``, which the switcher sets), else the browser's
Accept-Language, else ``LANGUAGE_CODE``; then, after ``AuthenticationMiddleware``,
:class:`AccountLanguageMiddleware` switches to the account's saved choice
(``accounts.models.LanguagePreference``), so it beats the browser on every device.
``LocaleMiddleware`` names the language the page was made in in its ``Content-Language``
header. URLs carry no language prefix.

Pages cost no query for it: each log-in copies the account's choice into the session
(:func:`remember_on_login`, on ``user_logged_in``), and a session from before that reads
it once, on its first request. Choosing in the switcher
(``accounts.language_views.set_language``) saves the row and updates this session; the
account's other sessions follow at their next log-in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY as SIGNED_IN_KEY
from django.http import HttpRequest, HttpResponse
from django.utils import translation

SESSION_KEY = "_arbiter_language"
NO_CHOICE = ""  # kept in the session: the account has saved no language


def language_codes() -> frozenset[str]:
    """The codes of ``settings.LANGUAGES``: the only languages a page is shown in."""
    return frozenset(code for code, _name in settings.LANGUAGES)


def saved_language(user: Any) -> str:
    """The account's saved language code, or NO_CHOICE (none saved, or no longer offered)."""
    from accounts.models import LanguagePreference

    code = (
        LanguagePreference.objects.filter(user_id=user.pk)
        .values_list("language", flat=True)
        .first()
    )
    return code if code in language_codes() else NO_CHOICE


def remember(session: Any, code: str) -> None:
    """Keep the account's choice (or NO_CHOICE) in its session for the pages to read."""
    session[SESSION_KEY] = code


def remember_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: the new session starts with the account's saved choice."""
    session = getattr(request, "session", None)
    if session is not None:
        remember(session, saved_language(user))


def account_language(request: HttpRequest) -> str:
    """The signed-in account's saved language for this request, or NO_CHOICE.

    A request without a signed-in session (anonymous, or an API token) is NO_CHOICE at once;
    a session without the choice in it (from before log-ins kept it) reads it once.
    """
    session = getattr(request, "session", None)
    if session is None or SIGNED_IN_KEY not in session:
        return NO_CHOICE
    if not request.user.is_authenticated:  # the session's account is gone or was signed out
        return NO_CHOICE
    code = session.get(SESSION_KEY)
    if code is None:
        code = saved_language(request.user)
        remember(session, code)
    return code if code in language_codes() else NO_CHOICE


class AccountLanguageMiddleware:
    """After ``AuthenticationMiddleware``: a signed-in account's saved language replaces the
    one ``LocaleMiddleware`` took from the cookie or the browser, for this request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = account_language(request)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class LanguageResetMiddleware:
    """The request's language ends with it.

    ``LocaleMiddleware`` activates a language for the thread serving the request and
    leaves it there; the next thing that thread does outside a request (a task run in
    it, a test) would speak the last visitor's language. Placed first, this puts the
    site's ``LANGUAGE_CODE`` back when the response is made."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            translation.deactivate()
