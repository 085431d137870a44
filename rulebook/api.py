"""``/api/v1/rules/``: the adjudication contract over HTTP.

The body is read and parsed here rather than by DRF's parsers so that every
way a body can be wrong (too big, not UTF-8, not JSON, NaN, nested too deep,
an integer too long to parse) becomes a 400 naming the problem.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter import jsonbody
from arbiter.jsonbody import BodyError
from rules_engine import PayloadError, UnknownGame, UnknownQuestion, adjudicate, catalogue
from rules_engine.registry import get_question

MAX_BODY_BYTES = 64 * 1024


def rule_on(request: HttpRequest, game: str, question: str) -> tuple[int, dict[str, Any]]:
    """Status and body for one adjudication request; shared by the API and the page."""
    try:
        get_question(game, question)
    except UnknownGame:
        return 404, {"errors": [{"field": None, "message": f"Arbiter has no game {game!r}."}]}
    except UnknownQuestion:
        return 404, {
            "errors": [{"field": None, "message": f"{game} has no question {question!r}."}]
        }
    try:
        payload = jsonbody.read_json_body(request, limit=MAX_BODY_BYTES, expected="the payload")
    except BodyError as exc:
        return 400, {"errors": [{"field": "(body)", "message": str(exc)}]}
    try:
        return 200, adjudicate(game, question, payload)
    except PayloadError as exc:
        return 400, {"errors": exc.errors}


class RulesCatalogue(APIView):
    """Every game, its questions, and the JSON Schema of each payload."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        return Response(catalogue())


class Adjudicate(APIView):
    """POST a payload, get the ruling. Open to everyone: it reads and changes nothing."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes: list = []

    def post(self, request: Request, game: str, question: str) -> Response:
        status, body = rule_on(request, game, question)
        return Response(body, status=status)
