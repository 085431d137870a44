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
from django.shortcuts import render
from django.template.loader import render_to_string

from web.errors import FieldError
from web.inputs import form_fields, unusable_at, urlencoded_fields
from web.local_time import show_site_times

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


class UnusableInputMiddleware:
    """A query string or form field holding a NUL or a lone surrogate is a 400 naming it.

    Pages read ``request.POST`` and ``request.GET`` themselves, so the walk every body
    reader makes (``web.inputs.unusable_at``) is made here once for all of them, before
    any view: PostgreSQL refuses NUL in text (a 500 wherever it reached a query). API
    bodies are the API's parsers' to read (with their size limits); their query strings
    are checked here too. After the CSRF check, so a forged post is refused as such.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> HttpResponse | None:
        api = request.path.startswith("/api/")
        problem = unusable_at(urlencoded_fields(request.META.get("QUERY_STRING", "")))
        if problem is None and not api and request.method == "POST":
            problem = _form_problem(request)
        if problem is None:
            return None
        if api:
            return JsonResponse({"errors": [problem]}, status=400)
        return render(request, "400.html", {"reason": problem["message"]}, status=400)


def _form_problem(request: HttpRequest) -> FieldError | None:
    """What is wrong with a posted form's fields: read from the raw body when URL-encoded
    (bytes that are not UTF-8 show), else (multipart) from Django's parse of it."""
    if request.content_type == "application/x-www-form-urlencoded":
        return unusable_at(urlencoded_fields(request.body.decode("latin-1")))
    return unusable_at(form_fields(request.POST.lists()))


class SiteTimeZoneMiddleware:
    """Each request starts on the site's clock (``TIME_ZONE``).

    Loading an event switches its pages to the venue's zone (``web.local_time``);
    a worker thread serves many requests, so one event's zone must not carry into the next
    request, whatever it is for."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        show_site_times()
        try:
            return self.get_response(request)
        finally:
            show_site_times()
