"""The judging API: penalties and judge calls, for the judges and organisers of an event.

The same services and permissions as the pages. Errors come back as
``{"errors": [{"field": ..., "message": ...}]}``: 400 for a body that does not fit
(naming the field) or a refused change, 403 for anyone but the event's judges,
organisers and superusers, 404 for an unknown event, penalty or call.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from judging import calls
from judging.models import JudgeCall, Penalty
from judging.penalties import (
    Preview,
    check_game,
    check_player_in_match,
    issue_penalty,
    preview_penalty,
    void_penalty,
)
from judging.reports import consequence_text, infraction_label
from rules_engine.iacta.tournament import INFRACTIONS
from tournaments.api import event_for, run_service
from tournaments.models import Event, Match, Registration
from tournaments.roles import JUDGE, ORGANISER
from tournaments.services import ServiceError
from web.openapi import BODY_ERRORS, BOOL, INT, NULL_INT, STR, array, body, obj, ref, responses

STAFF = (ORGANISER, JUDGE)
MAX_ID = 2**63 - 1  # the id columns' ceiling: a larger number is no row's id
WHOLE_NUMBER = re.compile(r"\s*-?[0-9]+\s*")
TRUE_WORDS, FALSE_WORDS = {"true", "on", "1", "yes"}, {"false", "off", "0", "no", ""}


class Body:
    """A request body read field by field; every problem is collected, then raised at once."""

    def __init__(self, request: Request):
        if not isinstance(request.data, Mapping):
            raise ValidationError({None: ["Send the fields as a JSON object."]})
        self.data = request.data
        self.problems: dict[str | None, list[str]] = {}

    def fail(self, field: str, message: str) -> None:
        self.problems.setdefault(field, []).append(message)

    def check(self) -> None:
        """Raise a 400 listing every problem found so far."""
        if self.problems:
            raise ValidationError(self.problems)

    def integer(self, field: str, *, required: bool = True) -> int | None:
        value = self.data.get(field)
        if value is None or value == "":
            if required:
                self.fail(field, f"{field} is required.")
            return None
        if isinstance(value, str) and WHOLE_NUMBER.fullmatch(value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, f"{field} must be a whole number.")
            return None
        return value

    def text(self, field: str, *, required: bool = False) -> str:
        value = self.data.get(field, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            self.fail(field, f"{field} must be text.")
            return ""
        if required and not value.strip():
            self.fail(field, f"{field} is required.")
        return value

    def boolean(self, field: str) -> bool:
        value = self.data.get(field, False)
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
            return value.strip().lower() in TRUE_WORDS
        self.fail(field, f"{field} must be true or false.")
        return False

    def row(self, field: str, rows: QuerySet, what: str, *, required: bool = True) -> Any:
        """The row of ``rows`` whose id the field holds: ids from elsewhere are refused."""
        pk = self.integer(field, required=required)
        if pk is None:
            return None
        found = rows.filter(pk=pk).first() if 1 <= pk <= MAX_ID else None
        if found is None:
            self.fail(field, f"This event has no {what} {pk}.")
        return found


# --- penalties ---------------------------------------------------------------------------


@dataclass
class PenaltyInput:
    player: Registration
    infraction: str
    game: int
    match: Match | None


def _penalty_input(body: Body, event: Event) -> PenaltyInput:
    """Read and check a penalty body, naming each field that is wrong."""
    matches = Match.objects.filter(round__event=event).select_related("round")
    match = body.row("match", matches, "match", required=False)
    player = body.row("player", event.registrations.select_related("user"), "player")
    infraction = body.data.get("infraction")
    if infraction is None or infraction == "":
        body.fail("infraction", "infraction is required.")
    elif not isinstance(infraction, str) or infraction not in INFRACTIONS:
        body.fail("infraction", f"Unknown infraction; one of: {', '.join(INFRACTIONS)}.")
    game = body.integer("game", required=False)
    game = 1 if game is None else game
    if player is not None:
        for field, check in (
            ("player", lambda: check_player_in_match(player, match)),
            ("game", lambda: check_game(game, event)),
        ):
            try:
                check()
            except ServiceError as exc:
                body.fail(field, str(exc))
    body.check()
    return PenaltyInput(player, infraction, game, match)


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def consequence_json(consequence: Mapping[str, Any]) -> dict[str, Any]:
    """A consequence without its undo record, which is the service's business."""
    return {
        "result": consequence["result"],
        "game": consequence.get("game"),
        "rule": consequence["rule"],
        "text": consequence_text(consequence),
    }


