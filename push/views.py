"""The installable app's two root files and a browser's push subscription.

``/manifest.webmanifest`` and ``/sw.js`` are served from the site's root: a service
worker controls only the paths under its own, and the phone page lives under /events/.
"""

from __future__ import annotations

import hashlib
import json

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from push import subscriptions
from web.errors import ServiceError
from web.jsonbody import BodyError, read_json_body

MAX_BODY = 4096  # a subscription's JSON is a few hundred bytes
THEME = "#00895a"  # the favicon's green
# What the phone page needs to draw itself offline; the worker caches it on install.
SHELL = (
    "vendor/pico/pico.jade.min.css",
    "css/arbiter.css",
    "css/my-match.css",
    "vendor/htmx/htmx.min.js",
    "js/arbiter.js",
    "js/live.js",
    "js/round-clock.js",
    "js/my-match.js",
    "img/favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: a player adds Arbiter to the home screen from My match.

    Written in the request's language (its description, ``lang`` and ``dir``), so it varies
    on what picks the language. ``id`` is the start page, which browsers took as the app's
    identity before it was named: apps already installed stay the same app. The 512-pixel
    icon is also offered as maskable: its pips lie within the safe zone (the middle 80%
    circle, scripts/make_icons.py) on a green that fills the square, so a launcher's mask
    crops only background."""
    start = reverse("tournaments:my_events")
    body = {
        "id": start,
        "name": "Arbiter",
        "short_name": "Arbiter",
        "description": _("Your table, opponent and round clock; report the result."),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            *(
                {
                    "src": static(f"icons/icon-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any",
                }
                for size in (192, 512)
            ),
            {
                "src": static("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = HttpResponse(
        json.dumps(body, indent=1, ensure_ascii=False),
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "public, max-age=3600"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _worker_source() -> str:
    """static/js/sw.js, from the source folder or else from the collected files."""
    path = finders.find("js/sw.js")
    if path is None:
        with staticfiles_storage.open("js/sw.js") as handle:
            return handle.read().decode("utf-8")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def worker_config() -> dict:
    """What the worker's source is told: the shell's (hashed) files, the log-out path, and a
    version that changes whenever either does, so a new release replaces the old cache."""
    shell = [static(name) for name in SHELL]
    config = {"shell": shell, "logout": reverse("logout")}
    digest = hashlib.sha256((json.dumps(config) + _worker_source()).encode()).hexdigest()
    return {**config, "version": digest[:12]}


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker at the root scope, with its config on the first line."""
    source = f"self.ARBITER_SW = {json.dumps(worker_config())};\n{_worker_source()}"
    response = HttpResponse(source, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # Browsers check for a new worker on every visit; it must never come from a cache.
    response["Cache-Control"] = "no-cache"
    return response


def _refusal(exc: ServiceError | BodyError) -> JsonResponse:
    if isinstance(exc, BodyError):
        errors = [{"field": exc.field, "message": str(exc)}]
        return JsonResponse({"errors": errors}, status=exc.status)
    return JsonResponse({"errors": exc.errors}, status=400)


def _read(request: HttpRequest):
    return read_json_body(
        request, limit=MAX_BODY, expected="the subscription (PushSubscription.toJSON())"
    )


@require_POST
@login_required
def subscribe(request: HttpRequest) -> JsonResponse:
    """Keep this browser's subscription: pairings reach the phone with the page closed."""
    try:
        subscription = subscriptions.subscribe(request.user, _read(request))
    except (ServiceError, BodyError) as exc:
        return _refusal(exc)
    return JsonResponse({"subscribed": True, "id": subscription.pk}, status=201)


@require_POST
@login_required
def unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription (the player turned the notices off)."""
    try:
        removed = subscriptions.unsubscribe(request.user, _read(request))
    except (ServiceError, BodyError) as exc:
        return _refusal(exc)
    return JsonResponse({"subscribed": False, "removed": removed})
