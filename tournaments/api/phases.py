"""An event's phases over the API: its Day 1 flights, the gate to Day 2 and each
player's decision; the organiser adds flights, states the gate and applies it (the same
services as the page ``tournaments:phases``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.event import phases, plan
from tournaments.event.roles import ORGANISER, event_for
from tournaments.models import Event
from web.api import run_service
from web.inputs import Reader
from web.openapi import BODY_ERRORS, BOOL, INT, NULL_INT, STR, array, body, obj, responses

PHASES_SCHEMA = obj(
    ["main", "flights", "gate", "applied"],
    main=INT,
    flights=array(obj(["id", "name", "swiss_rounds"], id=INT, name=STR, swiss_rounds=NULL_INT)),
    gate={
        "type": ["object", "null"],
        "properties": {"points": NULL_INT, "top": NULL_INT, "ties": STR, "text": STR},
    },
    applied=BOOL,
    through=NULL_INT,
    decisions={
        "type": "array",
        "description": "After the gate: each Day 1 player's decision in merged standings order.",
        "items": obj(
            ["player", "rank", "points", "through", "why"],
            player=STR,
            rank=INT,
            points={"type": "number"},
            through=BOOL,
            why={
                "type": "string",
                "enum": [
                    "points",
                    "top",
                    "tied_top",
                    "below",
                    "tiebreakers",
                    "dropped",
                    "disqualified",
                ],
            },
        ),
    },
)


def phases_json(event: Event) -> dict[str, Any]:
    """The main event's phases as the API shows them (a flight shows its main event's)."""
    main = phases.main_event(event)
    rule = phases.gate_rule(main)
    decisions = []
    if main.gate_applied_at:
        logged = main.log.filter(action="gate").order_by("-pk").values_list("data", flat=True)
        data = logged.first() or {}
        keys = ("player", "rank", "points", "through", "why")
        decisions = [dict(zip(keys, row, strict=True)) for row in data.get("decisions", [])]
    return {
        "main": main.pk,
        "flights": [
            {"id": f.pk, "name": f.flight_name, "swiss_rounds": f.swiss_rounds}
            for f in main.flights.order_by("pk")
        ],
        "gate": None if rule is None else {**rule.as_json(), "text": phases.rule_text(rule)},
        "applied": main.gate_applied_at is not None,
        "through": main.registrations.count() if main.gate_applied_at else None,
        "decisions": decisions,
    }


class Phases(APIView):
    """GET the phases (whoever sees the event); POST flight, gate or apply (organisers)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="phases_detail",
        summary="The event's Day 1 flights, the gate to Day 2 and its decisions",
        tags=["events"],
        responses=responses({200: (PHASES_SCHEMA, "The phases.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(phases_json(event_for(request, event_id)))

    @extend_schema(
        operation_id="phases_action",
        summary="Add a Day 1 flight, state the gate, or apply it (organisers)",
        description="`flight` takes `name` and `rounds` (1 to 30) and answers 201 with the "
        "new flight's id; `gate` takes `points` and/or `top` (null for none) and `ties` "
        "(`tiebreakers` or `points`), refused once Day 1 has started; `apply` lets Day 1's "
        "players through, refused until every flight has closed its rounds.",
        tags=["events"],
        request=body(
            ["action"],
            action={"type": "string", "enum": ["flight", "gate", "apply"]},
            name={**STR, "maxLength": 40},
            rounds={**INT, "minimum": 1, "maximum": 30},
            points={**NULL_INT, "minimum": 0},
            top={**NULL_INT, "minimum": 1},
            ties={"type": "string", "enum": ["tiebreakers", "points"]},
            example={"action": "gate", "points": 19, "top": 32, "ties": "tiebreakers"},
        ),
        responses=responses(
            {
                200: (PHASES_SCHEMA, "`gate`, `apply`: the phases now."),
                201: (obj(["id"], id=INT), "`flight`: the new flight."),
            },
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        fields = Reader(request.data)
        action = fields.choice("action", ("flight", "gate", "apply"))
        fields.check()
        if action == "flight":
            name = fields.text("name", required=True, max_length=40)
            rounds = fields.integer("rounds", minimum=1, maximum=30)
            fields.check()
            return run_service(
                lambda: phases.add_flight(event, request.user, name=name, rounds=rounds),
                lambda flight: {"id": flight.pk},
                status.HTTP_201_CREATED,
            )
        if action == "gate":
            points = fields.integer("points", required=False, minimum=0, maximum=999)
            top = fields.integer("top", required=False, minimum=1, maximum=100_000)
            ties = fields.choice("ties", ("tiebreakers", "points"), required=False)
            fields.check()
            return run_service(
                lambda: phases.set_gate(
                    event, request.user, points=points, top=top, ties=ties or "tiebreakers"
                ),
                phases_json,
            )
        return run_service(
            lambda: phases.apply_gate(event, request.user), lambda _n: phases_json(event)
        )


PLAN_SCHEMA = obj(
    ["table", "players", "byes", "counted", "recommendation", "problem"],
    table=STR,
    players=INT,
    byes={"type": "object", "description": 'Players by awarded byes: {"3": 10}.'},
    counted={**NULL_INT, "description": "Player-equivalents: byes count 2, 4 or 8."},
    recommendation={
        "type": ["object", "null"],
        "description": "As `python -m pairing.plan` prints it: `swiss_rounds`, `top_cut`, "
        "and the Day 2 keys where the table has them.",
    },
    problem=STR,
)


def plan_json(event: Event) -> dict[str, Any]:
    """The table's recommendation for the event's entrants, as the API shows it."""
    found = plan.recommendation(event)
    return {
        "table": found.table,
        "players": found.field.players,
        "byes": {str(level): n for level, n in found.field.byes.items()},
        "counted": found.plan.counted if found.plan else None,
        "recommendation": found.plan.as_json() if found.plan else None,
        "problem": found.problem,
    }


class Plan(APIView):
    """GET the recommendation for the field; POST accept it (organisers), as the page does."""

    @extend_schema(
        operation_id="plan_detail",
        summary="The recommended Swiss rounds, cut and Day 2 gate for the entrants (organisers)",
        tags=["events"],
        responses=responses({200: (PLAN_SCHEMA, "The recommendation.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(plan_json(event_for(request, event_id, ORGANISER)))

    @extend_schema(
        operation_id="plan_accept",
        summary="Accept the recommendation: set the rounds, cut and gate (organisers)",
        description="Refused once round 1 is paired, and when `counted` (the player-"
        "equivalents the client saw) differs from the field now.",
        tags=["events"],
        request=body([], counted={**INT, "minimum": 0}, example={"counted": 370}),
        responses=responses(
            {200: (PLAN_SCHEMA, "The event's plan, accepted.")}, *BODY_ERRORS, 403, 404
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        fields = Reader(request.data)
        counted = fields.integer("counted", required=False, minimum=0, maximum=10**7)
        fields.check()
        return run_service(lambda: plan.accept_plan(event, request.user, counted), plan_json)
