"""Log-in throttling with django-axes: who the client is, what counts, what a locked-out
user sees.

Axes counts failed log-ins per username (from any address) and per address (across
usernames), settings.AXES_LOCKOUT_PARAMETERS; these hooks decide the address
(X-Forwarded-For only from our own proxies), weigh each count against its own limit and
render the 429 page.
"""

from __future__ import annotations

import functools
import math

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from web.client_address import TrustedProxies, client_address, parse_trusted_proxies


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


@functools.lru_cache(maxsize=8)
def _parsed(entries: tuple[str, ...]) -> TrustedProxies:
    return parse_trusted_proxies(",".join(entries))


def trusted_proxies() -> TrustedProxies:
    """settings.TRUSTED_PROXIES, parsed once per distinct value (tests change it)."""
    return _parsed(tuple(getattr(settings, "TRUSTED_PROXIES", ())))


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or X-Forwarded-For when a proxy of ours sent it.

    A client that reaches the site directly is its own address whatever header it sends;
    otherwise it could make up a new address for every guess.
    """
    return client_address(
        request.META.get("REMOTE_ADDR", ""),
        request.META.get("HTTP_X_FORWARDED_FOR", ""),
        trusted_proxies(),
    )


class LoginFailureHandler(AxesDatabaseHandler):
    """Axes' database handler with a limit per lockout parameter, and a narrower reset.

    Axes compares the largest of its counts with one AXES_FAILURE_LIMIT. Here each count
    (per username, per address) is first scaled to that limit: a count reaches it exactly
    when it reaches its own limit (AXES_ADDRESS_FAILURE_LIMIT for the address).
    """

    def get_failures(self, request, credentials: dict | None = None) -> int:
        limit = get_failure_limit(request, credentials)
        parameters = settings.AXES_LOCKOUT_PARAMETERS
        counts = self.get_user_attempts(request, credentials)
        worst = 0
        for parameter, attempts in zip(parameters, counts, strict=True):
            failures = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            own = settings.AXES_ADDRESS_FAILURE_LIMIT if parameter == "ip_address" else limit
            worst = max(worst, failures * limit // max(own, 1))
        return worst

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """A good password clears that username's failures from that address only.

        Axes would delete every row matching either parameter: all failures from the
        address, whoever they were for. An attacker with one real account could then log
        in to it between guesses and start every count at zero again.
        """
        attempts = AccessAttempt.objects.filter(
            username=get_client_username(request, credentials),
            ip_address=request.axes_ip_address,
        )
        count, _ = attempts.delete()
        return count


def forget_failures_for(username: str) -> int:
    """Clear one username's failed log-ins from every address (a new password was set)."""
    count, _ = AccessAttempt.objects.filter(username=username).delete()
    return count


def lockout_response(
    request: HttpRequest, original_response=None, credentials: dict | None = None
) -> HttpResponse:
    """The 429 page: locked out, for how long, and what to do meanwhile."""
    cool_off = get_cool_off(request)
    minutes = math.ceil(cool_off.total_seconds() / 60) if cool_off else None
    context = {
        "minutes": minutes,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address_limit": settings.AXES_ADDRESS_FAILURE_LIMIT,
    }
    response = render(request, "registration/locked_out.html", context, status=429)
    if cool_off:
        response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
