from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache

from web.health import run_checks


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when database, cache and broker all answer; 503 naming what does not."""
    healthy, parts = run_checks()
    return JsonResponse(
        {"status": "ok" if healthy else "degraded", **parts}, status=200 if healthy else 503
    )


def forbidden(request: HttpRequest, exception=None) -> HttpResponse:
    reason = str(exception) if exception and str(exception) else "You may not open this page."
    return render(request, "403.html", {"reason": reason}, status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused for its missing security token, said the way a person can act on.

    The usual causes are an expired session (logged out in the meantime) or cookies that
    are blocked or were cleared. The way back is the page the form was on (the referring
    page when it is this site's, else the address posted to); forms that keep their text
    in the browser (the decklist editor) put it back there.
    """
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = request.path
    context = {"back": back, "no_cookie": "cookie" in reason.lower()}
    return render(request, "csrf_failure.html", context, status=403)
