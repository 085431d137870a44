from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from tournaments.models import Event
from web.health import run_checks


def home(request: HttpRequest) -> HttpResponse:
    upcoming = Event.objects.visible_to(request.user).order_by("date")[:6]
    return render(request, "home.html", {"upcoming": upcoming})


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
