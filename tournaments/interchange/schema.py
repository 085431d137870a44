"""The ``arbiter-event/1`` JSON Schema: loading it, and checking a document against it.

The schema is the committed file ``docs/schemas/arbiter-event-1.schema.json``, read from
the repository beside this package (the site runs from its checkout: the Docker image
copies the repository to /app, as it does for templates/ and static/). It is the one
statement of the format's shape and limits; the constants below are read from it.

Checking is done twice over, as for the rules engine's payloads: a compiled
``fastjsonschema`` validator answers the common (valid) case quickly, and only a document
that fails it is walked by ``jsonschema`` (the authority), which lists every error. Each
error becomes a finding with the path of what is wrong and a sentence, never a repr:
``players[2].name: is required``, ``event.points.win: must be a whole number, not the
text "3"``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator, ValidationError

from tournaments.interchange.problems import Finding, Where, describe, path_text, show

SCHEMA_PATH = (
    Path(__file__).resolve().parents[2] / "docs" / "schemas" / "arbiter-event-1.schema.json"
)


def _load() -> bytes:
    try:
        return SCHEMA_PATH.read_bytes()
    except OSError as exc:  # a copy of the code without docs/: say what is missing
        raise RuntimeError(
            f"The arbiter-event/1 schema is missing: {SCHEMA_PATH} ({exc.strerror})"
        ) from exc


_BYTES = _load()
_SCHEMA: dict[str, Any] = json.loads(_BYTES)
_DEFS = _SCHEMA["$defs"]

FORMAT: str = _SCHEMA["properties"]["format"]["const"]
MAX_PLAYERS: int = _SCHEMA["properties"]["players"]["maxItems"]
MAX_ROUNDS: int = _SCHEMA["properties"]["rounds"]["maxItems"]
PENDING: str = _DEFS["match"]["properties"]["result"]["const"]
MAX_AWARDED_BYES: int = _DEFS["player"]["properties"]["byes"]["maximum"]


def schema_bytes() -> bytes:
    """The committed file as it is, for serving."""
    return _BYTES


def schema_etag() -> str:
    return '"' + hashlib.sha256(_BYTES).hexdigest()[:32] + '"'


def schema_document() -> dict[str, Any]:
    """The schema as data (a fresh copy each call)."""
    return json.loads(_BYTES)


def _is_date(value: Any) -> bool:
    return Draft202012Validator.FORMAT_CHECKER.conforms(value, "date")


Draft202012Validator.check_schema(_SCHEMA)
_FULL = Draft202012Validator(_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)
# use_default=False: checking must never fill in the document (the schema states defaults).
_FAST = fastjsonschema.compile(_SCHEMA, formats={"date": _is_date}, use_default=False)


def is_valid(document: Any) -> bool:
    """The quick answer (the compiled validator); ``schema_findings`` gives the reasons."""
    try:
        _FAST(document)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def schema_findings(document: Any) -> list[Finding]:
    """Every way ``document`` does not fit the schema, each at its path."""
    if is_valid(document):
        return []
    findings: list[Finding] = []
    for error in _most_basic(_FULL.iter_errors(document)):
        findings.extend(_explain(error))
    return findings


# A value of the wrong type gets only the type error, and one out of range only that: what
# else is wrong with it follows from it (a top cut of 2000 is no power of two either).
_RANK = {"type": 0, "minimum": 1, "maximum": 1, "maxLength": 1, "minItems": 1, "maxItems": 1}


def _most_basic(errors: Any) -> list[ValidationError]:
    by_place: dict[Where, list[ValidationError]] = {}
    for error in errors:
        by_place.setdefault(tuple(error.absolute_path), []).append(error)
    kept = []
    for place_errors in by_place.values():
        lowest = min(_RANK.get(e.validator, 2) for e in place_errors)
        kept.extend(e for e in place_errors if _RANK.get(e.validator, 2) == lowest)
    return kept


def _explain(error: ValidationError) -> list[Finding]:
    where: Where = tuple(error.absolute_path)
    keyword = error.validator
    if keyword == "required":
        return _missing(error, where)
    if keyword == "uniqueItems":
        return [_repeated(error, where)]
    special = _AT_PLACE.get((path_text(where, indices=False), keyword))
    explain = special or _BY_KEYWORD.get(keyword)
    return [(where, explain(error) if explain else error.message)]


def _missing(error: ValidationError, where: Where) -> list[Finding]:
    """jsonschema reports missing keys at their parent; each key is named at its own path,
    with its value when the format allows only one (``format: is required: "…"``)."""
    findings = []
    for key in error.validator_value:
        if key in error.instance:
            continue
        fixed = error.schema.get("properties", {}).get(key, {})
        message = f"is required: {show(fixed['const'])}" if "const" in fixed else "is required"
        findings.append(((*where, key), message))
    return findings


def _repeated(error: ValidationError, where: Where) -> Finding:
    items = error.instance
    for index, item in enumerate(items):
        if item in items[:index]:
            return (*where, index), f"{show(item)} is already in the list"
    return where, "has an item more than once"


_TYPE_NOUNS = {
    "object": "an object",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}
# The two places whose types are a pair: a player's id, and a game's winner.
_PAIR_NOUNS = {
    frozenset({"string", "integer"}): "a player id (text or a whole number)",
    frozenset({"string", "integer", "null"}): "the winner's id or null for a drawn game",
}


def _expected(types: str | list[str]) -> str:
    """The words for a schema ``type``; a null that is allowed goes unsaid (it means
    "not given") except for a game, where null is a draw."""
    names = [types] if isinstance(types, str) else list(types)
    if frozenset(names) in _PAIR_NOUNS:
        return _PAIR_NOUNS[frozenset(names)]
    named = [name for name in names if name != "null"] or names
    return " or ".join(_TYPE_NOUNS[name] for name in named)


def _wrong_type(error: ValidationError) -> str:
    if error.schema.get("format") == "date":
        return _format(error)
    return f"must be {_expected(error.validator_value)}, not {describe(error.instance)}"


def _one_of(error: ValidationError) -> str:
    allowed = ", ".join(show(choice) for choice in error.validator_value)
    return f"must be one of {allowed}, not {show(error.instance)}"


def _range(error: ValidationError) -> str:
    low, high = error.schema.get("minimum"), error.schema.get("maximum")
    if low is not None and high is not None:
        return f"must be between {low} and {high}, not {error.instance}"
    if low is not None:
        return f"must be at least {low}, not {error.instance}"
    return f"must be at most {high}, not {error.instance}"


def _too_long(error: ValidationError) -> str:
    return f"must be at most {error.validator_value} characters, not {len(error.instance)}"


def _pattern(error: ValidationError) -> str:
    if error.validator_value == r"\S":
        return "must not be empty"
    return f"must match the pattern {error.validator_value}"


def _too_many(error: ValidationError) -> str:
    named = [step for step in error.absolute_path if isinstance(step, str)]
    what = named[-1] if named else "items"
    return f"holds {len(error.instance)} {what}; the limit is {error.validator_value}"


def _too_few(error: ValidationError) -> str:
    return f"must hold at least {error.validator_value}, not {len(error.instance)}"


def _format(error: ValidationError) -> str:
    """A value not of its format (or not even text where a date is due)."""
    written = error.schema.get("format")
    if written == "date":
        return f"must be a date written YYYY-MM-DD, not {show(error.instance)}"
    return f"must be a valid {written}, not {show(error.instance)}"


def _fixed(error: ValidationError) -> str:
    return f"must be {show(error.validator_value)}, not {show(error.instance)}"


_BY_KEYWORD: dict[str, Callable[[ValidationError], str]] = {
    "type": _wrong_type,
    "enum": _one_of,
    "const": _fixed,
    "minimum": _range,
    "maximum": _range,
    "maxLength": _too_long,
    "pattern": _pattern,
    "maxItems": _too_many,
    "minItems": _too_few,
    "format": _format,
}


def _seats(error: ValidationError) -> str:
    one = error.schema.get("maxItems") == 1
    what = "a bye has exactly one player" if one else "a match has exactly two players"
    return f"{what}, not {len(error.instance)}"


# Places whose rule reads better said for that place: (path without indices, keyword).
_AT_PLACE: dict[tuple[str, str], Callable[[ValidationError], str]] = {
    ("", "type"): lambda e: f"the document must be a JSON object, not {describe(e.instance)}",
    ("format", "const"): lambda e: (
        f"{show(e.instance)} is not supported: this site reads {show(FORMAT)}"
    ),
    ("event.top_cut", "enum"): lambda e: (
        f"must be 0 or a power of two (2, 4, 8, …), not {show(e.instance)}"
    ),
    ("rounds[].matches[].players", "minItems"): _seats,
    ("rounds[].matches[].players", "maxItems"): _seats,
    ("rounds[].matches[].result", "const"): lambda e: (
        f"must be {show(PENDING)} when present, not {show(e.instance)}"
    ),
    ("phases.flights", "minItems"): lambda e: "must hold at least one flight",
}
# A flight's rounds read as the main event's.
_AT_PLACE.update(
    {
        (f"phases.flights[].{place}", keyword): explain
        for (place, keyword), explain in list(_AT_PLACE.items())
        if place.startswith("rounds[]")
    }
)

# Keywords that hold or combine rules rather than state one (never reported themselves).
STRUCTURE_KEYWORDS = frozenset(
    {"$schema", "$id", "$defs", "$ref", "properties", "items", "if", "then", "else"}
)
ANNOTATION_KEYWORDS = frozenset({"title", "description", "default"})
EXPLAINED_KEYWORDS = frozenset({*_BY_KEYWORD, "required", "uniqueItems"})
