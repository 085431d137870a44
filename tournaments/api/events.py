"""The event API: the same services and the same permissions as the pages.

Errors come back as ``{"errors": [{"field": ..., "message": ...}]}`` (400), 403 for
a missing role, 404 for an unknown event, round or match.
"""

from __future__ import annotations

import datetime

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import once
from tournaments.api import event_fields
from tournaments.event import entry_offers, services
from tournaments.event.roles import JUDGE, ORGANISER, event_for
from tournaments.models import Event, Match, Registration, Round, with_result_versions
from tournaments.record.rounds import latest_round, swiss_round_count
from tournaments.results import services as results
from tournaments.rounds import services as rounds
from web.api import error_response, refusal_response, run_service
from web.errors import ServiceError
from web.inputs import Reader
from web.openapi import (
    BODY_ERRORS,
    BOOL,
    IDEMPOTENCY_KEY,
    INT,
    NULL_INT,
    NULL_STR,
    STR,
    array,
    body,
    obj,
    ref,
    responses,
)

MAX_REASON = 2_000  # a reason is a sentence or two for the log
REASON = {**STR, "maxLength": MAX_REASON}
NO_REGISTRATION = _lazy("No such registration in this event.")


def _unknown(action: str) -> str:
    return _("Unknown action %(action)s.") % {"action": repr(action)}


def event_json(event: Event, players: int | None = None) -> dict:
    return {
        "id": event.pk,
        "name": event.name,
        "game": event.game,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "time_zone": event.time_zone,
        "status": event.status,
        "match_format": event.match_format,
        "swiss_rounds": swiss_round_count(event),
        "top_cut": event.top_cut,
        "round_minutes": event.round_minutes,
        "first_round_at": _iso(event.first_round_at),
        "break_minutes": event.break_minutes,
        "players": players,
        "points": {"win": event.points_win, "draw": event.points_draw, "loss": event.points_loss},
        "registration_cap": event.registration_cap,
        "registration_deadline": _iso(event.registration_deadline),
        "decklist_deadline": _iso(event.decklist_deadline),
        "self_check_in_opens": _iso(event.self_check_in_opens),
        "decklist_policy": event.decklist_policy,
        "decklists_public": event.decklists_public,
        "print_paper": event.print_paper,
    }


def _iso(moment: datetime.datetime | None) -> str | None:
    """An instant in UTC, however it was given: the same text before and after a save."""
    return moment.astimezone(datetime.UTC).isoformat() if moment else None


def reports_json(match: Match, ids: dict[int, str]) -> list[dict]:
    """What each player said, in order: scores from that player's side, as they typed them.

    The claim's player is one of the match's two, so ``ids`` (their public ids) names
    them without a query; the claims' reasons stay on the judge's table page.
    """
    return [
        {
            "player": ids.get(claim.player_id),
            "kind": claim.kind,
            "score": claim.score or None,
            "at": claim.at.isoformat(),
        }
        for claim in match.claims.all()
    ]


def match_json(match: Match) -> dict:
    players = [
        {"id": p.public_id, "name": p.display_name, "registration": p.pk} for p in match.players()
    ]
    ids = {p.pk: p.public_id for p in match.players()}
    games = results.games_of(match)
    return {
        "id": match.pk,
        "table": match.table,
        "players": players,
        "bye": match.is_bye,
        "status": match.status,
        "score": games.score_text(),
        "games": games.public(ids),
        "reports": reports_json(match, ids),
        "extension_minutes": match.extension_minutes,
        "explanation": match.explanation,
        "version": results.result_version(match),
    }


def round_json(round_: Round) -> dict:
    matches = with_result_versions(
        round_.matches.select_related("player_a__user", "player_b__user").prefetch_related("claims")
    )
    return {
        "number": round_.number,
        "kind": round_.kind,
        "status": round_.status,
        "started_at": round_.started_at.isoformat() if round_.started_at else None,
        "ends_at": round_.ends_at.isoformat() if round_.ends_at else None,
        "stats": round_.pairing_stats,
        "bye_reason": round_.bye_reason,
        "matches": [match_json(m) for m in matches],
    }


