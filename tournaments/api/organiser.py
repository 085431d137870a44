"""The rest of the organiser's dashboard over the API: finishing the event, its staff,
the entries offered to accounts, decklist reminders; and a player's own check-in.

Each view checks the role the dashboard's view checks and calls the service it calls
(the parity table: docs/api.md). Bodies are serializers, so each is one named schema and
each refusal names its field.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import once
from tournaments.api.event_fields import refused
from tournaments.api.events import event_json, seated_count
from tournaments.event import entry_offers, services
from tournaments.event.roles import ORGANISER, event_for
from tournaments.models import EntryOffer, Event, EventRole
from tournaments.rounds import decklist_gate
from tournaments.rounds import services as rounds
from web.api import error_response, run_service
from web.openapi import BODY_ERRORS, IDEMPOTENCY_KEY, ref, responses

E422 = "The `Idempotency-Key` already answered another request."


class Finish(APIView):
    """POST: finish the event, once its last round is closed and nothing else is left."""

    @extend_schema(
        operation_id="event_finish",
        summary="Finish the event (organisers)",
        description="Allowed when finishing is the dashboard's next step: every Swiss round "
        "played and closed, and the top cut (if any) played to its final and closed. "
        "Otherwise 400, naming the step that comes first. The event's `status` becomes "
        "`finished`. Takes an optional `Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses=responses(
            {200: (ref("Event"), "The event, finished.")},
            400,
            403,
            404,
            422,
            e400="Not the next step: the message names the step that comes first.",
            e422=E422,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        return once.api_once(request, lambda: self._finish(request, event))

    def _finish(self, request: Request, event: Event) -> Response:
        step = rounds.next_step(event)
        if step is None:
            return error_response(_("The event is already finished."))
        if step[0] != "finish":
            return error_response(
                _("The event cannot finish yet: the next step is “%(step)s”.") % {"step": step[1]}
            )
        return run_service(
            lambda: rounds.finish_event(event, request.user),
            lambda finished: event_json(finished, seated_count(finished)),
        )


class StaffGrant(serializers.Serializer):
    """A role in the event: who holds it and which."""

    grant = serializers.IntegerField(read_only=True)
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=EventRole.Role.choices)


def _grant_json(grant: EventRole) -> dict:
    return {"grant": grant.pk, "username": grant.user.username, "role": grant.role}


class Staff(APIView):
    """GET the event's organisers and judges; POST grants a role (organisers)."""

    @extend_schema(
        operation_id="staff_list",
        summary="The event's organisers and judges (organisers)",
        tags=["events"],
        responses=responses({200: (StaffGrant(many=True), "Every role grant.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        grants = event.roles.select_related("user").order_by("pk")
        return Response([_grant_json(g) for g in grants])

    @extend_schema(
        operation_id="staff_grant",
        summary="Make an account an organiser or judge of the event (organisers)",
        description="`username` is an existing account's; the answer's `grant` is the id "
        "that removes it. Refused (400) when no account has the username, or it holds the role "
        "already. Takes an optional `Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=StaffGrant,
        responses=responses(
            {201: (StaffGrant, "The new grant.")}, *BODY_ERRORS, 403, 404, 422, e422=E422
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        return once.api_once(request, lambda: self._grant(request, event))

    def _grant(self, request: Request, event: Event) -> Response:
        body = StaffGrant(data=request.data)
        if not body.is_valid():
            return refused(body)
        fields = body.validated_data
        return run_service(
            lambda: services.grant_role(event, fields["username"], fields["role"]),
            _grant_json,
            status.HTTP_201_CREATED,
        )


class StaffRevoke(APIView):
    @extend_schema(
        operation_id="staff_revoke",
        summary="Remove a role grant (organisers)",
        description="Refused (400) for the event's last organiser. Takes an optional "
        "`Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses=responses(
            {200: ({"type": "object"}, "Removed.")},
            400,
            403,
            404,
            422,
            e404="No such event, or no such grant in it.",
            e422=E422,
        ),
    )
    def delete(self, request: Request, event_id: int, grant_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        get_object_or_404(EventRole, event=event, pk=grant_id)
        return once.api_once(
            request,
            lambda: run_service(lambda: services.revoke_role(event, grant_id), lambda _: {}),
        )


class OpenOffer(serializers.Serializer):
    """A walk-in entry offered to an account, not answered yet."""

    offer = serializers.IntegerField()
    registration = serializers.IntegerField()
    player = serializers.CharField()
    username = serializers.CharField()
    offered_at = serializers.DateTimeField()


class Offers(APIView):
    @extend_schema(
        operation_id="offers_list",
        summary="The entries offered to accounts and not yet answered (organisers)",
        description="Each: the `offer`'s id, the entry (`registration`, its name `player`), "
        "the `username` it is offered to as typed, and when.",
        tags=["events"],
        responses=responses({200: (OpenOffer(many=True), "The open offers.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        return Response(
            [
                {
                    "offer": offer.pk,
                    "registration": offer.registration_id,
                    "player": offer.registration.display_name,
                    "username": offer.username,
                    "offered_at": offer.offered_at.isoformat(),
                }
                for offer in entry_offers.open_offers_in(event)
            ]
        )


class OfferWithdraw(APIView):
    @extend_schema(
        operation_id="offer_withdraw",
        summary="Withdraw an entry offered to an account that nobody answered (organisers)",
        description="The entry stays, a walk-in. Takes an optional `Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses=responses(
            {200: ({"type": "object"}, "Withdrawn.")},
            400,
            403,
            404,
            422,
            e400="The offer was answered already.",
            e404="No such event, or no such offer in it.",
            e422=E422,
        ),
    )
    def post(self, request: Request, event_id: int, offer_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        offer = get_object_or_404(
            EntryOffer.objects.select_related("registration"),
            pk=offer_id,
            registration__event=event,
        )
        return once.api_once(
            request,
            lambda: run_service(
                lambda: entry_offers.withdraw_offer(offer, request.user), lambda _: {}
            ),
        )


class Reminders(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
    )


class RemindersSent(serializers.Serializer):
    sent = serializers.ListField(child=serializers.CharField())
    unreachable = serializers.ListField(child=serializers.CharField())


class DecklistReminders(APIView):
    @extend_schema(
        operation_id="decklist_reminders",
        summary="E-mail a reminder to players without a legal submitted decklist (organisers)",
        description="`players`: the registration ids to remind; left out or empty, every "
        "player without a legal submitted decklist. Players who have one (or are not in the "
        "event) are passed over. The answer names whom it e-mailed (`sent`) and who has no "
        "address (`unreachable`: tell them in person). Takes "
        "an optional `Idempotency-Key` header: a retry with it e-mails nobody twice.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=Reminders,
        responses=responses(
            {200: (RemindersSent, "Whom it reached, and whom it could not.")},
            *BODY_ERRORS,
            403,
            404,
            422,
            e422=E422,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        return once.api_once(request, lambda: self._remind(request, event))

    def _remind(self, request: Request, event: Event) -> Response:
        body = Reminders(data=request.data)
        if not body.is_valid():
            return refused(body)
        chosen = set(body.validated_data.get("players", []))
        sent, unreachable = decklist_gate.remind_missing(event, chosen, request.user)
        return Response({"sent": sent, "unreachable": unreachable})


class CheckedIn(serializers.Serializer):
    registration = serializers.IntegerField()
    checked_in = serializers.BooleanField()


class SelfCheckIn(APIView):
    """POST: the logged-in player checks themself in (the event's self check-in)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="check_in_self",
        summary="Check yourself in (a registered player, while self check-in is open)",
        description="Open from the event's `self_check_in_opens` until round 1 is paired; "
        "otherwise 400 saying why. Checking in again changes nothing.",
        tags=["events"],
        request=None,
        responses=responses({200: (CheckedIn, "Your registration, checked in.")}, 400, 403, 404),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id)
        return run_service(
            lambda: services.self_check_in(event, request.user),
            lambda r: {"registration": r.pk, "checked_in": r.checked_in},
        )
