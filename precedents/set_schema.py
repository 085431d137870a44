"""The precedent-set JSON Schema: loading it, and saying where a document does not fit it.

The schema is the committed file ``docs/schemas/precedent-set.schema.json`` (the site runs
from its checkout, as for the ``arbiter-event/1`` schema). As there, a compiled
``fastjsonschema`` validator answers the common (valid) case quickly and only a document
that fails it is walked by ``jsonschema``, the authority, for every error. Each error
becomes a :class:`~web.errors.FieldError` whose field is the path of what is wrong
(``precedents[2].decision``) and whose message names that path too, so a person fixing
the file by hand, or reading a command's output, knows where to look.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

import fastjsonschema
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator, FormatChecker, ValidationError

from tournaments.interchange.problems import path_text, show
from web.errors import FieldError

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "schemas" / "precedent-set.schema.json"
MAX_REPORTED = 100

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([Zz]|[+-]\d{2}:\d{2})"
)


def _load() -> dict[str, Any]:
    try:
        return json.loads(SCHEMA_PATH.read_bytes())
    except OSError as exc:  # a copy of the code without docs/: say what is missing
        raise RuntimeError(
            f"The precedent-set schema is missing: {SCHEMA_PATH} ({exc.strerror})"
        ) from exc


_SCHEMA = _load()
FORMAT: str = _SCHEMA["properties"]["format"]["const"]
VERSION: int = _SCHEMA["properties"]["version"]["const"]
FIELDS: tuple[str, ...] = tuple(_SCHEMA["$defs"]["precedent"]["required"])
MAX_SITE: int = _SCHEMA["properties"]["site"]["maxLength"]


def schema_document() -> dict[str, Any]:
    """The schema as data (a fresh copy each call)."""
    return json.loads(json.dumps(_SCHEMA))


def is_date(value: Any) -> bool:
    """YYYY-MM-DD naming a real day (anything but text is another keyword's business)."""
    if not isinstance(value, str):
        return True
    try:
        return bool(_DATE.fullmatch(value)) and bool(date.fromisoformat(value))
    except ValueError:
        return False


def is_date_time(value: Any) -> bool:
    """An RFC 3339 date and time with its offset."""
    if not isinstance(value, str):
        return True
    try:
        return bool(_DATE_TIME.fullmatch(value)) and bool(datetime.fromisoformat(value))
    except ValueError:
        return False


_FORMATS = {"date": is_date, "date-time": is_date_time}
_CHECKER = FormatChecker(formats=())
for _name, _check in _FORMATS.items():
    _CHECKER.checks(_name)(_check)

Draft202012Validator.check_schema(_SCHEMA)
_FULL = Draft202012Validator(_SCHEMA, format_checker=_CHECKER)
# use_default=False: checking must never fill in the document.
_FAST = fastjsonschema.compile(_SCHEMA, formats=_FORMATS, use_default=False)


def is_valid(document: Any) -> bool:
    """The quick answer; :func:`problems` gives the reasons."""
    try:
        _FAST(document)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def problems(document: Any) -> list[FieldError]:
    """Every way ``document`` does not fit the schema (the first MAX_REPORTED), in the
    schema's order and the lists' order, each naming its path; empty when it fits."""
    if is_valid(document):
        return []
    found: list[FieldError] = []
    for error in _most_basic(_FULL.iter_errors(document)):
        found.extend(e for e in _explain(error) if e not in found)  # one per missing key
        if len(found) >= MAX_REPORTED:
            break
    return found[:MAX_REPORTED] or [
        FieldError(field=None, message=_("The file is not a precedent set."))
    ]


# A value of the wrong type gets only the type error (what else is wrong follows from it).
_RANK = {"type": 0, "const": 0}


def _most_basic(errors: Any) -> list[ValidationError]:
    by_place: dict[tuple, list[ValidationError]] = {}
    for error in errors:
        by_place.setdefault(tuple(error.absolute_path), []).append(error)
    kept = []
    for place_errors in by_place.values():
        lowest = min(_RANK.get(e.validator, 1) for e in place_errors)
        kept.extend(e for e in place_errors if _RANK.get(e.validator, 1) == lowest)
    return kept


def _type_noun(kind: str) -> str:
    nouns = {
        "object": _("an object"),
        "array": _("a list"),
        "string": _("text"),
        "integer": _("a whole number"),
        "number": _("a number"),
        "boolean": _("true or false"),
        "null": _("null"),
    }
    return nouns.get(kind, kind)


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _explain(error: ValidationError) -> list[FieldError]:
    where = tuple(error.absolute_path)
    path = path_text(where)
    keyword = error.validator
    if keyword == "required":
        return [
            FieldError(
                field=path_text((*where, key)),
                message=_("%(path)s is missing.") % {"path": path_text((*where, key))},
            )
            for key in error.validator_value
            if isinstance(error.instance, dict) and key not in error.instance
        ]
    return [FieldError(field=path or None, message=_message(error, keyword, path))]


def _message(error: ValidationError, keyword: str, path: str) -> str:
    value = error.instance
    shown = show(value)
    if keyword == "type" and not path:
        return _("A precedent set is a JSON object, not %(found)s.") % {
            "found": _type_noun(_kind_of(value))
        }
    if keyword == "type":
        types = error.validator_value
        named = [types] if isinstance(types, str) else [t for t in types if t != "null"]
        return _("%(path)s must be %(expected)s, not %(found)s.") % {
            "path": path,
            "expected": ", ".join(_type_noun(t) for t in named),
            "found": _type_noun(_kind_of(value)),
        }
    if keyword == "const" and path in ("format", "version"):
        return _(
            "This is not a precedent set this site reads: %(path)s must be %(expected)s, "
            "not %(found)s."
        ) % {"path": path, "expected": show(error.validator_value), "found": shown}
    if keyword in ("enum", "const"):
        allowed = error.validator_value if keyword == "enum" else [error.validator_value]
        return _("%(path)s must be one of %(allowed)s, not %(found)s.") % {
            "path": path,
            "allowed": ", ".join(show(choice) for choice in allowed),
            "found": shown,
        }
    if keyword == "pattern":
        return _pattern(error, path, shown)
    if keyword == "maxLength":
        return _("%(path)s is %(length)s characters long; the limit is %(limit)s.") % {
            "path": path,
            "length": len(value),
            "limit": error.validator_value,
        }
    if keyword in ("maxItems", "maxProperties"):
        return _("%(path)s holds %(count)s entries; the limit is %(limit)s.") % {
            "path": path,
            "count": len(value),
            "limit": error.validator_value,
        }
    if keyword in ("minimum", "maximum"):
        return _("%(path)s must be between %(low)s and %(high)s, not %(found)s.") % {
            "path": path,
            "low": error.schema.get("minimum"),
            "high": error.schema.get("maximum"),
            "found": shown,
        }
    if keyword == "format" and error.validator_value == "date":
        return _("%(path)s must be a date written YYYY-MM-DD, not %(found)s.") % {
            "path": path,
            "found": shown,
        }
    if keyword == "format":
        return _(
            "%(path)s must be a date and time written like 2026-05-02T14:03:00+00:00, "
            "not %(found)s."
        ) % {"path": path, "found": shown}
    return f"{path}: {error.message}" if path else error.message


def _pattern(error: ValidationError, path: str, shown: str) -> str:
    if error.validator_value == r"\S":
        return _("%(path)s must not be empty.") % {"path": path}
    if path.endswith(".uid"):
        return _(
            "%(path)s must be a UUID (like 0b6f3c1e-8a2d-4c55-9e61-2f4a7d9b1c03), not %(found)s."
        ) % {"path": path, "found": shown}
    if path.endswith(".question"):
        return _(
            "%(path)s must be a question's name (lower-case letters, digits and hyphens), "
            "not %(found)s."
        ) % {"path": path, "found": shown}
    return _("%(path)s does not have the form %(pattern)s.") % {
        "path": path,
        "pattern": error.validator_value,
    }
