"""Reading a JSON request body ourselves, so every way it can be wrong is a clear 4xx.

DRF's parsers turn some bad bodies into 500s (NaN, nesting deep enough to recurse,
integers too long to parse) and read without a limit; these helpers refuse an
oversized body before reading it and name the problem in every other case, including
values that parse but cannot be used (``unusable_at``).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, UnreadablePostError
from django.utils.translation import gettext as _

from web.inputs import unusable_at


class BodyError(Exception):
    """A body that cannot be used; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400, field: str | None = None):
        super().__init__(message)
        self.status = status
        self.field = field


def _reject_constant(name: str) -> Any:
    # Translators: %(name)s is what the body held: NaN, Infinity or -Infinity.
    raise BodyError(_("%(name)s is not valid JSON: numbers must be finite.") % {"name": name})


def _too_big(limit: int, size: int | None, status: int) -> BodyError:
    if size is None:
        message = _("The body is over the limit is %(limit)s bytes.") % {"limit": limit}
    else:
        message = _("The body is %(size)s bytes; the limit is %(limit)s bytes.") % {
            "size": size,
            "limit": limit,
        }
    return BodyError(message, status=status)


def parse_json(raw: bytes, *, limit: int, expected: str, too_big_status: int = 400) -> Any:
    """The JSON value of ``raw``, or BodyError naming what is wrong with it."""
    if len(raw) > limit:
        raise _too_big(limit, len(raw), too_big_status)
    if not raw.strip():
        # Translators: %(expected)s is what the endpoint reads, e.g. "the fields as a JSON object".
        raise BodyError(_("The body is empty: send %(expected)s as JSON.") % {"expected": expected})
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        message = _("The body is not UTF-8 text (byte %(byte)s).") % {"byte": exc.start}
        raise BodyError(message) from None
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        # Translators: %(error)s is Python's own description, in English ("Expecting value").
        message = _("The body is not valid JSON: %(error)s at line %(line)s, column %(column)s.")
        raise BodyError(
            message % {"error": exc.msg, "line": exc.lineno, "column": exc.colno}
        ) from None
    except RecursionError:
        raise BodyError(_("The body is nested too deeply.")) from None
    except ValueError as exc:  # e.g. an integer with more digits than Python will parse
        # Translators: %(error)s is Python's own description, in English.
        message = _("The body is not a usable JSON value: %(error)s") % {"error": exc}
        raise BodyError(message) from None
    problem = unusable_at(value)
    if problem is not None:
        raise BodyError(problem["message"], field=problem["field"])
    return value


def read_json_body(
    request: HttpRequest, *, limit: int, expected: str, too_big_status: int = 400
) -> Any:
    """Parse the request's body; a body declaring more than ``limit`` is refused unread."""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if declared.isdigit() and int(declared) > limit:
        raise _too_big(limit, int(declared), too_big_status)
    django_request = getattr(request, "_request", request)  # a DRF Request wraps Django's
    try:
        raw = django_request.read(limit + 1)
    except UnreadablePostError:
        raise BodyError(_("The body could not be read: the upload was cut short.")) from None
    return parse_json(raw, limit=limit, expected=expected, too_big_status=too_big_status)
