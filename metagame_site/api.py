"""``GET /api/v1/events/{id}/metagame/``: an event's metagame, as much of it as the caller
may read (``services.access``, the one privacy rule), and its OpenAPI components.

A flight has no metagame of its own: asked for a flight, the API answers its main
event's (whose Day 1 is every flight's Swiss rounds). Errors are ``{"errors": [{"field",
"message"}]}``: 403 while the decklists are private (and for a draft's outsiders), 400
naming ``phase`` for a phase the event has not played, 404 for no such event.
"""

from __future__ import annotations

import copy

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from metagame.report import MIN_CELL
from metagame_site import services
from metagame_site.reading import NOT_PUBLISHED, PHASES, checked_phase
from series.models import Series
from tournaments.event.roles import event_for
from web.api import error_response, run_service
from web.openapi import INT, STR, Schema, add_named, array, obj, ref, responses

RATE: Schema = {"type": "number", "minimum": 0, "maximum": 1}
NULL_RATE: Schema = {"type": ["number", "null"], "minimum": 0, "maximum": 1}

COMPONENTS: dict[str, Schema] = {
    "MetagameProportion": {
        **obj(
            ["k", "n", "value", "low", "high"],
            k={**INT, "description": "How many."},
            n={**INT, "description": "Out of how many: the sample size."},
            value={**NULL_RATE, "description": "k / n; null when n is 0 (nothing to divide)."},
            low={**RATE, "description": "The 95% Wilson score interval's lower bound."},
            high={**RATE, "description": "Its upper bound (0 to 1 when n is 0)."},
        ),
        "description": "A share or a rate with its 95% Wilson score interval and sample size.",
    },
    "MetagameRecord": {
        **obj(
            ["wins", "losses", "draws", "n", "rate", "small"],
            wins=INT,
            losses=INT,
            draws=INT,
            n={**INT, "description": "wins + losses + draws: a drawn match is played, not won."},
            rate={**ref("MetagameProportion"), "description": "wins out of n."},
            small={
                "type": "boolean",
                "description": f"n below `min_cell` ({MIN_CELL}): the interval is wide; pages "
                "grey it and never rank it.",
            },
        ),
        "description": "Matches (or games) from one side. Left out of every record: byes "
        "(no opponent), intentional draws (a drawn match with no game played counts as "
        "one) and mirrors (two decks of one archetype, two in Other included).",
    },
    "MetagameStage": {
        **obj(
            ["reached", "share", "conversion"],
            reached={**INT, "description": "The archetype's players who reached the stage."},
            share={
                **ref("MetagameProportion"),
                "description": "reached / the stage's players with an archetype.",
            },
            conversion={
                **ref("MetagameProportion"),
                "description": "reached / the archetype's players.",
            },
        ),
        "description": "An archetype in a later stage (`day2`, `top_cut`).",
    },
    "MetagameRow": {
        **obj(
            ["key", "name", "players", "share"],
            key={**STR, "description": "The archetype's key; `_other` for Other."},
            name={**STR, "description": "The organiser's name for it, else the computed one."},
            players={**INT, "description": "Players of the archetype in the phase."},
            share={
                **ref("MetagameProportion"),
                "description": "players / the phase's players with an archetype.",
            },
            stages={
                "type": "object",
                "additionalProperties": ref("MetagameStage"),
                "description": "Each stage after the phase (the report's `stages`).",
            },
            matches=ref("MetagameRecord"),
            games=ref("MetagameRecord"),
            mirrors={
                **INT,
                "description": "Mirror matches left out of the records (always one win "
                "and one loss for the archetype: they only pull its rate towards 50%).",
            },
        ),
        "description": "One archetype. With `access` `shares`, only key, name, players "
        "and share. Matches against a player with no list count here, not in the matrix.",
    },
    "MetagameCell": {
        **obj(
            ["key", "opponent", "record"],
            key=STR,
            opponent=STR,
            record={**ref("MetagameRecord"), "description": "key's matches against opponent."},
        ),
        "description": "A matchup read from `key`'s side. The matrix is antisymmetric: "
        "key's wins against opponent are opponent's losses against key.",
    },
    "MetagameExcluded": {
        **obj(
            ["byes", "intentional_draws", "mirrors", "without_archetype"],
            byes={**INT, "description": "Byes: no opponent, no deck tested."},
            intentional_draws={
                **INT,
                "description": "Intentional draws (and drawn matches with no game played): "
                "a choice about standings, nothing played.",
            },
            mirrors={**INT, "description": "Matches between two decks of one archetype."},
            without_archetype={
                **INT,
                "description": "Matches against a player with no list: in the archetype's "
                "row, not in the matrix.",
            },
        ),
        "description": "Matches left out of the win rates or of the matrix, and why.",
    },
    "MetagameReport": {
        **obj(
            [
                "event",
                "phase",
                "access",
                "phases",
                "stages",
                "players",
                "with_archetype",
                "folded",
                "rows",
                "matrix",
            ],
            event=obj(["id", "name", "game"], id=INT, name=STR, game=STR),
            phase={"type": "string", "enum": list(PHASES)},
            access={
                "type": "string",
                "enum": [services.FULL, services.SHARES],
                "description": "`full`: everything; `shares`: decklists private, the "
                "organiser shows the shares after the event: rows hold key, name, players "
                "and share, the matrix is empty.",
            },
            phases={**array(STR), "description": "The phases one may ask for: `all` first."},
            stages={**array(STR), "description": "The later stages the rows report on."},
            players={**INT, "description": "Players in the phase, with a list or not."},
            with_archetype={**INT, "description": "Those with an archetype: the shares' n."},
            folded={
                **INT,
                "description": "Archetypes folded into Other: those of one player (never "
                "shown by name, so no row or cell is one player's deck) and those beyond "
                f"the {services.MOST_SHOWN} most played.",
            },
            rows={**array(ref("MetagameRow")), "description": "Most played first; Other last."},
            matrix={
                **array(ref("MetagameCell")),
                "description": "Every ordered pair of different archetypes, in the rows' order.",
            },
            excluded=ref("MetagameExcluded"),
            min_cell={**INT, "description": "Below this n a record is `small`."},
        ),
        "description": "An event's metagame: archetype shares, conversion to later stages, "
        "match and game win rates, the matchup matrix; every rate with its 95% Wilson "
        "interval and n.",
    },
}


