"""``/api/v1/precedents/``: searching precedents, and exporting and importing a set of them.

Search and export answer anyone, each with what the caller may read
(``precedents.search.visible_to``: the public precedents for everyone, the rest for the
judges and organisers of any event on the site); an export never holds a draft event's
rulings. Import is for site staff (403 for anyone else, before the body is read). The
import body is read here rather than by DRF's parsers (as in ``tournaments.api.interchange``)
so that every way a body can be wrong is a 400 naming the problem, within our own limit.
Errors: ``{"errors": [{"field", "message"}]}``; a bad query parameter is a 400 naming it,
a file that does not fit names the path of each problem (``precedents[2].decision``).
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from precedents import exchange, search, set_schema
from precedents.models import Precedent
from rulebook.citations import citation_link
from rules_engine import GAMES
from web import jsonbody
from web.api import error_response
from web.jsonbody import BodyError
from web.openapi import (
    INT,
    NULL_STR,
    STR,
    add_named,
    array,
    json_body,
    json_schema_components,
    obj,
    ref,
    responses,
)
from web.parsers import UnreadBody

MAX_SET_BYTES = 20 * 1024 * 1024
# What one request imports within the server's time (GUNICORN_TIMEOUT, 30 s): 5,000 took
# 12 s on PostgreSQL on a busy 2-core machine (each precedent is indexed as it is added).
# A larger set is split, or imported with ``manage.py import_precedents`` (the format's 50,000).
MAX_API_PRECEDENTS = 5_000
SET_COMPONENT = "PrecedentSet"
ITEM_COMPONENT = "PrecedentSetPrecedent"


def found_json(precedent: Precedent) -> dict[str, Any]:
    """A precedent as the search answers it: as a set holds it, with each cited rule's
    link into the rules reference (null for a rule the texts do not hold)."""
    return {
        **exchange.precedent_json(precedent),
        "rule_links": [citation_link(rule) for rule in precedent.rules],
    }


def add_precedent_components(result: dict, generator, request, public) -> dict:
    """Postprocessing hook: ``PrecedentSet`` and ``PrecedentSetPrecedent`` from the
    committed precedent-set JSON Schema (the file the importer checks sets with), and the
    search's and the import's answers built on them."""
    components = json_schema_components(set_schema.schema_document(), SET_COMPONENT)
    found = copy.deepcopy(components[ITEM_COMPONENT])
    found["title"] = "PrecedentFound"
    found["description"] = "A precedent as the search finds it: as a set holds it, with links."
    found["properties"]["rule_links"] = {
        **array(obj(["text", "url"], text=STR, url=NULL_STR)),
        "description": "Each cited rule and its place in the rules reference (url null "
        "for a rule the texts do not hold).",
    }
    found["required"] = [*found["required"], "rule_links"]
    components["PrecedentFound"] = found
    components["PrecedentSearch"] = obj(
        ["count", "results", "cards"],
        count={**INT, "description": "How many precedents match in all."},
        results={
            **array(ref("PrecedentFound")),
            "description": f"The first {search.PAGE}, in the order asked for.",
        },
        cards={
            "type": "object",
            "additionalProperties": array(STR),
            "description": "Each card name asked for, and the card names (as searched: "
            "lower case) it was read as; a misspelt name is read as the closest known one.",
        },
    )
    components["PrecedentImportReport"] = obj(
        ["added", "unchanged", "conflicts"],
        added={**INT, "description": "Precedents new to this site, now added."},
        unchanged={**INT, "description": "Precedents here already with the same content."},
        conflicts={
            **array(
                obj(
                    ["uid", "fields", "message"],
                    uid=STR,
                    fields={**array(STR), "description": "The fields that differ."},
                    message=STR,
                )
            ),
            "description": "Precedents here already with other content: the one here is kept.",
        },
    )
    add_named(result, components)
    return result


def _listed(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        {"type": "array", "items": {"type": "string"}, "maxItems": search.MAX_TERMS},
        OpenApiParameter.QUERY,
        explode=True,
        description=description,
    )


GAME = OpenApiParameter(
    "game",
    {"type": "string", "enum": list(GAMES)},
    OpenApiParameter.QUERY,
    description="Only this game's precedents.",
)
SEARCH_PARAMETERS = [
    _listed(
        "card",
        f"A card name (fuzzy: a misspelt name finds its card); repeat it, or separate "
        f"names with commas, for precedents naming every card given (at most "
        f"{search.MAX_TERMS}).",
    ),
    _listed(
        "rule",
        f"A rule number or section (202 finds 202.1 too); repeat it or separate with "
        f"commas (at most {search.MAX_TERMS}).",
    ),
    OpenApiParameter(
        "question",
        str,
        OpenApiParameter.QUERY,
        description="The rules engine's question, e.g. deck-legality.",
    ),
    OpenApiParameter(
        "q",
        {"type": "string", "maxLength": search.MAX_TEXT},
        OpenApiParameter.QUERY,
        description="Free text: every word must be in the precedent (a word's beginning "
        "is enough).",
    ),
    GAME,
    OpenApiParameter(
        "order",
        {"type": "string", "enum": list(search.ORDERS), "default": "newest"},
        OpenApiParameter.QUERY,
        description="newest first, or upheld: the rulings that stood first.",
    ),
]


class PrecedentSearchView(APIView):
    """GET: the precedents the caller may read that match every part of the query."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="precedents_search",
        summary="Search precedents by card, rule, question and free text",
        tags=["precedents"],
        parameters=SEARCH_PARAMETERS,
        responses=responses(
            {200: (ref("PrecedentSearch"), "The matches the caller may read, best first.")},
            400,
            403,
            e400="A parameter it cannot use (the field names it).",
            e403="An invalid `Authorization: Token` key.",
        ),
    )
    def get(self, request: Request) -> Response:
        query = search.read_query(request.query_params)
        found = search.find(query, request.user)
        return Response(
            {
                "count": found.total,
                "results": [found_json(p) for p in found.precedents],
                "cards": found.cards,
            }
        )


