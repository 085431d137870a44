"""Players kept apart in Swiss over the API: list, add, remove (organisers).

The same service as the page ``/events/<id>/avoid/`` (``tournaments.event.avoid_pairs``),
so both refuse the same things with the same words; a refusal is a 400 naming the field.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import once
from tournaments.api.event_fields import refused
from tournaments.event import avoid_pairs
from tournaments.event.roles import ORGANISER, event_for
from tournaments.models import AvoidPair, Event, Registration
from web.api import run_service
from web.openapi import BODY_ERRORS, IDEMPOTENCY_KEY, responses

E422 = "The `Idempotency-Key` already answered another request."


class KeptApart(serializers.Serializer):
    """Two of the event's registrations the Swiss engine never pairs while it can avoid it."""

    pair = serializers.IntegerField(read_only=True)
    first = serializers.IntegerField(
        min_value=1, help_text=_lazy("A registration id of the event.")
    )
    second = serializers.IntegerField(min_value=1, help_text=_lazy("Another registration id."))
    players = serializers.ListField(child=serializers.CharField(), read_only=True)
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", trim_whitespace=False
    )
    added_at = serializers.DateTimeField(read_only=True)


def _pair_json(pair: AvoidPair) -> dict:
    return {
        "pair": pair.pk,
        "first": pair.first_id,
        "second": pair.second_id,
        "players": [pair.first.display_name, pair.second.display_name],
        "reason": pair.reason,
        "added_at": pair.added_at.isoformat(),
    }


class AvoidPairs(APIView):
    """GET the pairs kept apart; POST adds one (organisers)."""

    @extend_schema(
        operation_id="avoid_pairs_list",
        summary="Players kept apart in Swiss (organisers)",
        tags=["events"],
        responses=responses({200: (KeptApart(many=True), "Every pair, oldest first.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        return Response([_pair_json(pair) for pair in avoid_pairs.listed(event)])

    @extend_schema(
        operation_id="avoid_pair_add",
        summary="Keep two players apart in Swiss from the next pairing on (organisers)",
        description="`first` and `second` are registrations of the event (a waitlisted one "
        "too). The engine treats the pair as a rematch: they meet only when no pairing "
        "without rematches and such pairs exists. Refused (400) for the same player twice, "
        "another event's player, a pair already listed, a finished event. Takes an optional "
        "`Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=KeptApart,
        responses=responses(
            {201: (KeptApart, "The new pair.")}, *BODY_ERRORS, 403, 404, 422, e422=E422
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        return once.api_once(request, lambda: self._add(request, event))

    def _add(self, request: Request, event: Event) -> Response:
        body = KeptApart(data=request.data)
        if not body.is_valid():
            return refused(body)
        fields = body.validated_data
        first, second = (
            Registration.objects.select_related("user").filter(pk=fields[key]).first()
            for key in ("first", "second")
        )
        return run_service(
            lambda: avoid_pairs.add_pair(event, first, second, request.user, fields["reason"]),
            _pair_json,
            status.HTTP_201_CREATED,
        )


class AvoidPairRemove(APIView):
    @extend_schema(
        operation_id="avoid_pair_remove",
        summary="Let a pair kept apart meet again (organisers)",
        description="Takes an optional `Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses=responses(
            {200: ({"type": "object"}, "Removed.")},
            403,
            404,
            422,
            e404="No such event, or no such pair in it.",
            e422=E422,
        ),
    )
    def delete(self, request: Request, event_id: int, pair_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        get_object_or_404(AvoidPair, event=event, pk=pair_id)
        return once.api_once(
            request,
            lambda: run_service(
                lambda: avoid_pairs.remove_pair(event, pair_id, request.user), lambda _: {}
            ),
        )
