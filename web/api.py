"""API glue: error bodies always carry ``errors`` so tools can read them one way (DRF's
errors, and 404s anywhere under /api/), and the API docs page."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context) -> Response | None:
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
        message = f"No API endpoint or object at {request.path}."
        return JsonResponse({"errors": [{"field": None, "message": message}]}, status=404)
    return page_not_found(request, exception)


class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI for /api/schema/, its files from drf-spectacular-sidecar (no CDN).

    The split view serves its start-up script as a file (script-src 'self' suffices);
    our own page template drops the package's inline <style>.
    """

    template_name = "api/docs.html"
    url_name = "api_schema"
