"""The OpenAPI description of Arbiter's API (drf-spectacular), in one place.

The API views are plain ``APIView``s writing JSON by hand, so their bodies are described
here as JSON Schema (OpenAPI 3.1) components, and each view's ``extend_schema`` names
them through the helpers below. Error bodies are always ``{"errors": [{"field",
"message"}]}`` (``web.api.exception_handler``), whatever the status.

``expand_rules_paths`` turns the one ``/api/v1/rules/{game}/{question}/`` route into a
path per question, each with that question's payload schema from the rules engine's
catalogue, so the schema states the real request bodies of the adjudication contract.

The interchange format (``ArbiterEvent`` and its parts) is not written here: it is the
committed JSON Schema ``docs/schemas/arbiter-event-1.schema.json``, turned into components
by ``json_schema_components`` (``tournaments.api.interchange`` adds them), so the API's
description and the importer's check are one document. Both it and the rules payloads pass
``split_type_lists`` (and the payloads ``name_repeated_objects``): what a code generator
cannot read as one type (an object or null; an object written twice) becomes the plain
OpenAPI shape of the same thing (``anyOf`` with null; one named component).
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from typing import Any

from drf_spectacular.drainage import warn
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"oneOf": [schema, {"type": "null"}]}


def obj(required: list[str], **properties: Schema) -> Schema:
    """An object with these properties (extra keys allowed: the contracts permit them)."""
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
ANY_OBJECT: Schema = {"type": "object"}
DATETIME: Schema = {"type": "string", "format": "date-time"}
NULL_STR: Schema = {"type": ["string", "null"]}
NULL_INT: Schema = {"type": ["integer", "null"]}
NULL_DATETIME: Schema = {"type": ["string", "null"], "format": "date-time"}

EVENT_STATUSES = ["draft", "registration", "running", "finished"]
MATCH_STATUSES = ["pending", "reported", "confirmed", "disputed", "final"]
RULE_VIOLATION = obj(["rule", "message"], rule=STR, message=STR)
CARD_COUNT = obj(["name", "count"], name=STR, count=INT)

COMPONENTS: dict[str, Schema] = {
    "Errors": obj(
        ["errors"],
        errors={
            "type": "array",
            "minItems": 1,
            "items": obj(
                ["field", "message"],
                field={
                    **NULL_STR,
                    "description": "The field at fault; null for the request as a whole.",
                },
                message=STR,
            ),
        },
    ),
    "Event": obj(
        ["id", "name", "game", "date", "status", "points"],
        id=INT,
        name=STR,
        game={"type": "string", "enum": ["iacta", "superjack", "dataclysm"]},
        date={"type": "string", "format": "date"},
        venue=STR,
        time_zone={**STR, "description": "The venue's IANA zone: pages show local times in it."},
        status={
            "type": "string",
            "enum": EVENT_STATUSES,
            "description": "`registration` is published (open for registration). Live "
            "notices (`event`) use the same words, and `top_cut` while the top cut is "
            "played, when this says `running` (docs/api.md, State names).",
        },
        match_format={"type": "string", "enum": ["bo1", "bo3", "bo5"]},
        swiss_rounds=INT,
        top_cut=INT,
        round_minutes=INT,
        first_round_at={
            **NULL_DATETIME,
            "description": "When round 1 is planned to start: the schedule counts from it "
            "(null: no plan; rounds are timed from the first start).",
        },
        break_minutes={**INT, "description": "Planned minutes between a round's end and the next."},
        players={**NULL_INT, "description": "Registered (seated) players."},
        points=obj(["win", "draw", "loss"], win=INT, draw=INT, loss=INT),
        registration_cap=NULL_INT,
        registration_deadline=NULL_DATETIME,
        decklist_deadline=NULL_DATETIME,
        self_check_in_opens={
            **NULL_DATETIME,
            "description": "Players check themselves in from then until round 1 is paired; "
            "null: only the organisers check in.",
        },
        decklist_policy={"type": "string", "enum": ["none", "warn", "require"]},
        decklists_public={"type": "string", "enum": ["none", "top_cut", "all"]},
        print_paper={"type": "string", "enum": ["A4", "Letter"]},
    ),
    "Series": obj(
        ["id", "name", "method", "placing_points", "participation", "best_of", "tiebreakers"],
        id=INT,
        name=STR,
        description=STR,
        method={"type": "string", "enum": ["match_points", "placings"]},
        placing_points={**array(INT), "description": "Points for 1st, 2nd, … place."},
        participation=INT,
        best_of={**NULL_INT, "description": "Each player's best N events count; null: all."},
        tiebreakers=array(STR),
        events=array(
            obj(
                ["id", "name", "date", "status", "counted"],
                id=INT,
                name=STR,
                date={"type": "string", "format": "date"},
                status={"type": "string", "enum": EVENT_STATUSES},
                counted={**BOOL, "description": "Finished: its placings count."},
            )
        ),
        standings=array(ref("SeriesStanding")),
    ),
    "SeriesStanding": obj(
        ["rank", "player", "name", "total", "events"],
        rank=INT,
        player={**STR, "description": "u<account id>, or w<entry id> for a walk-in."},
        name=STR,
        total=INT,
        best_finish=NULL_INT,
        match_wins=INT,
        events=array(
            obj(
                ["event", "place", "points", "counted"],
                event=INT,
                place=INT,
                points=INT,
                counted={**BOOL, "description": "Among the player's best N."},
                disqualified=BOOL,
            )
        ),
    ),
    "MatchPlayer": obj(
        ["id", "name", "registration"],
        id={**STR, "description": "The player's id in exports and standings."},
        name=STR,
        registration=INT,
    ),
    "Match": obj(
        ["id", "table", "players", "bye", "status", "score", "games", "reports"],
        id=INT,
        table=NULL_INT,
        players=array(ref("MatchPlayer")),
        bye=BOOL,
        status={"type": "string", "enum": MATCH_STATUSES},
        score={**NULL_STR, "description": 'Games won-lost-drawn, e.g. "2-1-0".'},
        games={**array(NULL_STR), "description": "Each game's winner (player id); null: drawn."},
        reports={
            **array(ref("MatchReport")),
            "description": "What the players said (reports, confirmations, disputes), in order.",
        },
        extension_minutes=INT,
        explanation=STR,
        version={
            **INT,
            "minimum": 0,
            "description": "The version of the result: it changes with every result change "
            "(0: none yet). Send it back with a staff `result`, so that an entry made on a "
            "result that changed meanwhile is refused (409) instead of overwriting it.",
        },
    ),
    "StaleResult": {
        "allOf": [
            ref("Errors"),
            obj(["match"], match=ref("Match")),
        ],
    },
    "MatchReport": obj(
        ["player", "score", "at"],
        player={**STR, "description": "The player's id (as in `players`)."},
        score={
            **NULL_STR,
            "description": 'From this player\'s side, their wins first: "2-1"; null for a '
            "dispute that gave no score.",
        },
        at=DATETIME,
        kind={"type": "string", "enum": ["report", "confirm", "dispute"]},
    ),
    "Round": obj(
        ["number", "kind", "status", "matches"],
        number=INT,
        kind={"type": "string", "enum": ["swiss", "top_cut"]},
        status={
            "type": "string",
            "enum": ["paired", "running", "closed"],
            "description": "Live notices (`round`) call `running` `started` "
            "(docs/api.md, State names); `paired` and `closed` are the same there.",
        },
        started_at=NULL_DATETIME,
        ends_at=NULL_DATETIME,
        stats={**ANY_OBJECT, "description": "Pairing statistics (pair-downs, rematches, time)."},
        bye_reason=STR,
        matches=array(ref("Match")),
    ),
    "RoundAudit": obj(
        ["state", "pairing", "verdict", "awarded_byes", "tables_changed"],
        state={
            **ANY_OBJECT,
            "description": "The engine's input: `round`, `seed`, `players` (each `id`, "
            "`points`, `opponents`, `had_bye`, `dropped`, and `avoid` when set).",
        },
        pairing={
            **ANY_OBJECT,
            "description": "The engine's output: `pairings` (pairs of ids), `bye`, `seed`, "
            "`certificate` (the proof `pairing/verify.py` checks).",
        },
        verdict=obj(
            ["ok"],
            ok=BOOL,
            proven={
                **ANY_OBJECT,
                "description": "When `ok`: `cost`, `pairs`, `pair_downs`, `rematches`, "
                "`bye`, `players`, `regime`.",
            },
            message={**STR, "description": "When not `ok`: what failed."},
        ),
        awarded_byes={**array(STR), "description": "Players with an awarded bye (not paired)."},
        tables_changed={
            **BOOL,
            "description": "The round's tables are no longer the engine's pairing (a swap).",
        },
    ),
    "TopCutFinished": obj(["finished"], finished={"const": True}),
    "StandingsRow": obj(
        ["rank", "player", "name", "match_points", "record"],
        rank=INT,
        player=STR,
        name=STR,
        match_points=INT,
        record=STR,
        omw={"type": "number"},
        gw={"type": "number"},
        ogw={"type": "number"},
        dropped=BOOL,
        disqualified=BOOL,
    ),
    "Player": obj(
        ["registration", "id", "name", "status", "checked_in"],
        registration=INT,
        id=STR,
        name=STR,
        status={"type": "string", "enum": ["registered", "waitlisted", "dropped"]},
        checked_in=BOOL,
        joined_round=NULL_INT,
        dropped_after_round=NULL_INT,
        disqualified=BOOL,
        table_pin=NULL_INT,
        awarded_byes=INT,
    ),
    "Card": obj(
        ["id", "game", "name", "text"],
        id=INT,
        game=STR,
        name=STR,
        text=STR,
        syndicate=NULL_STR,
        tier=STR,
        card_class=STR,
        speed=STR,
        cost=array(STR),
        max_copies=NULL_INT,
        type=STR,
        subtypes=array(STR),
        gpu=BOOL,
        atk=NULL_INT,
        hp=NULL_INT,
    ),
    "DeckReport": obj(
        ["main", "sideboard", "problems", "unknown", "legal", "violations"],
        main=array(CARD_COUNT),
        sideboard=array(CARD_COUNT),
        problems=array(obj(["line", "text", "message"], line=INT, text=STR, message=STR)),
        unknown=array(
            obj(["line", "name", "suggestions"], line=INT, name=STR, suggestions=array(STR))
        ),
        legal=BOOL,
        violations=array(RULE_VIOLATION),
        text=STR,
    ),
    "Decklist": obj(
        ["player", "name", "status", "legal", "violations", "main", "sideboard", "submitted_at"],
        player=STR,
        name=STR,
        status={"type": "string", "enum": ["draft", "submitted"]},
        legal=BOOL,
        violations=array(RULE_VIOLATION),
        main=array(CARD_COUNT),
        sideboard=array(CARD_COUNT),
        submitted_at=NULL_DATETIME,
    ),
    "Consequence": obj(
        ["result", "rule", "text"],
        result={"type": "string", "enum": ["game_loss", "match_loss", "disqualification"]},
        game=NULL_INT,
        rule=STR,
        text=STR,
    ),
    "Penalty": obj(
        ["id", "event", "player", "game", "infraction", "rule", "consequences", "voided"],
        id=INT,
        event=INT,
        round=NULL_INT,
        match=NULL_INT,
        table=NULL_INT,
        player=obj(["registration", "name"], registration=INT, name=STR),
        game=INT,
        infraction=STR,
        infraction_label=STR,
        rule=STR,
        notes=STR,
        judge=NULL_STR,
        issued_at=NULL_DATETIME,
        consequences=array(ref("Consequence")),
        voided=BOOL,
        voided_at=NULL_DATETIME,
        voided_by=NULL_STR,
        void_reason=STR,
        result_changes=array(
            obj(
                ["match", "action", "before", "after", "rule", "reason"],
                match=INT,
                action=STR,
                before=NULL_STR,
                after=NULL_STR,
                status=NULL_STR,
                rule=STR,
                reason=STR,
                at=NULL_DATETIME,
            )
        ),
    ),
    "PenaltyPreview": obj(
        ["consequences", "summary", "explanation", "citations"],
        consequences=array(ref("Consequence")),
        summary=STR,
        change=STR,
        result_change=nullable(
            obj(["status", "before", "after"], status=STR, before=NULL_STR, after=NULL_STR)
        ),
        confirm_change=STR,
        explanation=STR,
        citations=array(STR),
        tallies=ANY_OBJECT,
    ),
    "JudgeCall": obj(
        ["id", "event", "question", "open"],
        id=INT,
        event=INT,
        round=NULL_INT,
        match=NULL_INT,
        table=NULL_INT,
        question=STR,
        called_at=NULL_DATETIME,
        judge=NULL_STR,
        open=BOOL,
        resolution=STR,
        resolved_at=NULL_DATETIME,
        minutes=NULL_INT,
        extension_minutes=NULL_INT,
        match_extension_minutes=NULL_INT,
        ruling=nullable(
            obj(
                ["game", "question", "payload", "answer"],
                game=STR,
                question=STR,
                payload={},
                answer={},
            )
        ),
    ),
    "TimeExtension": obj(
        ["id", "match", "table", "minutes", "reason", "standing", "match_extension_minutes"],
        id=INT,
        match=INT,
        table=NULL_INT,
        round=INT,
        minutes=INT,
        reason=STR,
        granted_by=NULL_STR,
        granted_at=NULL_DATETIME,
        call={**NULL_INT, "description": "The judge call that granted it."},
        standing={**BOOL, "description": "False once removed."},
        removed_at=NULL_DATETIME,
        removed_by=NULL_STR,
        removal_reason=STR,
        match_extension_minutes={
            **INT,
            "description": "The table's standing extensions added up: its clock's extra time.",
        },
        warning={
            **NULL_STR,
            "description": "Set when the table's result was already in at the grant.",
        },
    ),
    "Ruling": {
        **obj(
            ["citations", "explanation"],
            citations={
                **array(STR),
                "description": "Rule numbers (Iacta) or sections (Superjack, Dataclysm) applied.",
            },
            explanation={**STR, "description": "One or two sentences a judge can read out."},
        ),
        "description": "The ruling; its other keys depend on the question "
        "(see the adjudication contract).",
    },
    "RulesCatalogue": obj(
        ["games"],
        games=array(
            obj(
                ["game", "questions"],
                game=STR,
                questions=array(
                    obj(
                        ["game", "question", "title", "schema"],
                        game=STR,
                        question=STR,
                        title=STR,
                        summary=STR,
                        schema={**ANY_OBJECT, "description": "The payload's JSON Schema."},
                        example={},
                    )
                ),
            )
        ),
    ),
    "CheckInCount": obj(
        ["checked_in"], checked_in={**INT, "description": "How many players were checked in."}
    ),
    "TablePinned": obj(
        ["registration", "table_pin"],
        registration=INT,
        table_pin={**NULL_INT, "description": "The pinned table; null: unpinned."},
    ),
    "ByesAwarded": obj(
        ["registration", "awarded_byes"],
        registration=INT,
        awarded_byes={**INT, "description": "Byes awarded before round 1 (0 to 3)."},
    ),
}

ERROR_TEXT = {
    400: "The request does not fit: each error names its field (null: the whole body).",
    403: "Not logged in (no session, or no or an invalid `Authorization: Token` key), or "
    "not allowed: the message says which.",
    404: "No such object (or no such path under /api/).",
    413: "The body is larger than the limit the message names.",
    415: "The body's Content-Type is not JSON.",
    422: "The `Idempotency-Key` already answered another request: send a new key.",
}


# The header of every write that may be retried safely (the apps' "answered once" rule).
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional, 1-200 printable ASCII characters, the caller's own name for this "
    "write: a request sent again with the same key (a retry after a lost answer) gets the "
    "first answer again, with the header `Idempotent-Replayed: true`, and writes nothing. "
    "A key is kept 24 hours; a refusal is not kept (a retry is judged afresh). The same "
    "key with another request is refused with 422.",
)


def errors(code: int, text: str | None = None) -> OpenApiResponse:
    return OpenApiResponse(response=ref("Errors"), description=text or ERROR_TEXT[code])


def responses(
    ok: dict[int, tuple[Schema, str]], *codes: int, **texts: str
) -> dict[int, OpenApiResponse]:
    """Success bodies plus error bodies; ``texts`` (``e404="..."``) words an error's case."""
    result: dict[int, OpenApiResponse] = {
        code: OpenApiResponse(response=schema, description=text)
        for code, (schema, text) in ok.items()
    }
    for code in codes:
        result[code] = errors(code, texts.get(f"e{code}"))
    return result