def penalty_json(penalty: Penalty) -> dict[str, Any]:
    return {
        "id": penalty.pk,
        "event": penalty.event_id,
        "round": penalty.round.number if penalty.round_id else None,
        "match": penalty.match_id,
        "table": penalty.match.table if penalty.match_id else None,
        "player": {"registration": penalty.player_id, "name": penalty.player.display_name},
        "game": penalty.game,
        "infraction": penalty.infraction,
        "infraction_label": infraction_label(penalty.infraction),
        "rule": penalty.rule,
        "notes": penalty.notes,
        "judge": penalty.judge.get_username() if penalty.judge_id else None,
        "issued_at": _iso(penalty.issued_at),
        "consequences": [consequence_json(c) for c in penalty.consequences],
        "voided": penalty.is_void,
        "voided_at": _iso(penalty.voided_at),
        "voided_by": penalty.voided_by.get_username() if penalty.voided_by_id else None,
        "void_reason": penalty.void_reason,
    }


def preview_json(preview: Preview) -> dict[str, Any]:
    return {
        "consequences": [consequence_json(c) for c in preview.consequences],
        "summary": preview.summary,
        "explanation": preview.explanation,
        "citations": preview.citations,
        "tallies": preview.tallies,
    }


def _penalties() -> QuerySet:
    return Penalty.objects.select_related(
        "round", "match", "player__user", "judge", "voided_by"
    ).order_by("issued_at", "pk")


# What a judge sends to preview or issue a penalty: the same fields either way.
PENALTY_BODY = body(
    ["player", "infraction"],
    match={**NULL_INT, "description": "The match (table); leave out outside a match."},
    player={**INT, "description": "The player's registration id."},
    infraction={"type": "string", "enum": list(INFRACTIONS)},
    game={**INT, "minimum": 1},
    notes=STR,
)