class EventList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="events_list",
        summary="Published events",
        tags=["events"],
        responses=responses(
            {200: (array(ref("Event")), "Every event but drafts (their organisers see those).")},
            403,
        ),
    )
    def get(self, request: Request) -> Response:
        events = Event.objects.visible_to(request.user).annotate(
            seated=Count("registrations", filter=Q(registrations__status="registered"))
        )
        return Response([event_json(e, e.seated) for e in events])

    @extend_schema(
        operation_id="event_create",
        summary="Create an event: the caller becomes its organiser",
        description="Any logged-in account may create an event, as on the creation page, "
        "with the same fields and defaults: a `draft` unless `status` says otherwise "
        '(`"registration"` publishes it at once). Deadlines are ISO 8601; one without an '
        "offset is the venue's local time (`time_zone`, else the zone of the caller's last "
        "event, else the site's). A field the page does not edit (`seed`, `points`, …) is "
        "refused naming it. " + event_fields.STATUS_WORDS + " `top_cut` is 0 or a power of "
        "two; `decklist_policy` (`none`, `warn`, `require`) is `warn` unless told. Takes an "
        "optional `Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=event_fields.EventCreate,
        responses=responses(
            {201: (ref("Event"), "The new event; the caller is its organiser.")},
            *BODY_ERRORS,
            403,
            422,
            e403="Not logged in.",
            e422="The `Idempotency-Key` already answered another request.",
        ),
    )
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Log in first."))
        return once.api_once(request, lambda: self._create(request))

    def _create(self, request: Request) -> Response:
        fields = event_fields.EventCreate(data=request.data, context={"organiser": request.user})
        if not fields.is_valid():
            return event_fields.refused(fields)
        values = {"decklist_policy": services.NEW_EVENT_DECKLIST_POLICY, **fields.validated_data}
        return run_service(
            lambda: services.create_event(request.user, **values),
            lambda event: event_json(event, 0),
            status.HTTP_201_CREATED,
        )


class EventDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="event_detail",
        summary="One event",
        tags=["events"],
        responses=responses({200: (ref("Event"), "The event.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id)
        return Response(event_json(event, seated_count(event)))

    @extend_schema(
        operation_id="event_update",
        summary="Change an event's details, publish it or change its status (organisers)",
        description="The edit page's fields, any of them; the others stay as they are. "
        'Publishing is `{"status": "registration"}`; a field the page does not edit '
        "(`id`, `points`, …) is refused naming it. The self check-in window "
        "(`self_check_in_opens`), the decklist policy (`decklist_policy`, "
        "`decklist_deadline`, `decklists_public`), the top cut's size (`top_cut`) and the "
        "schedule (`first_round_at`, `break_minutes`) are set here. "
        + event_fields.STATUS_WORDS
        + " Takes an optional `Idempotency-Key` header.",
        tags=["events"],
        parameters=[IDEMPOTENCY_KEY],
        request=event_fields.EventEdit,
        responses=responses(
            {200: (ref("Event"), "The event after the change.")},
            *BODY_ERRORS,
            403,
            404,
            422,
            e422="The `Idempotency-Key` already answered another request.",
        ),
    )
    def patch(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        return once.api_once(request, lambda: self._update(request, event))

    def _update(self, request: Request, event: Event) -> Response:
        fields = event_fields.EventEdit(event, data=request.data, partial=True)
        if not fields.is_valid():
            return event_fields.refused(fields)
        return run_service(
            lambda: services.update_event(event, request.user, **fields.validated_data),
            lambda changed: event_json(changed, seated_count(changed)),
        )


def seated_count(event: Event) -> int:
    """The event's registered (seated) players: an event's `players`."""
    return event.registrations.filter(status=Registration.Status.REGISTERED).count()


class RoundList(APIView):
    """GET every round; POST pairs the next Swiss round (organisers)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="rounds_list",
        summary="Every round of the event, with its matches",
        tags=["events"],
        responses=responses({200: (array(ref("Round")), "The rounds in order.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id)
        return Response([round_json(r) for r in event.rounds.all()])

    @extend_schema(
        operation_id="rounds_pair_next",
        summary="Pair the next Swiss round (organisers)",
        description=(
            "Round 1 applies the event's `decklist_policy`: while players have no legal "
            "submitted decklist (policy `warn` or `require`) it is refused with a 400 on "
            "the field `confirm_missing_decklists`, naming how many and who. Send "
            '`{"confirm_missing_decklists": true}` to pair them anyway (`warn`) or to drop '
            "them and pair the rest (`require`). The round's `stats` then record the "
            "policy (`decklist_policy`, `decklists_missing`, `dropped_without_decklist`). "
            "Every registered player counts, checked in or not.\n\n"
            "Round 1 pairs only checked-in players: while any registered player (not "
            "dropped) is not checked in it is refused with a 400 on the field "
            "`confirm_not_checked_in`, naming them. Check them in first, or send "
            '`{"confirm_not_checked_in": true}` to pair round 1 without them. Both '
            "refusals can come at once, one error each."
        ),
        tags=["events"],
        request=body([], confirm_missing_decklists=BOOL, confirm_not_checked_in=BOOL),
        responses=responses(
            {201: (ref("Round"), "The new round, paired.")},
            400,
            403,
            404,
            e400="The round cannot be paired now (the message says why).",
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        fields = Reader(request.data)
        confirmed = fields.boolean("confirm_missing_decklists")
        absent_confirmed = fields.boolean("confirm_not_checked_in")
        fields.check()
        return run_service(
            lambda: rounds.pair_next_round(
                event,
                request.user,
                confirm_missing_decklists=confirmed,
                confirm_not_checked_in=absent_confirmed,
            ),
            round_json,
            201,
        )


class RoundDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="round_detail",
        summary="One round with its matches",
        tags=["events"],
        responses=responses({200: (ref("Round"), "The round.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = event_for(request, event_id)
        return Response(round_json(get_object_or_404(Round, event=event, number=number)))


class RoundAction(APIView):
    """POST start, close, repair (reason) or swap (first, second, reason)."""

    ACTIONS = ("start", "close", "repair", "swap")

    @extend_schema(
        operation_id="round_action",
        summary="Start, close, re-pair or swap players in a round (organisers)",
        description="`repair` takes a `reason`; `swap` takes `first` and `second` "
        "(registration ids) and a `reason`.",
        tags=["events"],
        parameters=[
            OpenApiParameter(
                "action", str, OpenApiParameter.PATH, enum=list(ACTIONS), description="What to do."
            )
        ],
        request=body([], reason=REASON, first=INT, second=INT, example={"reason": "Late arrival"}),
        responses=responses(
            {200: (ref("Round"), "The round after the change.")},
            *BODY_ERRORS,
            403,
            404,
            e404="No such event or round, or an unknown action.",
        ),
    )
    def post(self, request: Request, event_id: int, number: int, action: str) -> Response:
        event = event_for(request, event_id, ORGANISER)
        round_ = get_object_or_404(Round, event=event, number=number)
        if action not in self.ACTIONS:
            return error_response(_unknown(action), code=404)
        if action == "start":
            return run_service(lambda: rounds.start_round(round_, request.user), round_json)
        if action == "close":
            return run_service(lambda: rounds.close_round(round_, request.user), round_json)
        fields = Reader(request.data)
        reason = fields.text("reason", max_length=MAX_REASON)
        if action == "repair":
            fields.check()
            return run_service(
                lambda: rounds.repair_round(round_, request.user, reason), round_json
            )
        swap = "first and second must be registration ids of this event."
        first = fields.row("first", event.registrations, missing=swap, message=swap)
        second = fields.row("second", event.registrations, missing=swap, message=swap)
        fields.check()
        return run_service(
            lambda: rounds.swap_players(round_, first, second, request.user, reason),
            lambda _: round_json(round_),
        )


class TopCut(APIView):
    """POST: start the top cut, or pair its next round (organisers)."""

    @extend_schema(
        operation_id="top_cut_next",
        summary="Start the top cut, or pair its next round (organisers)",
        tags=["events"],
        request=None,
        responses=responses(
            {
                200: (
                    {"oneOf": [ref("Round"), ref("TopCutFinished")]},
                    "The next top-cut round, or `finished` once the final is over.",
                ),
                201: (ref("Round"), "The top cut's first round."),
            },
            400,
            403,
            404,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        last = latest_round(event)
        if last is not None and last.kind == Round.Kind.TOP_CUT:
            return run_service(
                lambda: rounds.advance_top_cut(event, request.user),
                lambda r: round_json(r) if r else {"finished": True},
            )
        return run_service(lambda: rounds.start_top_cut(event, request.user), round_json, 201)


def _score(fields: Reader, required: bool = True) -> results.Score | None:
    """The body's score (``2-1``, ``1-1-1``); a score that is not one names the field."""
    text = fields.text("score", required=required, max_length=20)
    return fields.checked("score", lambda: results.parse_score(text)) if text.strip() else None


def _entered(match: Match, score, actor, reason: str, version: int | None) -> Response:
    """Staff's entry; a stale ``version`` is 409 with the match as it now is."""
    try:
        entered = results.enter_result(match, score, actor, reason, seen_version=version)
    except results.StaleResult as exc:
        body = {"errors": exc.errors, "match": match_json(exc.match)}
        return Response(body, status=status.HTTP_409_CONFLICT)
    except ServiceError as exc:
        return refusal_response(exc)
    return Response(match_json(entered))


class MatchAction(APIView):
    """Players: report (their own wins first), confirm, dispute. Staff: result."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="match_action",
        summary="Report, confirm or dispute a result (players); enter a result (staff)",
        description="`report` and `result` take a `score` (`2-1` or `1-1-1`: on `report` the "
        "reporting player's wins first, on `result` the first player's). `dispute` takes a "
        "`reason` and may take the disputing player's own `score` (their wins first). "
        "`result` takes a `reason`, required when it overrides the players' report or "
        "confirmation, settles a dispute or corrects a closed round. While a match is "
        "disputed only `result` changes it. `result` names the `version` of the match the "
        "caller saw (the match's `version`); it may be left out only while the match has no "
        "result change yet (400 otherwise). When the match changed since that version the "
        "entry is refused with 409, saying what changed, and the body's `match` is the "
        "match as it now is. Every action takes an optional `Idempotency-Key` header.",
        tags=["matches"],
        parameters=[
            OpenApiParameter(
                "action",
                str,
                OpenApiParameter.PATH,
                enum=["report", "confirm", "dispute", "result"],
                description="What to do.",
            ),
            IDEMPOTENCY_KEY,
        ],
        request=body(
            [],
            score={**STR, "description": "Required on report and result; optional on dispute."},
            reason=REASON,
            version={
                **INT,
                "minimum": 0,
                "description": "On result: the match's `version` the caller saw.",
            },
            example={"score": "2-1"},
        ),
        responses=responses(
            {
                200: (ref("Match"), "The match after the change."),
                409: (
                    ref("StaleResult"),
                    "`result` on a version of the match that is no longer the current one: "
                    "`errors` says what changed, by whom and when; `match` is the match now.",
                ),
            },
            *BODY_ERRORS,
            403,
            404,
            422,
            e404="No such match, or an unknown action.",
            e422="The `Idempotency-Key` already answered another request.",
        ),
    )
    def post(self, request: Request, match_id: int, action: str) -> Response:
        return once.api_once(request, lambda: self._act(request, match_id, action))

    def _act(self, request: Request, match_id: int, action: str) -> Response:
        match = get_object_or_404(
            Match.objects.select_related("round__event", "player_a", "player_b"), pk=match_id
        )
        event = match.round.event
        if action == "result":
            event_for(request, event.pk, ORGANISER, JUDGE)
            fields = Reader(request.data)
            score, reason = _score(fields), fields.text("reason", max_length=MAX_REASON)
            version = fields.integer("version", required=False, minimum=0)
            fields.check()
            return _entered(match, score, request.user, reason, version)
        # The players came with the match: no query to find the caller's registration.
        me = next((p for p in match.players() if p.user_id == request.user.pk), None)
        if me is None:
            raise PermissionDenied(_("Only the players of this match may do this."))
        if action == "report":
            fields = Reader(request.data)
            score = _score(fields)
            fields.check()
            return run_service(
                lambda: results.report_result(match, me, score, request.user), match_json
            )
        if action == "confirm":
            return run_service(lambda: results.confirm_result(match, me, request.user), match_json)
        if action == "dispute":
            fields = Reader(request.data)
            score = _score(fields, required=False)
            reason = fields.text("reason", max_length=MAX_REASON)
            fields.check()
            return run_service(
                lambda: results.dispute_result(match, me, request.user, reason, score), match_json
            )
        return error_response(_unknown(action), code=404)


class Registrations(APIView):
    """POST registers the logged-in player; DELETE withdraws (before the event starts)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="registration_create",
        summary="Register the logged-in player",
        tags=["events"],
        request=None,
        responses=responses(
            {
                201: (
                    obj(["registration", "status"], registration=INT, status=STR),
                    "Registered (or on the waiting list when the event is full).",
                )
            },
            400,
            403,
            404,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id)
        return run_service(
            lambda: services.register_player(event, request.user),
            lambda r: {"registration": r.pk, "status": r.status},
            status.HTTP_201_CREATED,
        )

    @extend_schema(
        operation_id="registration_withdraw",
        summary="Withdraw the logged-in player (before the event starts)",
        tags=["events"],
        request=None,
        responses=responses({200: ({"type": "object"}, "Withdrawn.")}, 400, 403, 404),
    )
    def delete(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id)
        return run_service(lambda: services.withdraw_player(event, request.user), lambda _: {})


class Drop(APIView):
    """A player drops themselves; organisers drop anyone (``registration`` in the body)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="drop_player",
        summary="Drop from the event (a player themselves; organisers anyone)",
        tags=["events"],
        request=body(
            [],
            registration={**INT, "description": "Organisers: whom to drop; leave out: yourself."},
            reason=REASON,
        ),
        responses=responses(
            {
                200: (
                    obj(
                        ["registration", "dropped_after_round"],
                        registration=INT,
                        dropped_after_round=NULL_INT,
                    ),
                    "Dropped.",
                )
            },
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id)
        fields = Reader(request.data)
        reason = fields.text("reason", max_length=MAX_REASON)
        if not fields.has("registration"):
            registration = Registration.objects.filter(event=event, user=request.user).first()
            if registration is None:
                raise PermissionDenied(_("You are not a player in this event."))
        else:
            event_for(request, event_id, ORGANISER)
            registration = fields.row(
                "registration",
                event.registrations,
                missing=NO_REGISTRATION,
                message=NO_REGISTRATION,
            )
        fields.check()
        return run_service(
            lambda: services.drop_player(event, registration, request.user, reason),
            lambda r: {"registration": r.pk, "dropped_after_round": r.dropped_after_round},
        )


class Standings(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="standings",
        summary="Standings in rank order (docs/pairing-and-events.md)",
        tags=["events"],
        responses=responses({200: (array(ref("StandingsRow")), "The rows.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        from tournaments.record.standings import public_rows

        event = event_for(request, event_id)
        return Response(public_rows(event))


class Players(APIView):
    """GET the event's players (staff); POST check_in, late_entry or pin (organisers)."""

    @extend_schema(
        operation_id="players_list",
        summary="The event's players (organisers and judges)",
        tags=["events"],
        responses=responses({200: (array(ref("Player")), "Every registration.")}, 403, 404),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER, JUDGE)
        return Response(
            [
                {
                    "registration": r.pk,
                    "id": r.public_id,
                    "name": r.display_name,
                    "status": r.status,
                    "checked_in": r.checked_in,
                    "joined_round": r.joined_round,
                    "dropped_after_round": r.dropped_after_round,
                    "disqualified": r.disqualified,
                    "table_pin": r.table_pin,
                    "awarded_byes": r.awarded_byes,
                }
                for r in event.registrations.select_related("user")
            ]
        )

    @extend_schema(
        operation_id="players_action",
        summary="Check players in, add a late entry, pin a player to a table, or award byes "
        "(organisers)",
        description="`check_in` takes `registrations` (ids), or `all: true` for every "
        "registered player not yet checked in (the dashboard's Check in everyone); "
        "`late_entry` takes a `username` or a `name` (not in a draft; a `username` seats a "
        "walk-in and offers it to that "
        "account, which it joins only when its holder accepts; the answer is the same "
        "whether such an account exists); `pin` takes a `registration` and a `table` "
        "(null to unpin); `byes` takes a `registration` and `byes` (0 to 3, before round 1 "
        "is paired).",
        tags=["events"],
        request=body(
            ["action"],
            action={"type": "string", "enum": ["check_in", "late_entry", "pin", "byes"]},
            registrations=array(INT),
            all={**BOOL, "description": "`check_in`: everyone registered and not checked in."},
            username={**STR, "maxLength": 150},
            name={**STR, "maxLength": 200},
            registration=INT,
            table={**NULL_INT, "minimum": 1, "maximum": services.MAX_TABLE},
            byes={**INT, "minimum": 0, "maximum": services.MAX_AWARDED_BYES},
            example={"action": "check_in", "registrations": [1, 2]},
        ),
        responses=responses(
            {
                200: (
                    {"oneOf": [ref("CheckInCount"), ref("TablePinned"), ref("ByesAwarded")]},
                    "`check_in`: how many were checked in; `pin`: the registration's table; "
                    "`byes`: the registration's awarded byes.",
                ),
                201: (
                    obj(
                        ["registration", "joined_round", "offered_to"],
                        registration=INT,
                        joined_round=NULL_INT,
                        offered_to=NULL_STR,
                    ),
                    "`late_entry`: the new registration, and the username it is offered to.",
                ),
            },
            *BODY_ERRORS,
            403,
            404,
        ),
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id, ORGANISER)
        fields = Reader(request.data)
        action = fields.choice("action", ("check_in", "late_entry", "pin", "byes"))
        fields.check()
        if action == "check_in" and fields.boolean("all"):
            fields.check()
            return run_service(
                lambda: services.check_in_everyone(event, request.user),
                lambda n: {"checked_in": n},
            )
        if action == "check_in":
            ids = fields.ids(
                "registrations", message="registrations must be a list of registration ids."
            )
            fields.check()
            return run_service(
                lambda: services.check_in(event, ids, request.user), lambda n: {"checked_in": n}
            )
        if action == "late_entry":
            return self._late_entry(fields, request, event)
        if action == "byes":
            return self._byes(fields, request, event)
        return self._pin(fields, request, event)

    def _byes(self, fields: Reader, request: Request, event: Event) -> Response:
        registration = fields.row(
            "registration", event.registrations, missing=NO_REGISTRATION, message=NO_REGISTRATION
        )
        byes = fields.integer(
            "byes",
            minimum=0,
            maximum=services.MAX_AWARDED_BYES,
            message=services.awarded_byes_rule(),
        )
        fields.check()
        return run_service(
            lambda: services.award_byes(event, registration, byes, request.user),
            lambda r: {"registration": r.pk, "awarded_byes": r.awarded_byes},
        )

    def _pin(self, fields: Reader, request: Request, event: Event) -> Response:
        registration = fields.row(
            "registration", event.registrations, missing=NO_REGISTRATION, message=NO_REGISTRATION
        )
        table = fields.integer(
            "table",
            required=False,
            minimum=1,
            maximum=services.MAX_TABLE,
            message="table must be a table number (1 or more) or null.",
        )
        fields.check()
        return run_service(
            lambda: services.pin_table(event, registration, table, request.user),
            lambda r: {"registration": r.pk, "table_pin": r.table_pin},
        )

    def _late_entry(self, fields: Reader, request: Request, event: Event) -> Response:
        username = fields.text("username", strip=True, max_length=150)
        name = fields.text("name", max_length=200)
        fields.check()
        return run_service(
            lambda: services.add_late_entry(event, request.user, username=username, name=name),
            lambda r: {
                "registration": r.pk,
                "joined_round": r.joined_round,
                "offered_to": entry_offers.offered_to(r),
            },
            status.HTTP_201_CREATED,
        )
