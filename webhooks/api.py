"""The webhooks API: an organiser's subscriptions, their deliveries, a replay.

``/api/v1/webhooks/``: list (GET) and subscribe (POST ``url``, ``event`` or ``series``,
optional ``announcements`` and ``description``); the answer to a POST is the only one
that always shows the secret (its owner reads it again at ``/api/v1/webhooks/<id>/``).
A URL the outbound guard refuses (private, loopback, link-local, a name resolving to one)
is a 400 naming ``url``. docs/webhooks.md describes what is sent.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from series.models import Series
from tournaments import once
from tournaments.models import Event
from web.inputs import Reader
from web.openapi import (
    BODY_ERRORS,
    BOOL,
    COMPONENTS,
    DATETIME,
    IDEMPOTENCY_KEY,
    INT,
    NULL_DATETIME,
    NULL_INT,
    NULL_STR,
    STR,
    array,
    body,
    obj,
    ref,
    responses,
)
from webhooks import announcements, subscriptions
from webhooks.models import Delivery, Subscription

WEBHOOK_SCHEMA = obj(
    ["id", "url", "event", "series", "announcements", "active", "failures", "created"],
    id=INT,
    url=STR,
    description=STR,
    event=NULL_INT,
    series=NULL_INT,
    announcements={
        **array({"type": "string", "enum": list(announcements.KINDS)}),
        "description": "The announcements sent; empty: every one.",
    },
    active=BOOL,
    failures={**INT, "description": "Deliveries failed in a row (turned off at 5, by default)."},
    disabled_at=NULL_DATETIME,
    disabled_reason=STR,
    discord={**BOOL, "description": "A Discord webhook: sent as Discord messages, unsigned."},
    secret={**STR, "description": "`whsec_`+base64: to its owner only."},
    created=DATETIME,
)
DELIVERY_SCHEMA = obj(
    ["id", "message_id", "type", "outcome", "attempts"],
    id=INT,
    message_id={**STR, "description": "The `webhook-id` header."},
    type=STR,
    payload={"type": "object"},
    outcome={"type": "string", "enum": ["pending", "delivered", "failed"]},
    attempts=INT,
    status_code=NULL_INT,
    response_excerpt=STR,
    error=STR,
    created=DATETIME,
    last_attempt_at=NULL_DATETIME,
    delivered_at=NULL_DATETIME,
    tries=array(
        obj(
            ["number", "at"],
            number=INT,
            at=DATETIME,
            status_code=NULL_INT,
            error=NULL_STR,
            replay=BOOL,
        )
    ),
)

# Named once in the schema (web.openapi's components), each operation referring to it.
COMPONENTS.setdefault("Webhook", WEBHOOK_SCHEMA)
COMPONENTS.setdefault("WebhookDelivery", DELIVERY_SCHEMA)
WEBHOOK, DELIVERY = ref("Webhook"), ref("WebhookDelivery")


def webhook_json(subscription: Subscription, user) -> dict:
    from webhooks.discord import is_discord

    data = {
        "id": subscription.pk,
        "url": subscription.url,
        "description": subscription.description,
        "event": subscription.event_id,
        "series": subscription.series_id,
        "announcements": list(subscription.announcements),
        "active": subscription.active,
        "failures": subscription.failures,
        "disabled_at": subscription.disabled_at.isoformat() if subscription.disabled_at else None,
        "disabled_reason": subscription.disabled_reason,
        "discord": is_discord(subscription.url),
        "created": subscription.created.isoformat(),
    }
    if subscription.owner_id == user.pk:
        data["secret"] = subscription.secret
    return data


def delivery_json(delivery: Delivery, tries: bool = False) -> dict:
    data = {
        "id": delivery.pk,
        "message_id": delivery.message_id,
        "type": delivery.kind,
        "payload": delivery.payload,
        "outcome": delivery.outcome,
        "attempts": delivery.attempts,
        "status_code": delivery.status_code,
        "response_excerpt": delivery.response_excerpt,
        "error": delivery.error,
        "created": delivery.created.isoformat(),
        "last_attempt_at": delivery.last_attempt_at.isoformat()
        if delivery.last_attempt_at
        else None,
        "delivered_at": delivery.delivered_at.isoformat() if delivery.delivered_at else None,
    }
    if tries:
        data["tries"] = [
            {
                "number": t.number,
                "at": t.at.isoformat(),
                "status_code": t.status_code,
                "error": t.error or None,
                "replay": t.replay,
            }
            for t in delivery.tries.all()
        ]
    return data


def managed(request: Request, webhook_id: int) -> Subscription:
    """The subscription, when the caller may manage it: 404 for none, 403 for another's."""
    subscription = get_object_or_404(
        Subscription.objects.select_related("event", "series"), pk=webhook_id
    )
    if not subscriptions.may_manage(request.user, subscription):
        raise PermissionDenied(_("Only the organisers of its event or series may see it."))
    return subscription


