"""``/api/v1/events/export/``, ``/api/v1/events/import/`` and the format's JSON Schema at
``/api/v1/schemas/arbiter-event-1.json``: the interchange format over HTTP.

Export is for the event's organisers and judges (and superusers); import is for any
signed-in user, who becomes the new event's organiser: without the
``tournaments.import_published_event`` permission the event is a draft and its size is
bounded lower (``tournaments.interchange.limits``); the schema is for anyone. The
import body is read and parsed here rather than by DRF's parsers (as in ``rulebook.api``)
so that every way a body can be wrong becomes a 400 naming the problem, and so that the limit
(``API_IMPORT_MAX_BODY_BYTES``, 32 MiB unless set) is ours rather than Django's 2.5 MB
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (which only applies to ``request.body``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse, HttpResponseBase
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.event.roles import JUDGE, ORGANISER, has_role
from tournaments.interchange import (
    InterchangeError,
    export_event,
    import_event,
    schema_bytes,
    schema_document,
    schema_etag,
)
from tournaments.interchange.limits import ImportPolicy, ImportTooBig
from tournaments.models import Event
from web import jsonbody
from web.inputs import Reader
from web.jsonbody import BodyError
from web.openapi import (
    ANY_OBJECT,
    INT,
    STR,
    add_named,
    json_body,
    json_schema_components,
    obj,
    ref,
    responses,
)
from web.parsers import UnreadBody

INTERCHANGE_COMPONENT = "ArbiterEvent"


def add_interchange_components(result: dict, generator, request, public) -> dict:
    """Postprocessing hook: ``ArbiterEvent`` and its parts (``ArbiterEventPlayer``, …) in
    the OpenAPI schema, made from the committed arbiter-event/1 JSON Schema, the file the
    importer checks documents with: one statement of the format, so generated clients
    type exports and imports exactly as the site reads them."""
    add_named(result, json_schema_components(schema_document(), INTERCHANGE_COMPONENT))
    return result


def _errors(status: int, errors: list[dict[str, Any]]) -> Response:
    return Response({"errors": errors}, status=status)


def read_json_body(request: Request) -> Any:
    """The import document; BodyError (413 when too big) naming what is wrong."""
    return jsonbody.read_json_body(
        request,
        limit=settings.API_IMPORT_MAX_BODY_BYTES,
        expected="the arbiter-event/1 document",
        too_big_status=413,
    )


class EventExportView(APIView):
    """GET ``?event=<id>``: the event as an ``arbiter-event/1`` document.

    Organisers and judges of that event and superusers only: the file names every player.
    Only finished rounds are written, so the file can always be imported; a round still
    paired or running is named under ``left_out``, with the reason. A main event with Day 1
    flights is written whole (``phases``: its flights, the gate, Day 2's players); a flight
    alone is an event of one phase whose ``event.flight_of`` names its main event.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="event_export",
        summary="Export an event as arbiter-event/1 (its organisers and judges)",
        tags=["events"],
        parameters=[
            OpenApiParameter(
                "event", int, OpenApiParameter.QUERY, required=True, description="The event's id."
            )
        ],
        responses=responses(
            {200: (ref(INTERCHANGE_COMPONENT), "The event (also as an attachment).")},
            400,
            403,
            404,
        ),
    )
    def get(self, request: Request) -> Response:
        raw = request.query_params.get("event", "").strip()
        if raw:
            wrong = _("%(sent)s is not an event id (a whole number).") % {"sent": repr(raw[:40])}
        else:
            wrong = _("Give the event's id: ?event=12")
        fields = Reader(request.query_params)
        event_id = fields.id("event", message=wrong)
        fields.check()
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise NotFound(_("No event has id %(id)s.") % {"id": event_id})
        if not has_role(request.user, event, ORGANISER, JUDGE):
            raise PermissionDenied(_("Only this event's organisers and judges may export it."))
        filename = f"arbiter-event-{event.pk}.json"
        return Response(
            export_event(event),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )


class EventImportView(APIView):
    """POST an ``arbiter-event/1`` document (as JSON, up to API_IMPORT_MAX_BODY_BYTES): a new event.

    Any signed-in user may import; they become its organiser. Without the import
    permission the event is a draft until they publish it, and its players, rounds and
    matches are bounded by IMPORT_MAX_*; with it the file's status stands, within the
    IMPORT_MAX_*_TRUSTED bound that holds for everybody. 201 with the event's id, page,
    status and what to do next; 400 listing every problem in the file, 413 naming the
    count past its limit, with nothing written.
    """

    permission_classes = [IsAuthenticated]
    parser_classes = [UnreadBody]  # the view reads the document itself, with its own limit

    @extend_schema(
        operation_id="event_import",
        summary="Import an arbiter-event/1 document as a new event",
        tags=["events"],
        request=json_body(ref(INTERCHANGE_COMPONENT)),
        responses=responses(
            {
                201: (
                    obj(
                        ["id", "url", "status", "message"],
                        id=INT,
                        url=STR,
                        status={**STR, "enum": Event.Status.values},
                        message=STR,
                    ),
                    "Created; `Location` is its page. `status` is `draft` when the importer "
                    "may not publish at once; `message` says how to publish it.",
                )
            },
            400,
            403,
            413,
            e400="Every problem in the document (field: its path), nothing written.",
            e413="The body is over API_IMPORT_MAX_BODY_BYTES, or the document holds more "
            "`players`, `rounds` or `matches` (the field) than the importer may import.",
        ),
    )
    def post(self, request: Request) -> Response:
        try:
            document = read_json_body(request)
        except BodyError as exc:
            return _errors(exc.status, [{"field": exc.field or "(body)", "message": str(exc)}])
        try:
            event = import_event(document, request.user, policy=ImportPolicy.for_user(request.user))
        except InterchangeError as exc:
            return _errors(
                413 if isinstance(exc, ImportTooBig) else 400,
                [{"field": p.path or None, "message": p.message} for p in exc.problems],
            )
        url = request.build_absolute_uri(event.get_absolute_url())
        body = {"id": event.pk, "url": url, "status": event.status, "message": _next_step(event)}
        return Response(body, status=201, headers={"Location": url})


def _next_step(event: Event) -> str:
    """What the importer reads: a draft is theirs alone until they publish it."""
    if event.status == Event.Status.REGISTRATION:
        return _("Imported as open for registration: anyone can see it.")
    if event.status == Event.Status.RUNNING:
        return _("Imported as running: anyone can see it.")
    if event.status == Event.Status.FINISHED:
        return _("Imported as finished: anyone can see it.")
    edit = reverse("tournaments:edit", args=[event.pk])
    return _(
        "Imported as a draft: only its organisers see it. To publish it, open "
        "%(url)s and set its status (open for registration, running or finished)."
    ) % {"url": edit}


class SchemaJSONRenderer(JSONRenderer):
    """JSON Schema's own media type, so ``Accept: application/schema+json`` is served."""

    media_type = "application/schema+json"


SCHEMA_MAX_AGE = 60 * 60  # an hour: the file changes only with a new release of the site
_SCHEMA_BODY = {
    **ANY_OBJECT,
    "description": "The arbiter-event/1 JSON Schema (draft 2020-12), as committed in "
    "docs/schemas/arbiter-event-1.schema.json.",
}


class EventSchemaView(APIView):
    """GET: the ``arbiter-event/1`` JSON Schema, for anyone (tools check files with it).

    Served as the committed file, byte for byte, with an ETag (a 304 for a matching
    ``If-None-Match``) and public caching: as ``application/json`` (what browsers and
    most tools expect, and what errors here are), or as ``application/schema+json`` to
    a request that asks for that. No authentication: nothing here depends on who asks,
    so shared caches may keep it.
    """

    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, SchemaJSONRenderer]

    @extend_schema(
        operation_id="event_schema",
        summary="The arbiter-event/1 JSON Schema (for anyone)",
        tags=["events"],
        responses={
            (200, JSONRenderer.media_type): OpenApiResponse(
                response=_SCHEMA_BODY, description="The schema."
            ),
            (200, SchemaJSONRenderer.media_type): OpenApiResponse(
                response=_SCHEMA_BODY, description="The schema."
            ),
            304: OpenApiResponse(description="Not modified: `If-None-Match` names its ETag."),
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        media_type = request.accepted_renderer.media_type  # not the Accept entry (its q=…)
        response = HttpResponse(schema_bytes(), content_type=media_type)
        response["ETag"] = schema_etag()
        patch_cache_control(response, public=True, max_age=SCHEMA_MAX_AGE)
        patch_vary_headers(response, ["Accept"])
        return get_conditional_response(request, etag=schema_etag(), response=response)
