"""Decklist API: card search, a decklist's legality, and reading and submitting a list,
with the same privacy as the pages."""

from __future__ import annotations

from dataclasses import asdict

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks import services
from decks.models import Card, Decklist, name_key
from tournaments.event.roles import event_for
from tournaments.models import Event, Registration
from web.api import error_response, run_service
from web.inputs import Reader
from web.openapi import BODY_ERRORS, BOOL, INT, STR, array, body, ref, responses

MAX_TEXT = 20_000  # a decklist's text
MAX_QUERY = 200  # a card search (only its first 60 characters are used)


def card_json(card: Card) -> dict:
    data = {"id": card.pk, "game": card.game, "name": card.name, "text": card.text}
    if card.game == "iacta":
        data.update(
            syndicate=card.syndicate or None,
            tier=card.tier,
            card_class=card.card_class,
            speed=card.speed,
            cost=card.cost.split(),
            max_copies=card.max_copies,
        )
    else:
        data.update(
            type=card.card_type,
            subtypes=card.subtypes.split(),
            gpu=card.gpu,
            atk=card.atk,
            hp=card.hp,
        )
    return data


def decklist_json(decklist: Decklist) -> dict:
    return {
        "player": decklist.registration.public_id,
        "name": decklist.registration.display_name,
        "status": decklist.status,
        "legal": decklist.legal,
        "violations": decklist.violations,
        "main": decklist.main,
        "sideboard": decklist.sideboard,
        "submitted_at": decklist.submitted_at.isoformat() if decklist.submitted_at else None,
    }


class CardSearch(APIView):
    """GET ?game=iacta&q=ember: up to 50 cards whose name contains the query."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="cards_search",
        summary="Cards whose name contains the query (up to 50)",
        tags=["decks"],
        parameters=[
            OpenApiParameter(
                "game", str, OpenApiParameter.QUERY, required=True, enum=["iacta", "dataclysm"]
            ),
            OpenApiParameter(
                "q",
                str,
                OpenApiParameter.QUERY,
                description=f"Part of the name (at most {MAX_QUERY} characters).",
            ),
        ],
        responses=responses({200: (array(ref("Card")), "The cards, by name.")}, 400, 403),
    )
    def get(self, request: Request) -> Response:
        fields = Reader(request.query_params)
        game = fields.choice("game", ("iacta", "dataclysm"))
        query = " ".join(fields.text("q", max_length=MAX_QUERY).split())[:60]
        fields.check()
        cards = Card.objects.filter(game=game, key__contains=name_key(query)).order_by("name")[:50]
        return Response([card_json(c) for c in cards])


class Legality(APIView):
    """POST {"event": id, "text": "..."}: the legality report of a list, not saved."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="decklist_legality",
        summary="Check a decklist's text against an event's rules (nothing saved)",
        tags=["decks"],
        request=body(
            ["event", "text"],
            event={**INT, "description": "A published event's id."},
            text={**STR, "maxLength": MAX_TEXT},
            example={"event": 1, "text": "4 Ember Tithe"},
        ),
        responses=responses(
            {200: (ref("DeckReport"), "The report: entries, unread lines, unknown names.")},
            *BODY_ERRORS,
            403,
        ),
    )
    def post(self, request: Request) -> Response:
        fields = Reader(request.data)
        published = _("event must be the id of a published event.")
        visible = Event.objects.visible_to(request.user)
        event = fields.row("event", visible, missing=published, message=published)
        text = _decklist_text(fields)
        fields.check()
        return run_service(lambda: services.check_text(event, text), asdict)


def _decklist_text(fields: Reader) -> str:
    """The list as typed: any text up to the limit, an empty one too (a blank draft)."""
    message = _("text must be the decklist as text (at most 20,000 characters).")
    if fields.data.get("text") is None:
        fields.fail("text", message)
        return ""
    return fields.text("text", max_length=MAX_TEXT, message=message)


def _registration(request: Request, event: Event, who: str) -> Registration:
    if who == "mine":
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Log in first."))
        registration = Registration.objects.filter(event=event, user=request.user).first()
        if registration is None:
            raise PermissionDenied(_("You are not a player in this event."))
        return registration
    registration = Registration.objects.filter(
        event=event, pk=who if who.isascii() and who.isdigit() else 0
    ).first()
    if registration is None:
        from rest_framework.exceptions import NotFound

        raise NotFound(_("No such player in this event."))
    return registration


WHO = OpenApiParameter(
    "who", str, OpenApiParameter.PATH, description="`mine`, or a registration id."
)


class DecklistView(APIView):
    """GET a decklist (its player, the staff, or anyone once published);
    PUT {"text": ..., "submit": bool} — the player's own list only."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="decklist_detail",
        summary="A player's decklist (theirs, the staff's, or anyone's once published)",
        tags=["decks"],
        parameters=[WHO],
        responses=responses(
            {200: (ref("Decklist"), "The decklist.")},
            403,
            404,
            e404="No such event or player, or no decklist registered.",
        ),
    )
    def get(self, request: Request, event_id: int, who: str) -> Response:
        event = event_for(request, event_id)
        registration = _registration(request, event, who)
        if not services.may_view_decklist(request.user, registration):
            raise PermissionDenied(_("This decklist is private until the organiser publishes it."))
        decklist = Decklist.objects.filter(registration=registration).first()
        if decklist is None:
            return error_response(_("No decklist is registered."), code=404)
        return Response(decklist_json(decklist))

    @extend_schema(
        operation_id="decklist_save",
        summary="Save (and optionally submit) the player's own decklist",
        tags=["decks"],
        parameters=[WHO],
        request=body(["text"], text={**STR, "maxLength": MAX_TEXT}, submit=BOOL),
        responses=responses(
            {
                200: (
                    {"allOf": [ref("Decklist"), {"properties": {"report": ref("DeckReport")}}]},
                    "Saved, with the legality report.",
                )
            },
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def put(self, request: Request, event_id: int, who: str) -> Response:
        event = event_for(request, event_id)
        registration = _registration(request, event, who)
        if registration.user_id != getattr(request.user, "pk", None):
            raise PermissionDenied(_("Only the player submits their decklist."))
        fields = Reader(request.data)
        text = _decklist_text(fields)
        submit = fields.boolean("submit")
        fields.check()
        return run_service(
            lambda: services.save_decklist(registration, text, submit=submit, actor=request.user),
            lambda saved: {**decklist_json(saved[0]), "report": asdict(saved[1])},
        )