def json_body(schema: Schema) -> dict[str, Schema]:
    """A request body of JSON (a bare dict would be read as a media-type mapping)."""
    return {"application/json": schema}


def body(required: list[str], example: dict | None = None, **properties: Schema) -> dict:
    """A JSON object request body."""
    schema = obj(required, **properties)
    if example is not None:
        schema["examples"] = [example]
    return json_body(schema)


# Every body-taking endpoint may also answer these (the parser's refusals).
BODY_ERRORS = (400, 413, 415)


class AutoSchema(SpectacularAutoSchema):
    """Every operation whose body DRF's parsers read also documents their refusals.

    The parsers answer before the view runs: 400 for malformed JSON, 413 for a body over
    the limit, 415 for a Content-Type they do not read. A view that lists only its success
    and its own errors would leave those out, and a generated client treats an
    undocumented status as a surprise (it raises, or returns nothing). Views that read
    their body themselves (a parser for ``*/*``, or none) answer those cases in their own
    words and document them themselves.
    """

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation and "requestBody" in operation and self._parsers_refuse():
            for code in BODY_ERRORS:
                operation["responses"].setdefault(str(code), error_response(code))
        return operation

    def _parsers_refuse(self) -> bool:
        parsers = self.view.get_parsers()
        return bool(parsers) and all(parser.media_type != "*/*" for parser in parsers)