class PrecedentExportView(APIView):
    """GET ``?game=``: the precedents the caller may read as a set (an attachment)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="precedents_export",
        summary="Export the precedents you may read as a precedent set",
        tags=["precedents"],
        parameters=[GAME],
        responses=responses(
            {200: (ref(SET_COMPONENT), "The set (also as an attachment).")},
            400,
            403,
            e400="No such game.",
            e403="An invalid `Authorization: Token` key.",
        ),
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game", "")
        document = exchange.export_set(request.user, game)  # a refusal names "game"
        filename = f"precedents-{game.strip() or 'all'}-{timezone.localdate().isoformat()}.json"
        return Response(
            document, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )


class PrecedentImportView(APIView):
    """POST a precedent set (JSON, up to 20 MiB and MAX_API_PRECEDENTS precedents): the
    report of what was added."""

    permission_classes = [IsAuthenticated]
    parser_classes = [UnreadBody]  # the view reads the set itself, with its own limit

    @extend_schema(
        operation_id="precedents_import",
        summary="Import a precedent set (site staff)",
        tags=["precedents"],
        request=json_body(ref(SET_COMPONENT)),
        responses=responses(
            {
                200: (
                    ref("PrecedentImportReport"),
                    "Imported: what was added, what was here already, and the conflicts "
                    "(precedents here with other content, kept as they are).",
                )
            },
            400,
            403,
            409,
            413,
            e400="The body is not JSON, or not a precedent set: each problem names its "
            "path (field). Nothing was written.",
            e403="Not logged in, or not site staff.",
            e409="Another import added some of the same precedents at the same moment; "
            "nothing was written: send it again.",
            e413="The body is over 20 MiB, or the set holds more than "
            f"{MAX_API_PRECEDENTS} precedents (field `precedents`): split it, or import it "
            "with `manage.py import_precedents`.",
        ),
    )
    def post(self, request: Request) -> Response:
        exchange.check_may_import(request.user)  # before reading a body of up to 20 MiB
        try:
            document = jsonbody.read_json_body(
                request,
                limit=MAX_SET_BYTES,
                expected=_("the precedent set"),
                too_big_status=413,
            )
        except BodyError as exc:
            return error_response(str(exc), exc.field or "(body)", exc.status)
        listed = document.get("precedents") if isinstance(document, dict) else None
        if isinstance(listed, list) and len(listed) > MAX_API_PRECEDENTS:
            message = _(
                "The set holds %(count)s precedents; one import over the API takes at most "
                "%(limit)s: split it, or import it with manage.py import_precedents."
            ) % {"count": len(listed), "limit": MAX_API_PRECEDENTS}
            return error_response(message, "precedents", 413)
        return Response(exchange.import_set(document, request.user))
