"""Answers for requests that cannot be served because a service the site needs is down.

When PostgreSQL restarts or is unreachable, every query raises ``OperationalError`` (or
``InterfaceError`` on a connection that died under us). Left alone that is a 500 and a
logged traceback per request; what the user needs is "the database is unavailable, try
again shortly": a 503 with ``Retry-After``, as the page or, under ``/api/``, as the API's
``{"errors": [...]}`` body. The transaction was rolled back, so nothing is half-written.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 10
DATABASE_DOWN = (
    "The database is unavailable at the moment (it may be restarting). Please try again shortly."
)


def service_unavailable(request: HttpRequest, message: str, title: str) -> HttpResponse:
    """A 503 with Retry-After: JSON ``errors`` for the API, the 503 page otherwise."""
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        response: HttpResponse = JsonResponse(
            {"errors": [{"field": None, "message": message}]}, status=503
        )
    else:
        # No request context: the page must not touch the database (no user, no session).
        context = {"title": title, "message": message, "retry_after": RETRY_AFTER_SECONDS}
        response = HttpResponse(render_to_string("503.html", context), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


DATABASE_ERRORS = (OperationalError, InterfaceError)


def _note_database_error(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Mark a request whose uncaught exception was a database error.

    Django turns an exception raised outside the view (a middleware saving the session,
    say) into the 500 page before any middleware sees it; this mark lets
    ``DatabaseUnavailableMiddleware`` swap that page for the 503 on the way out.
    """
    if request is not None and isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        request.database_unavailable = True


got_request_exception.connect(_note_database_error, dispatch_uid="web.database_unavailable")


class DatabaseUnavailableMiddleware:
    """Turns a database outage into a clean 503 (see the module docstring).

    Put it first in MIDDLEWARE: ``process_exception`` answers for views, and ``__call__``,
    outermost, replaces the 500 of a database error raised in any other middleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 500 and getattr(request, "database_unavailable", False):
            return service_unavailable(request, DATABASE_DOWN, "The database is unavailable")
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        log.warning("database unavailable for %s %s: %s", request.method, request.path, exception)
        return service_unavailable(request, DATABASE_DOWN, "The database is unavailable")
