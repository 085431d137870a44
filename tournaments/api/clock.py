"""The time-extension API: a table's extensions, granting one, removing one.

The same service (``tournaments.clock.extensions``) and permissions as the judge's table page: the
event's judges and organisers (and superusers). Errors come back as ``{"errors":
[{"field", "message"}]}``: 400 naming the field (``minutes``, ``reason``) or the refusal
(a closed round, a bye, an extension already removed), 403 for anyone else, 404 for an
unknown match or extension. A grant to a table whose result is already in succeeds and
carries the ``warning`` to show.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.clock import extensions as clock
from tournaments.event.roles import JUDGE, ORGANISER, event_for
from tournaments.models import Match, TimeExtension
from web.api import run_service
from web.inputs import MAX_NOTE, Reader
from web.openapi import BODY_ERRORS, INT, STR, array, body, ref, responses

STAFF = (ORGANISER, JUDGE)
REASON = {**STR, "maxLength": MAX_NOTE, "minLength": 1}


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def _name(user) -> str | None:
    return user.get_username() if user is not None else None


def extension_json(extension: TimeExtension, warning: str | None = None) -> dict[str, Any]:
    match = extension.match
    return {
        "id": extension.pk,
        "match": match.pk,
        "table": match.table,
        "round": match.round.number,
        "minutes": extension.minutes,
        "reason": extension.reason,
        "granted_by": _name(extension.granted_by),
        "granted_at": _iso(extension.granted_at),
        "call": extension.call,
        "standing": extension.is_standing,
        "removed_at": _iso(extension.removed_at),
        "removed_by": _name(extension.removed_by),
        "removal_reason": extension.removal_reason,
        "match_extension_minutes": match.extension_minutes,
        "warning": warning,
    }


def _extension(pk: int) -> TimeExtension:
    return TimeExtension.objects.select_related("match__round", "granted_by", "removed_by").get(
        pk=pk
    )


class MatchExtensions(APIView):
    """GET a table's extensions (removed ones too); POST {minutes, reason} grants one."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="match_extensions",
        summary="A table's time extensions, removed ones too",
        tags=["matches"],
        responses=responses(
            {200: (array(ref("TimeExtension")), "In the order granted.")}, 403, 404
        ),
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("round"), pk=match_id)
        event_for(request, match.round.event_id, *STAFF)
        extensions = match.extensions.select_related("match__round", "granted_by", "removed_by")
        return Response([extension_json(x) for x in extensions])

    @extend_schema(
        operation_id="match_extension_grant",
        summary="Grant a table a time extension (903.1b)",
        description="`minutes` from 1 to the round's length. A table whose result is already "
        "in gets the time too, with a `warning` saying it changes nothing unless the result "
        "is corrected.",
        tags=["matches"],
        request=body(
            ["minutes", "reason"],
            example={"minutes": 5, "reason": "Deck check"},
            minutes={**INT, "minimum": 1},
            reason=REASON,
        ),
        responses=responses(
            {201: (ref("TimeExtension"), "Granted; `warning` set if the result is in.")},
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("round__event"), pk=match_id)
        event_for(request, match.round.event_id, *STAFF)
        fields = Reader(request.data)
        minutes = fields.integer("minutes")
        reason = fields.text("reason", required=True, max_length=MAX_NOTE)
        if minutes is not None:
            fields.checked(
                "minutes", lambda: clock.check_minutes(minutes, match.round.event.round_minutes)
            )
        fields.check()
        return run_service(
            lambda: clock.grant_extension(match, minutes, reason, request.user),
            lambda granted: extension_json(
                _extension(granted.pk), clock.warning_for(granted.match)
            ),
            status.HTTP_201_CREATED,
        )


class ExtensionRemove(APIView):
    """POST {reason}: take an extension back; it stays on record as removed."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="extension_remove",
        summary="Remove a time extension (with the reason, logged)",
        tags=["matches"],
        request=body(["reason"], reason=REASON),
        responses=responses(
            {200: (ref("TimeExtension"), "Removed; the table's clock no longer counts it.")},
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def post(self, request: Request, extension_id: int) -> Response:
        extension = get_object_or_404(
            TimeExtension.objects.select_related("match__round"), pk=extension_id
        )
        event_for(request, extension.match.round.event_id, *STAFF)
        fields = Reader(request.data)
        reason = fields.text("reason", required=True, max_length=MAX_NOTE)
        fields.check()
        return run_service(
            lambda: clock.remove_extension(extension, request.user, reason),
            lambda removed: extension_json(_extension(removed.pk)),
        )