class WebhookList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="webhooks_list",
        summary="The webhooks of the events and series you organise",
        tags=["webhooks"],
        responses=responses({200: (array(WEBHOOK), "Oldest first.")}, 403),
    )
    def get(self, request: Request) -> Response:
        rows = subscriptions.visible_to(request.user)
        return Response([webhook_json(s, request.user) for s in rows])

    @extend_schema(
        operation_id="webhook_create",
        summary="Send an event's (or a series') announcements to a URL",
        description="`url`: https, on a public address (a private, loopback or link-local "
        "one, or a name resolving to one, is refused naming `url`). Exactly one of `event` "
        "and `series`. The answer carries the signing `secret` (docs/webhooks.md).",
        tags=["webhooks"],
        parameters=[IDEMPOTENCY_KEY],
        request=body(
            ["url"],
            example={"url": "https://example.org/hooks/arbiter", "event": 12},
            url=STR,
            event=INT,
            series=INT,
            announcements=array({"type": "string", "enum": list(announcements.KINDS)}),
            description=STR,
        ),
        responses=responses({201: (WEBHOOK, "Subscribed.")}, *BODY_ERRORS, 403, 422),
    )
    def post(self, request: Request) -> Response:
        return once.api_once(request, lambda: self._create(request))

    def _create(self, request: Request) -> Response:
        fields = Reader(request.data)
        event = fields.row("event", Event.objects.all(), required=False)
        series = fields.row("series", Series.objects.all(), required=False)
        url = fields.text("url", required=True, max_length=subscriptions.MAX_URL, strip=True)
        description = fields.text("description", max_length=200)
        fields.check()
        subscription = subscriptions.subscribe(
            request.user,
            url=url,
            event=event,
            series=series,
            chosen=request.data.get("announcements"),
            description=description,
        )
        return Response(webhook_json(subscription, request.user), status=201)


class WebhookDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="webhook_detail",
        summary="A webhook (its secret to its owner)",
        tags=["webhooks"],
        responses=responses({200: (WEBHOOK, "The webhook.")}, 403, 404),
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        return Response(webhook_json(managed(request, webhook_id), request.user))

    @extend_schema(
        operation_id="webhook_update",
        summary="Turn a webhook on again (its failures forgotten) or off",
        tags=["webhooks"],
        request=body(["active"], example={"active": True}, active=BOOL),
        responses=responses({200: (WEBHOOK, "As it is now.")}, *BODY_ERRORS, 403, 404),
    )
    def patch(self, request: Request, webhook_id: int) -> Response:
        subscription = managed(request, webhook_id)
        fields = Reader(request.data)
        active = fields.boolean("active", default=subscription.active)
        fields.check()
        if active and not subscription.active:
            subscriptions.switch_on(subscription)
        elif not active and subscription.active:
            subscription.active = False
            subscription.save(update_fields=["active"])
        return Response(webhook_json(subscription, request.user))

    @extend_schema(
        operation_id="webhook_delete",
        summary="Stop sending to a webhook, its deliveries' log deleted with it",
        tags=["webhooks"],
        responses=responses({204: (None, "Deleted.")}, 403, 404),
    )
    def delete(self, request: Request, webhook_id: int) -> Response:
        managed(request, webhook_id).delete()
        return Response(status=204)


class DeliveryList(APIView):
    permission_classes = [permissions.IsAuthenticated]
    SHOWN = 100

    @extend_schema(
        operation_id="webhook_deliveries",
        summary="A webhook's latest deliveries (100), newest first, with each attempt",
        tags=["webhooks"],
        responses=responses({200: (array(DELIVERY), "Newest first.")}, 403, 404),
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        subscription = managed(request, webhook_id)
        rows = subscription.deliveries.prefetch_related("tries")[: self.SHOWN]
        return Response([delivery_json(d, tries=True) for d in rows])


class DeliveryReplay(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="webhook_delivery_replay",
        summary="Send a logged delivery again (same webhook-id, fresh signature)",
        tags=["webhooks"],
        request=None,
        responses=responses({202: (DELIVERY, "Queued.")}, 400, 403, 404),
    )
    def post(self, request: Request, webhook_id: int, delivery_id: int) -> Response:
        subscription = managed(request, webhook_id)
        delivery = get_object_or_404(subscription.deliveries, pk=delivery_id)
        subscriptions.replay(delivery)
        return Response(delivery_json(delivery), status=202)