class PenaltyPreview(APIView):
    """POST {match, player, infraction, game}: what the penalty would cause, before issuing."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="penalty_preview",
        summary="What a penalty would cause, before issuing it",
        tags=["judging"],
        request=PENALTY_BODY,
        responses=responses(
            {200: (ref("PenaltyPreview"), "The consequences and the rules applied.")},
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, *STAFF)
        given = _penalty_input(Body(request), event)
        return run_service(
            lambda: preview_penalty(given.player, given.infraction, given.game, given.match),
            preview_json,
        )


class PenaltyList(APIView):
    """GET every penalty of the event (voided ones too); POST issues one (plus ``notes``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="penalties_list",
        summary="Every penalty of the event (voided ones too)",
        tags=["judging"],
        responses=responses({200: (array(ref("Penalty")), "In the order issued.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, *STAFF)
        return Response([penalty_json(p) for p in _penalties().filter(event=event)])

    @extend_schema(
        operation_id="penalty_issue",
        summary="Issue a penalty",
        tags=["judging"],
        request=PENALTY_BODY,
        responses=responses(
            {201: (ref("Penalty"), "Issued, with what it caused.")}, *BODY_ERRORS, 403, 404
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, *STAFF)
        body = Body(request)
        notes = body.text("notes")
        given = _penalty_input(body, event)
        return run_service(
            lambda: issue_penalty(
                given.player,
                given.infraction,
                request.user,
                game=given.game,
                match=given.match,
                notes=notes,
            ),
            lambda penalty: penalty_json(_penalties().get(pk=penalty.pk)),
            status.HTTP_201_CREATED,
        )


class PenaltyVoid(APIView):
    """POST {reason}: void a penalty; ``manual`` says what must be put right by hand."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="penalty_void",
        summary="Void a penalty",
        tags=["judging"],
        request=body(["reason"], reason=STR),
        responses=responses(
            {
                200: (
                    obj(["penalty", "manual"], penalty=ref("Penalty"), manual=array(STR)),
                    "Voided; `manual` lists what must be put right by hand.",
                )
            },
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def post(self, request: Request, penalty_id: int) -> Response:
        penalty = get_object_or_404(Penalty, pk=penalty_id)
        event_for(request, penalty.event_id, *STAFF)
        body = Body(request)
        reason = body.text("reason", required=True)
        body.check()
        return run_service(
            lambda: void_penalty(penalty, request.user, reason),
            lambda manual: {
                "penalty": penalty_json(_penalties().get(pk=penalty.pk)),
                "manual": manual,
            },
        )


# --- judge calls -------------------------------------------------------------------------


def _calls() -> QuerySet:
    return JudgeCall.objects.select_related("round", "match", "judge")


def call_json(call: JudgeCall) -> dict[str, Any]:
    ruling = None
    if call.ruling_question:
        ruling = {
            "game": call.ruling_game,
            "question": call.ruling_question,
            "payload": call.ruling_payload,
            "answer": call.ruling_answer,
        }
    return {
        "id": call.pk,
        "event": call.event_id,
        "round": call.round.number if call.round_id else None,
        "match": call.match_id,
        "table": call.table,
        "question": call.question,
        "called_at": _iso(call.called_at),
        "judge": call.judge.get_username() if call.judge_id else None,
        "open": call.is_open,
        "resolution": call.resolution,
        "resolved_at": _iso(call.resolved_at),
        "minutes": call.minutes,
        "extension_minutes": call.extension_minutes,
        "match_extension_minutes": call.match.extension_minutes if call.match_id else None,
        "ruling": ruling,
    }


class CallList(APIView):
    """GET the event's calls, newest first; POST {table or match, question} logs one."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="calls_list",
        summary="The event's judge calls, newest first",
        tags=["judging"],
        responses=responses({200: (array(ref("JudgeCall")), "The calls.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, *STAFF)
        return Response([call_json(c) for c in _calls().filter(event=event)])

    @extend_schema(
        operation_id="call_open",
        summary="Log a judge call",
        tags=["judging"],
        request=body(["question"], table=NULL_INT, match=NULL_INT, question=STR),
        responses=responses({201: (ref("JudgeCall"), "The call, open.")}, *BODY_ERRORS, 403, 404),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, *STAFF)
        body = Body(request)
        matches = Match.objects.filter(round__event=event)
        match = body.row("match", matches, "match", required=False)
        table = body.integer("table", required=False)
        question = body.text("question", required=True)
        body.check()
        return run_service(
            lambda: calls.open_call(
                event, request.user, question=question, table=table, match=match
            ),
            lambda call: call_json(_calls().get(pk=call.pk)),
            status.HTTP_201_CREATED,
        )


class CallResolve(APIView):
    """POST {resolution, minutes, grant_extension, ruling?: {game, question, payload}}."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="call_resolve",
        summary="Resolve a judge call (with an optional engine ruling)",
        tags=["judging"],
        request=body(
            ["resolution", "minutes"],
            resolution=STR,
            minutes={**INT, "minimum": 0},
            grant_extension=BOOL,
            ruling={
                "type": ["object", "null"],
                "properties": {"game": STR, "question": STR, "payload": {}},
            },
        ),
        responses=responses(
            {200: (ref("JudgeCall"), "The call, resolved.")}, *BODY_ERRORS, 403, 404
        ),
    )
    def post(self, request: Request, call_id: int) -> Response:
        call = get_object_or_404(JudgeCall, pk=call_id)
        event_for(request, call.event_id, *STAFF)
        body = Body(request)
        resolution = body.text("resolution", required=True)
        minutes = body.integer("minutes")
        grant_extension = body.boolean("grant_extension")
        ruling = body.data.get("ruling")
        if ruling is not None and not isinstance(ruling, Mapping):
            body.fail("ruling", "ruling must be an object: {game, question, payload}.")
        body.check()
        return run_service(
            lambda: calls.resolve_call(
                call,
                request.user,
                resolution=resolution,
                minutes=minutes,
                grant_extension=grant_extension,
                ruling=dict(ruling) if ruling is not None else None,
            ),
            lambda done: call_json(_calls().get(pk=done.pk)),
        )
