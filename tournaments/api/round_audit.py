"""A Swiss round's audit over the API: the engine's input, its pairing with the proof of
optimality, and the server's verdict (the page is ``tournaments.pages.round_audit``)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.event.roles import event_for
from tournaments.models import Round
from tournaments.rounds import audit
from web.api import error_response
from web.openapi import ref, responses


class RoundAuditView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="round_audit",
        summary="A Swiss round's pairing with its proof of optimality",
        description="`state` is the pairing engine's input (players by public id, in "
        "standings order, with their points, past opponents, byes and drops; the `seed`), "
        "`pairing` its output before table pins (`pairings`, `bye`, `seed`, "
        "`certificate`), and `verdict` what `pairing/verify.py` says of them. Save the "
        "two documents as `state.json` and `pairing.json` and run "
        "`python3 verify.py state.json pairing.json` (the checker is `/pairing/verify.py`) "
        "to check it yourself. `awarded_byes`: players with an awarded bye, who are not in "
        "the engine's input. `tables_changed`: the round's tables are no longer the "
        "engine's pairing (an organiser swapped players); the proof is about the engine's "
        "pairing. 404 for a top-cut round and for a round paired before pairings carried "
        "proofs (the message says which).",
        tags=["events"],
        responses=responses(
            {200: (ref("RoundAudit"), "The round's audit.")},
            403,
            404,
            e404="No such event or round, or the round has no audit (the message says why).",
        ),
    )
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = event_for(request, event_id)
        round_ = get_object_or_404(Round, event=event, number=number)
        found = audit.read(round_)
        if found is None:
            return error_response(audit.missing_reason(round_), code=404)
        return Response(found.documents())