def error_response(code: int) -> Schema:
    """An error's OpenAPI response object (as ``errors`` gives it to ``extend_schema``)."""
    return {
        "description": ERROR_TEXT[code],
        "content": {"application/json": {"schema": ref("Errors")}},
    }


def camel(*words: str) -> str:
    """``("iacta", "card entry")`` -> ``IactaCardEntry``: a component name from plain words."""
    return "".join(part.capitalize() for word in words for part in re.split(r"[\W_]+", word))


def split_type_lists(schema: Any) -> Any:
    """``{"type": ["object", "null"], ...}`` -> ``{"anyOf": [{"type": "object", ...},
    {"type": "null"}]}``, throughout: the same values, in the shape generators read (they
    take a list of simple types, but not an object or array among them). Other keywords
    stay with each typed branch (a keyword for another type is ignored by JSON Schema)."""
    if isinstance(schema, list):
        return [split_type_lists(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {key: split_type_lists(value) for key, value in schema.items()}
    types = schema.get("type")
    if not isinstance(types, list) or not {"object", "array"} & set(types):
        return schema
    notes = {key: schema.pop(key) for key in ("description", "default") if key in schema}
    branches = [_branch(schema, t) for t in types]
    return {"anyOf": branches, **notes}


def _branch(schema: Schema, type_: str) -> Schema:
    """One type's branch of a type list; an array of anything says so (``items: {}``)."""
    if type_ == "null":
        return {"type": "null"}
    if type_ == "array":
        return {"items": {}, **schema, "type": type_}
    return {**schema, "type": type_}


def _object_schemas(schema: Any) -> list[Schema]:
    """Every object schema (one with ``properties``) inside ``schema``, outermost first."""
    found: list[Schema] = []
    if isinstance(schema, dict):
        if isinstance(schema.get("properties"), dict):
            found.append(schema)
        for value in schema.values():
            found += _object_schemas(value)
    elif isinstance(schema, list):
        for item in schema:
            found += _object_schemas(item)
    return found


def _canonical(schema: Schema) -> str:
    return json.dumps(schema, sort_keys=True)


def name_repeated_objects(
    payloads: list[Schema], components: dict[str, Schema], prefix: str
) -> list[Schema]:
    """The payloads with each object schema that occurs more than once (a card entry in a
    deck and in its sideboard) moved to one component and referred to: a generator makes
    one type of it rather than two of the same name. Named and titled ``prefix`` + its
    title (generators name types by title: another game's "Card entry" must differ)."""
    counts = Counter(_canonical(s) for payload in payloads for s in _object_schemas(payload))
    names: dict[str, str] = {}

    def hoist(schema: Any, top: bool = False) -> Any:
        if isinstance(schema, list):
            return [hoist(item) for item in schema]
        if not isinstance(schema, dict):
            return schema
        key = _canonical(schema) if isinstance(schema.get("properties"), dict) else None
        if key is not None and counts[key] > 1 and not top:
            if key not in names:
                names[key] = _free_name(prefix + camel(schema.get("title", "object")), components)
                hoisted = {k: hoist(v) for k, v in schema.items()}
                components[names[key]] = {**hoisted, "title": names[key]}
            return ref(names[key])
        return {k: hoist(v) for k, v in schema.items()}

    return [hoist(payload, top=True) for payload in payloads]


def _free_name(name: str, taken: dict[str, Schema]) -> str:
    number, candidate = 1, name
    while candidate in taken:
        number += 1
        candidate = f"{name}{number}"
    return candidate


def json_schema_components(document: Schema, name: str) -> dict[str, Schema]:
    """A JSON Schema document as components: ``name`` (the document) and one per
    ``$defs`` entry (``name`` + its key: ``ArbiterEventPlayer``), its ``$ref``s pointed at
    them, each titled with its name (generators name types by title, and a file's own
    titles, Event, Player…, may be the REST objects' names). Nothing else changes: the
    file and the components make the same statements, so the file stays the one source."""
    document = copy.deepcopy(document)
    definitions = document.pop("$defs", {})
    for key in ("$schema", "$id"):
        document.pop(key, None)
    names = {key: name + camel(key) for key in definitions}

    def repoint(schema: Any) -> Any:
        if isinstance(schema, list):
            return [repoint(item) for item in schema]
        if not isinstance(schema, dict):
            return schema
        target = schema.get("$ref", "")
        if isinstance(target, str) and target.startswith("#/$defs/"):
            return {**schema, "$ref": ref(names[target.removeprefix("#/$defs/")])["$ref"]}
        return {key: repoint(value) for key, value in schema.items()}

    components = {name: document} | {names[key]: s for key, s in definitions.items()}
    return {
        title: {**split_type_lists(repoint(schema)), "title": title}
        for title, schema in components.items()
    }


def add_named(result: dict, components: dict[str, Schema]) -> None:
    """Add components to the schema; a name already taken (by a serializer, or another
    hook) is a generator warning, which CI's ``spectacular --fail-on-warn`` refuses."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name in sorted(set(components) & set(schemas)):
        warn(f"The component {name} is named twice: two different types would share it.")
    schemas.update(components)


def add_components(result: dict, generator, request, public) -> dict:
    """Postprocessing hook: the shared body schemas the views' annotations refer to."""
    add_named(result, copy.deepcopy(COMPONENTS))
    return result


def expand_rules_paths(result: dict, generator, request, public) -> dict:
    """Postprocessing hook: the generic rules route becomes one path per question, each
    with that question's payload schema. An object a game's payloads use more than once
    becomes one component (``IactaCardEntry``)."""
    from rules_engine import catalogue

    paths = result.get("paths", {})
    template = paths.pop("/api/v1/rules/{game}/{question}/", None)
    if template is None:
        return result
    operation = template["post"]
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for game in catalogue()["games"]:
        questions = game["questions"]
        payloads = name_repeated_objects(
            [split_type_lists(_payload(question)) for question in questions],
            schemas,
            prefix=camel(game["game"]),
        )
        for question, payload in zip(questions, payloads, strict=True):
            concrete = copy.deepcopy(operation)
            concrete["operationId"] = f"rules_{game['game']}_{question['question']}".replace(
                "-", "_"
            )
            concrete["summary"] = f"{game['game']}: {question['title']}"
            concrete["description"] = question.get("summary", "")
            concrete["parameters"] = [
                p for p in concrete.get("parameters", []) if p.get("in") != "path"
            ]
            concrete["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": payload}},
            }
            concrete["responses"].pop("404", None)
            paths[f"/api/v1/rules/{game['game']}/{question['question']}/"] = {"post": concrete}
    return result


def _payload(question: dict) -> Schema:
    payload = {k: v for k, v in question["schema"].items() if k != "$schema"}
    if "example" in question:
        payload["examples"] = [question["example"]]
    return payload