def _series_report() -> Schema:
    """A series' report: an event's, with the series and its counted events in place of
    the event, and no phases to choose (each event's phases are its own)."""
    schema = copy.deepcopy(COMPONENTS["MetagameReport"])
    del schema["properties"]["event"]
    schema["required"] = [*(r for r in schema["required"] if r != "event"), "series", "events"]
    schema["properties"]["series"] = obj(["id", "name", "game"], id=INT, name=STR, game=STR)
    schema["properties"]["events"] = {
        **array(obj(["id", "name", "date"], id=INT, name=STR, date=STR)),
        "description": "The series' finished events counted: those whose decklists are "
        "all published (the series' metagame is public). Oldest first.",
    }
    schema["description"] = (
        "A series' metagame: its counted events' players and matches together (each "
        "event's archetype names, merges and moves are its organiser's); the stage is the "
        "top cut of each event."
    )
    return schema


COMPONENTS["MetagameSeriesReport"] = _series_report()

PHASE = OpenApiParameter(
    "phase",
    {"type": "string", "enum": list(PHASES), "default": services.ALL},
    OpenApiParameter.QUERY,
    description="`all` (the default: every phase), `swiss` and `top_cut` (an event "
    "without flights), or `day1` (every flight's Swiss), `day2`, `top_cut`. A phase's "
    "shares count its players; its stages are those after it.",
)


def add_metagame_components(result: dict, generator, request, public) -> dict:
    """Postprocessing hook: the report's components the view's annotation names."""
    add_named(result, copy.deepcopy(COMPONENTS))
    return result


class EventMetagame(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="event_metagame",
        summary="An event's metagame: shares, conversion, win rates, matchups",
        description="As much as the caller may read: the event's organisers and judges "
        "(and site staff) read everything, always; everyone else once the organiser "
        "publishes every decklist (`decklists_public` `all`), or, with the decklists private, the "
        "shares alone once the event has finished if the organiser allows it (`access` "
        "`shares`); otherwise 403. An archetype of one player is never shown by name "
        "(it is in Other). A flight answers its main event's metagame. Kept for an hour "
        "or until a result, a list, an entry or an archetype's name changes.",
        tags=["events"],
        parameters=[PHASE],
        responses=responses(
            {200: (ref("MetagameReport"), "The metagame of the phase.")},
            400,
            403,
            404,
            e400="`phase` is unknown, or a phase the event has not played (the message "
            "lists those it has).",
            e403="The decklists are private (the message says so), or the event is a draft "
            "and the caller not its organiser.",
        ),
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = event_for(request, event_id)
        if event.parent_id:
            event = event_for(request, event.parent_id)
        level = services.access(request.user, event)
        if level == services.NOTHING:
            return error_response(str(NOT_PUBLISHED), None, 403)
        return run_service(
            lambda: services.report(
                services.Asked(event, checked_phase(request.query_params.get("phase")), level)
            ),
            lambda data: data,
        )


class SeriesMetagame(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="series_metagame",
        summary="A series' metagame: its finished events with published decklists together",
        description="Public, as the series is: only events whose decklists are all "
        "published count (`events`); with none yet, the rows and matrix are empty.",
        tags=["series"],
        responses=responses({200: (ref("MetagameSeriesReport"), "The series' metagame.")}, 404),
    )
    def get(self, request: Request, series_id: int) -> Response:
        series = get_object_or_404(Series, pk=series_id)
        return Response(services.series_report(series))
