"""``/api/v1/rules/``: the adjudication contract over HTTP.

The body is read and parsed here rather than by DRF's parsers so that every
way a body can be wrong (too big, not UTF-8, not JSON, NaN, nested too deep,
an integer too long to parse) becomes a 400 naming the problem.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules_engine import (
    PayloadError,
    UnknownGame,
    UnknownQuestion,
    adjudicate,
    catalogue,
    check_payload,
    get_question,
)
from web import jsonbody
from web.jsonbody import BodyError
from web.openapi import json_body, ref, responses

MAX_BODY_BYTES = 64 * 1024


def rule_on(request: HttpRequest, game: str, question: str) -> tuple[int, dict[str, Any]]:
    """Status and body for one adjudication request; shared by the API and the page."""
    try:
        get_question(game, question)
    except UnknownGame:
        message = _("Arbiter has no game %(game)s.") % {"game": repr(game)}
        return 404, {"errors": [{"field": None, "message": message}]}
    except UnknownQuestion:
        message = _("%(game)s has no question %(question)s.") % {
            "game": game,
            "question": repr(question),
        }
        return 404, {"errors": [{"field": None, "message": message}]}
    try:
        payload = jsonbody.read_json_body(request, limit=MAX_BODY_BYTES, expected="the payload")
    except BodyError as exc:
        return 400, {"errors": [{"field": exc.field or "(body)", "message": str(exc)}]}
    try:
        payload = whole_numbers_as_ints(payload)
    except RecursionError:
        message = _("The body is nested too deeply.")
        return 400, {"errors": [{"field": "(body)", "message": message}]}
    try:
        check_payload(game, question, payload)  # a bad payload never reaches the DB
        return 200, adjudicate(game, question, with_card_database(game, question, payload))
    except PayloadError as exc:
        return 400, {"errors": exc.errors}


def whole_numbers_as_ints(value: Any) -> Any:
    """``2.0`` read as ``2``: JSON has one number type and JSON Schema's "integer" accepts
    ``2.0``, but the engine's arithmetic and messages expect Python ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers_as_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers_as_ints(item) for item in value]
    return value


CARD_QUESTIONS = {("iacta", "deck-legality"), ("iacta", "sideboard-swap")}


def with_card_database(game: str, question: str, payload: Any) -> Any:
    """Without ``cards`` the server's card database is used (adjudication contract)."""
    if (game, question) not in CARD_QUESTIONS or not isinstance(payload, dict):
        return payload
    if "cards" in payload:
        return payload
    from decks.models import Card, name_key

    names = {
        entry["name"]
        for entry in _entries(payload)
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    }
    # A NUL is in no card's name, and PostgreSQL refuses it in a query.
    keys = {name_key(n): n for n in names if "\x00" not in n}
    cards = {}
    for card in Card.objects.filter(game=game, key__in=list(keys)):
        data = {"syndicate": card.syndicate or None, "tier": card.tier}
        if card.max_copies:
            data["max_copies"] = card.max_copies
        cards[keys[card.key]] = data
    return {**payload, "cards": cards}


def _entries(payload: dict) -> list:
    """Every {name, count} entry of a deck-legality or sideboard-swap payload."""
    zones = [payload]
    zones += [
        payload[k]
        for k in ("registered", "previous", "proposed")
        if isinstance(payload.get(k), dict)
    ]
    return [
        entry
        for zone in zones
        for key in ("main", "sideboard")
        if isinstance(zone.get(key), list)
        for entry in zone[key]
    ]


class RulesCatalogue(APIView):
    """Every game, its questions, and the JSON Schema of each payload."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rules_catalogue",
        summary="Every game, its questions and each payload's JSON Schema",
        tags=["rules"],
        responses=responses({200: (ref("RulesCatalogue"), "The catalogue.")}),
    )
    def get(self, request: Request) -> Response:
        return Response(catalogue())


class Adjudicate(APIView):
    """POST a payload, get the ruling. Open to everyone: it reads and changes nothing."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes: list = []

    @extend_schema(
        operation_id="rules_adjudicate",
        summary="Rule on a game state (docs/adjudication-api.md)",
        tags=["rules"],
        request=json_body({"type": "object"}),
        responses=responses(
            {200: (ref("Ruling"), "The ruling, citing the rules it applied.")},
            400,
            404,
            e400="The payload does not fit the question's schema (or is not JSON).",
            e404="No such game or question.",
        ),
    )
    def post(self, request: Request, game: str, question: str) -> Response:
        status, body = rule_on(request, game, question)
        return Response(body, status=status)
