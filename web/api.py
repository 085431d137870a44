"""The API's shared plumbing: error bodies, running a service, finding the event.

Error bodies always carry ``errors`` (``[{"field", "message"}]``) so tools read them one
way: a service's refusal (a ServiceError, raised anywhere in a view) is a 400 listing
its field errors; DRF's own errors and 404s anywhere under /api/ take the same shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from web.errors import FieldError, ServiceError


def error_response(message: str, field: str | None = None, code: int = 400) -> Response:
    """One error, naming its field (None: the request as a whole)."""
    return errors_response([FieldError(field=field, message=message)], code)


def errors_response(errors: list[FieldError], code: int = 400) -> Response:
    return Response({"errors": errors}, status=code)


def refusal_response(exc: ServiceError) -> Response:
    """A service's refusal: its status (400 unless it says otherwise) with every field
    error it carries."""
    return errors_response(exc.errors, exc.status)


def run_service(
    action: Callable[[], Any], render: Callable[[Any], Any], code: int = 200
) -> Response:
    """Call a service; its refusal becomes a 400 naming why (and the fields, when it knows)."""
    try:
        outcome = action()
    except ServiceError as exc:
        return refusal_response(exc)
    return Response(render(outcome), status=code)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF's handler, answering in the ``errors`` shape; a ServiceError is a 400."""
    if isinstance(exc, ServiceError):
        set_rollback()
        return refusal_response(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "errors" in data:
        return response
    if isinstance(data, dict) and set(data) == {"detail"}:
        response.data = {"errors": [{"field": None, "message": str(data["detail"])}]}
    elif isinstance(data, dict):
        response.data = {
            "errors": [
                {"field": field, "message": str(message)}
                for field, messages in data.items()
                for message in (messages if isinstance(messages, list) else [messages])
            ]
        }
    elif isinstance(data, list):
        response.data = {"errors": [{"field": None, "message": str(m)} for m in data]}
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: the ``errors`` JSON under /api/ (a tool never gets a page), the HTML page elsewhere."""
    if request.path.startswith("/api/"):
        message = _("No API endpoint or object at %(path)s.") % {"path": request.path}
        return JsonResponse({"errors": [{"field": None, "message": message}]}, status=404)
    return page_not_found(request, exception)


class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI for /api/schema/, its files from drf-spectacular-sidecar (no CDN).

    The split view serves its start-up script as a file (script-src 'self' suffices);
    our own page template drops the package's inline <style>.
    """

    template_name = "api/docs.html"
    url_name = "api_schema"
