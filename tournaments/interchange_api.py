"""``/api/v1/events/export/`` and ``/api/v1/events/import/``: the interchange format over HTTP.

Export is for the event's organisers and judges (and superusers); import is for any
signed-in user, who becomes the new event's organiser. The import body is read and
parsed here rather than by DRF's parsers (as in ``rulebook.api``) so that every way
a body can be wrong becomes a 400 naming the problem, and so that the 20 MB limit
is ours rather than Django's 2.5 MB ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (which only
applies to ``request.body``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.http import UnreadablePostError
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.interchange import InterchangeError, export_event, import_event
from tournaments.models import Event
from tournaments.roles import JUDGE, ORGANISER, has_role

MAX_BODY_BYTES = 20 * 1024 * 1024
_EVENT_ID = re.compile(r"[0-9]{1,18}")


class BodyError(Exception):
    """A request body that cannot be a document; ``status`` is 400 or 413."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _errors(status: int, errors: list[dict[str, Any]]) -> Response:
    return Response({"errors": errors}, status=status)


def _reject_constant(name: str) -> Any:
    raise BodyError(f"{name} is not valid JSON: numbers must be finite.")


def _too_big(size: int | None = None) -> BodyError:
    told = f"The body is {size} bytes; the" if size is not None else "The body is over the"
    return BodyError(f"{told} limit is {MAX_BODY_BYTES} bytes.", status=413)


def read_json_body(request: Request) -> Any:
    """The parsed body, or BodyError: refused unread when it declares more than the limit."""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _too_big(int(declared))
    try:
        raw = request._request.read(MAX_BODY_BYTES + 1)
    except UnreadablePostError:
        raise BodyError("The body could not be read: the upload was cut short.") from None
    if len(raw) > MAX_BODY_BYTES:
        raise _too_big()
    if not raw.strip():
        raise BodyError("The body is empty: send the arbiter-event/1 document as JSON.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(f"The body is not UTF-8 text (byte {exc.start}).") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise BodyError(
            f"The body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except RecursionError:
        raise BodyError("The body is nested too deeply.") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python will parse
        raise BodyError(f"The body is not a usable JSON value: {exc}") from None


class EventExportView(APIView):
    """GET ``?event=<id>``: the event as an ``arbiter-event/1`` document.

    Organisers and judges of that event and superusers only: the file names every player.
    """

    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        raw = request.query_params.get("event", "").strip()
        if not raw:
            return _errors(400, [{"field": "event", "message": "Give the event's id: ?event=12"}])
        if not _EVENT_ID.fullmatch(raw):
            message = f"{raw[:40]!r} is not an event id (a whole number)."
            return _errors(400, [{"field": "event", "message": message}])
        event = Event.objects.filter(pk=int(raw)).first()
        if event is None:
            raise NotFound(f"No event has id {raw}.")
        if not has_role(request.user, event, ORGANISER, JUDGE):
            raise PermissionDenied("Only this event's organisers and judges may export it.")
        filename = f"arbiter-event-{event.pk}.json"
        return Response(
            export_event(event),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )


class EventImportView(APIView):
    """POST an ``arbiter-event/1`` document (as JSON, at most 20 MB): a new event.

    Any signed-in user may import; they become its organiser. 201 with the event's id
    and page; 400 listing every problem in the file, with nothing written.
    """

    permission_classes = [IsAuthenticated]
    parser_classes: list = []

    def post(self, request: Request) -> Response:
        try:
            document = read_json_body(request)
        except BodyError as exc:
            return _errors(exc.status, [{"field": "(body)", "message": str(exc)}])
        try:
            event = import_event(document, request.user)
        except InterchangeError as exc:
            return _errors(
                400, [{"field": p.path or None, "message": p.message} for p in exc.problems]
            )
        url = request.build_absolute_uri(event.get_absolute_url())
        return Response({"id": event.pk, "url": url}, status=201, headers={"Location": url})
