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

from web.inputs import unusable_at


class BodyError(Exception):
    """A body that cannot be used; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400, field: str | None = None):
        super().__init__(message)
        self.status = status
        self.field = field


def _reject_constant(name: str) -> Any:
    raise BodyError(f"{name} is not valid JSON: numbers must be finite.")


def _too_big(limit: int, size: int | None, status: int) -> BodyError:
    told = f"The body is {size} bytes; the" if size is not None else "The body is over the"
    return BodyError(f"{told} limit is {limit} bytes.", status=status)


def parse_json(raw: bytes, *, limit: int, expected: str, too_big_status: int = 400) -> Any:
    """The JSON value of ``raw``, or BodyError naming what is wrong with it."""
    if len(raw) > limit:
        raise _too_big(limit, len(raw), too_big_status)
    if not raw.strip():
        raise BodyError(f"The body is empty: send {expected} as JSON.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(f"The body is not UTF-8 text (byte {exc.start}).") from None
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise BodyError(
            f"The body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except RecursionError:
        raise BodyError("The body is nested too deeply.") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python will parse
        raise BodyError(f"The body is not a usable JSON value: {exc}") from None
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
        raise BodyError("The body could not be read: the upload was cut short.") from None
    return parse_json(raw, limit=limit, expected=expected, too_big_status=too_big_status)
