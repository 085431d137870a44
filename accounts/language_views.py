"""The language switcher (``templates/_language_switcher.html``) posts here.

Anyone may choose: the choice goes into the language cookie, which ``LocaleMiddleware``
prefers to the browser's Accept-Language. A signed-in account also keeps it
(``accounts.models.LanguagePreference``), so it follows the account to every device and
beats the browser there (``accounts.language``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import language
from accounts.models import LanguagePreference


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch to the posted ``language`` and go back to ``next`` (this site's pages only).

    A code that is not one of ``settings.LANGUAGES`` is a 400 naming the field and the
    choices, with nothing saved.
    """
    code = request.POST.get("language", "")
    if code not in language.language_codes():
        offered = ", ".join(f"{key} ({name})" for key, name in settings.LANGUAGES)
        reason = _("The field “language” must be one of %(offered)s.") % {"offered": offered}
        return render(request, "400.html", {"reason": reason}, status=400)
    if request.user.is_authenticated:
        LanguagePreference.objects.update_or_create(user=request.user, defaults={"language": code})
        language.remember(request.session, code)
    # Not redirect(): it would look a bare word ("home") up as a URL name.
    response = HttpResponseRedirect(way_back(request))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


def way_back(request: HttpRequest) -> str:
    """The posted ``next`` (a path on this site: "/events/"), else the page the form was on
    (Referer), if on this site (and https when this request is); else the start page."""
    allowed = {request.get_host()}
    secure = request.is_secure()
    posted = request.POST.get("next", "")
    referer = request.headers.get("referer", "")
    for url in (posted if posted.startswith("/") else "", referer):
        if url and url_has_allowed_host_and_scheme(
            url, allowed_hosts=allowed, require_https=secure
        ):
            return url
    return resolve_url("home")
