"""Log-in throttling with django-axes: who the client is, and what a locked-out user sees.

Axes counts failed log-ins per (username, address) pair; these hooks decide the address
(X-Forwarded-For only behind our own proxies) and render the 429 page.
"""

from __future__ import annotations

import math

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' check, skipped when there is no request to take an address from.

    ``authenticate()`` without a request (a management command, the test client's
    ``login()``) is not a log-in over the network, so there is no one to throttle;
    axes itself would raise instead.
    """

    def authenticate(self, request: HttpRequest | None, *args, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or X-Forwarded-For behind TRUSTED_PROXY_COUNT proxies.

    Each proxy appends the address it received the request from, so with N proxies of
    ours the client is the N-th entry from the right; anything left of it was written by
    the client and cannot be trusted. Without proxies the header is ignored entirely.
    """
    remote = request.META.get("REMOTE_ADDR")
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < count:
        return remote
    return forwarded[-count]


def lockout_response(
    request: HttpRequest, original_response=None, credentials: dict | None = None
) -> HttpResponse:
    """The 429 page: locked out, for how long, and what to do meanwhile."""
    cool_off = get_cool_off(request)
    minutes = math.ceil(cool_off.total_seconds() / 60) if cool_off else None
    context = {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT}
    response = render(request, "registration/locked_out.html", context, status=429)
    if cool_off:
        response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
