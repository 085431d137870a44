"""``/api/v1/rules/``: the adjudication contract over HTTP.

The body is read and parsed here rather than by DRF's parsers so that every
way a body can be wrong (too big, not UTF-8, not JSON, NaN, nested too deep,
an integer too long to parse) becomes a 400 naming the problem.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules_engine import PayloadError, UnknownGame, UnknownQuestion, adjudicate, catalogue
from rules_engine.registry import get_question

MAX_BODY_BYTES = 64 * 1024


class BodyError(Exception):
    """A request body that cannot be a payload; the message says why."""


def _reject_constant(name: str) -> Any:
    raise BodyError(f"{name} is not valid JSON: numbers must be finite.")


def _too_big(size: int) -> str:
    return f"The body is {size} bytes; the limit is {MAX_BODY_BYTES} bytes."


def parse_json_body(raw: bytes) -> Any:
    """The payload, or BodyError naming what is wrong with the body."""
    if len(raw) > MAX_BODY_BYTES:
        raise BodyError(_too_big(len(raw)))
    if not raw.strip():
        raise BodyError("The body is empty: send the payload as a JSON object.")
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


def errors_response(status: int, errors: list[dict[str, Any]]) -> Response:
    return Response({"errors": errors}, status=status)


def rule_on(game: str, question: str, raw: bytes) -> tuple[int, dict[str, Any]]:
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
        payload = parse_json_body(raw)
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
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            # Refuse before reading: a huge body should not cost memory or time.
            return errors_response(400, [{"field": "(body)", "message": _too_big(int(declared))}])
        status, body = rule_on(game, question, request.body)
        return Response(body, status=status)
