"""DRF parsers that refuse an oversized body before reading it.

DRF's own parsers read a body of any size into memory. These check the declared
``Content-Length`` first and never read more than the limit plus one byte, answering
413 naming the limit; malformed JSON is a 400 naming the problem (via
``web.jsonbody``, which also turns NaN, deep nesting and huge integers into 400s
rather than 500s). JSON and form bodies alike then pass ``web.inputs.unusable_at``: a
lone surrogate, a NUL or an infinite number is a 400 naming the field.

The limit is ``settings.API_MAX_BODY_BYTES``; a view may set ``max_body_bytes`` to
allow more (or less).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser, FormParser, JSONParser, MultiPartParser

from web import jsonbody
from web.inputs import form_fields, unusable_at, urlencoded_fields


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _lazy("The request body is too large.")
    default_code = "body_too_large"


def body_limit(parser_context: dict[str, Any] | None) -> int:
    """The byte limit for this request: the view's ``max_body_bytes`` or the setting."""
    view = (parser_context or {}).get("view")
    limit = getattr(view, "max_body_bytes", None)
    return int(limit if limit is not None else settings.API_MAX_BODY_BYTES)


def _declared_length(parser_context: dict[str, Any] | None) -> int | None:
    request = (parser_context or {}).get("request")
    raw = request.META.get("CONTENT_LENGTH", "") if request is not None else ""
    return int(raw) if raw.isdigit() else None


def _too_large(limit: int, size: int | None) -> BodyTooLarge:
    if size is None:
        return BodyTooLarge(_("The body is over the limit of %(limit)s bytes.") % {"limit": limit})
    return BodyTooLarge(
        _("The body is %(size)s bytes; the limit is %(limit)s bytes.")
        % {"size": size, "limit": limit}
    )


def read_limited(stream, parser_context: dict[str, Any] | None) -> bytes:
    """At most the limit's worth of the body; BodyTooLarge (413) if there is more."""
    limit = body_limit(parser_context)
    declared = _declared_length(parser_context)
    if declared is not None and declared > limit:
        raise _too_large(limit, declared)
    raw = stream.read(limit + 1) if stream is not None else b""
    if len(raw) > limit:
        raise _too_large(limit, None)
    return raw


class LimitedJSONParser(JSONParser):
    """JSON objects up to the limit; every malformation a 400 naming what is wrong.

    Every endpoint parsing its body this way reads named fields, so anything but an
    object (a list, a bare number) is refused here rather than failing in the view.
    """

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        raw = read_limited(stream, parser_context)
        try:
            limit = body_limit(parser_context)
            data = jsonbody.parse_json(raw, limit=limit, expected="the fields as a JSON object")
        except jsonbody.BodyError as exc:
            raise ParseError({exc.field: [str(exc)]} if exc.field else str(exc)) from None
        if not isinstance(data, dict):
            raise ParseError(_not_an_object(data))
        return data


def _not_an_object(value: Any) -> str:
    """The refusal of a JSON body that is not an object, naming what it is instead."""
    if isinstance(value, list):
        return _("Send the fields as a JSON object, not a list.")
    if isinstance(value, str):
        return _("Send the fields as a JSON object, not a string.")
    if value is None:
        return _("Send the fields as a JSON object, not null.")
    if isinstance(value, bool):
        return _("Send the fields as a JSON object, not true or false.")
    return _("Send the fields as a JSON object, not a number.")


class LimitedFormParser(FormParser):
    """URL-encoded forms up to the limit (DRF's reads any size)."""

    def parse(self, stream, media_type=None, parser_context=None) -> QueryDict:
        raw = read_limited(stream, parser_context)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        problem = unusable_at(urlencoded_fields(raw.decode("latin-1")))
        if problem:
            raise ParseError({problem["field"]: [problem["message"]]})
        return QueryDict(raw, encoding=encoding)


class LimitedMultiPartParser(MultiPartParser):
    """Multipart forms whose declared length is within the limit.

    Django's multipart parser reads no further than ``Content-Length``, so checking the
    declared length bounds what is read.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        limit = body_limit(parser_context)
        declared = _declared_length(parser_context)
        if declared is not None and declared > limit:
            raise _too_large(limit, declared)
        parsed = super().parse(stream, media_type, parser_context)
        problem = unusable_at(form_fields(parsed.data.lists()))
        if problem:
            raise ParseError({problem["field"]: [problem["message"]]})
        return parsed


class UnreadBody(BaseParser):
    """Any body, left unread for a view that reads it itself (the event import).

    DRF's CSRF check for a browser session asks for the form fields, which parses the
    body; with no parser at all that was a 415. This one answers "no form fields" and
    leaves the stream to the view, which applies its own limit and names every problem.
    """

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None) -> dict:
        return {}
