"""The judging API: penalties and judge calls, for the judges and organisers of an event.

The same services and permissions as the pages. Errors come back as
``{"errors": [{"field": ..., "message": ...}]}``: 400 for a body that does not fit
(naming the field) or a refused change, 403 for anyone but the event's judges,
organisers and superusers, 404 for an unknown event, penalty or call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
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
    result_changes,
    void_penalty,
)
from judging.reports import consequence_text, infraction_label
from rules_engine.tournament import every_infraction, rules_for
from tournaments import once
from tournaments.event.roles import JUDGE, ORGANISER, event_for
from tournaments.models import Event, Match, Registration
from tournaments.record.match_games import GameWinner
from tournaments.results.penalties import NOT_ASKED, JudgeSays
from web.api import run_service
from web.inputs import Reader
from web.openapi import (
    BODY_ERRORS,
    BOOL,
    IDEMPOTENCY_KEY,
    INT,
    NULL_INT,
    STR,
    array,
    body,
    obj,
    ref,
    responses,
)

STAFF = (ORGANISER, JUDGE)
MAX_TEXT = calls.MAX_TEXT


# --- penalties ---------------------------------------------------------------------------


@dataclass
class PenaltyInput:
    player: Registration
    infraction: str
    game: int
    match: Match | None
    says: JudgeSays = NOT_ASKED


def _judge_says(fields: Reader, match: Match | None) -> JudgeSays:
    """Optional answers for a Game Loss on a result already in: ``in_result`` (true/false:
    the players' result already includes it) and ``game_winner`` (a player id of the
    table, or "draw": who won that game, when the stored result cannot tell)."""
    in_result = fields.boolean("in_result") if fields.has("in_result") else None
    winner = None
    if fields.has("game_winner"):
        said = fields.data.get("game_winner")
        players = (match.player_a_id, match.player_b_id) if match is not None else ()
        if said == "draw":
            winner = GameWinner(True, None)
        elif isinstance(said, int) and not isinstance(said, bool) and said in players:
            winner = GameWinner(True, said)
        else:
            fields.fail("game_winner", 'game_winner is a player id of the table, or "draw".')
    return JudgeSays(in_result=in_result, winner=winner)


def _penalty_input(fields: Reader, event: Event) -> PenaltyInput:
    """Read and check a penalty body, naming each field that is wrong."""
    matches = Match.objects.filter(round__event=event).select_related("round")
    match = fields.row("match", matches, required=False, missing=NOT_IN_EVENT)
    player = fields.row("player", event.registrations.select_related("user"), missing=NOT_IN_EVENT)
    infractions = rules_for(event.game).infractions  # the event's game's vocabulary
    infraction = fields.choice(
        "infraction",
        infractions,
        message=f"Unknown infraction; one of: {', '.join(infractions)}."
        if fields.has("infraction")
        else "infraction is required.",
    )
    game = fields.integer("game", required=False)
    game = 1 if game is None else game
    if player is not None:
        fields.checked("player", lambda: check_player_in_match(player, match))
        fields.checked("game", lambda: check_game(game, event, match))
    says = _judge_says(fields, match)
    fields.check()
    return PenaltyInput(player, infraction, game, match, says)


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
        "change": preview.change,
        "result_change": preview.result_change,
        "confirm_change": preview.confirmation,
        "explanation": preview.explanation,
        "citations": preview.citations,
        "tallies": preview.tallies,
    }


def result_change_json(change) -> dict[str, Any]:
    """One change a penalty made to a result (a ResultChange naming it)."""
    return {
        "match": change.match_id,
        "action": change.action,
        "before": change.before.get("score"),
        "after": change.after.get("score"),
        "status": change.after.get("status"),
        "rule": change.rule,
        "reason": change.reason,
        "at": _iso(change.changed_at),
    }


def issued_json(penalty: Penalty) -> dict[str, Any]:
    """The penalty as issued, with the result changes it made (``result_changes``)."""
    issued = _penalties().get(pk=penalty.pk)
    return {
        **penalty_json(issued),
        "result_changes": [result_change_json(c) for c in result_changes(issued)],
    }


def _penalties() -> QuerySet:
    return Penalty.objects.select_related(
        "event", "round", "match", "player__user", "judge", "voided_by"
    ).order_by("issued_at", "pk")


NOT_IN_EVENT = "This event has no {field} {id}."

# What a judge sends to preview or issue a penalty: the same fields either way.
PENALTY_BODY = body(
    ["player", "infraction"],
    match={**NULL_INT, "description": "The match (table); leave out outside a match."},
    player={**INT, "description": "The player's registration id."},
    infraction={"type": "string", "enum": list(every_infraction())},  # any game's
    game={**INT, "minimum": 1},
    notes={**STR, "maxLength": MAX_TEXT},
    confirm_change={
        **STR,
        "description": "Optional: the preview's `confirm_change`. When sent, a penalty that "
        "would change an existing result otherwise is refused (400, field confirm_change).",
    },
    in_result={
        "type": "boolean",
        "description": "For a Game Loss on a match that already has a result: whether the "
        "players' result already includes it. Refused without it (400, field in_result).",
    },
    game_winner={
        "type": ["integer", "string"],
        "description": 'Who won the game penalised (a player id of the table, or "draw"), '
        "when the result is not yet including it and the stored score cannot tell "
        "(400, field game_winner, until given).",
    },
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
        given = _penalty_input(Reader(request.data), event)
        return run_service(
            lambda: preview_penalty(
                given.player, given.infraction, given.game, given.match, given.says
            ),
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
        parameters=[IDEMPOTENCY_KEY],
        responses=responses(
            {201: (ref("Penalty"), "Issued, with what it caused.")}, *BODY_ERRORS, 403, 404, 422
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        return once.api_once(request, lambda: self._issue(request, event_id))

    def _issue(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, *STAFF)
        fields = Reader(request.data)
        notes = fields.text("notes", max_length=MAX_TEXT)
        sent = "confirm_change" in fields.data
        confirmed = fields.text("confirm_change", max_length=MAX_TEXT) if sent else None
        given = _penalty_input(fields, event)
        return run_service(
            lambda: issue_penalty(
                given.player,
                given.infraction,
                request.user,
                game=given.game,
                match=given.match,
                notes=notes,
                confirmed=confirmed,
                says=given.says,
            ),
            issued_json,
            status.HTTP_201_CREATED,
        )


class PenaltyVoid(APIView):
    """POST {reason}: void a penalty; ``manual`` says what must be put right by hand."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="penalty_void",
        summary="Void a penalty",
        tags=["judging"],
        request=body(["reason"], reason={**STR, "maxLength": MAX_TEXT}),
        parameters=[IDEMPOTENCY_KEY],
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
            422,
        ),
    )
    def post(self, request: Request, penalty_id: int) -> Response:
        return once.api_once(request, lambda: self._void(request, penalty_id))

    def _void(self, request: Request, penalty_id: int) -> Response:
        penalty = get_object_or_404(Penalty, pk=penalty_id)
        event_for(request, penalty.event_id, *STAFF)
        fields = Reader(request.data)
        reason = fields.text("reason", required=True, max_length=MAX_TEXT)
        fields.check()
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
        fields = Reader(request.data)
        matches = Match.objects.filter(round__event=event)
        match = fields.row("match", matches, required=False, missing=NOT_IN_EVENT)
        table = fields.integer("table", required=False)
        question = fields.text("question", required=True)
        fields.check()
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
        fields = Reader(request.data)
        resolution = fields.text("resolution", required=True)
        minutes = fields.integer("minutes")
        grant_extension = fields.boolean("grant_extension")
        ruling = fields.mapping(
            "ruling", message="ruling must be an object: {game, question, payload}."
        )
        fields.check()
        return run_service(
            lambda: calls.resolve_call(
                call,
                request.user,
                resolution=resolution,
                minutes=minutes,
                grant_extension=grant_extension,
                ruling=ruling,
            ),
            lambda done: call_json(_calls().get(pk=done.pk)),
        )
