"""Reading what a request sends: API bodies and query strings, form fields and URLs.

Every API reads its fields through :class:`Reader`, so a field means the same thing
everywhere: an id is ASCII digits naming a positive number (``str.isdigit`` also
accepts "²", which ``int`` cannot read), text has a length limit and no NUL (which
PostgreSQL cannot store) or lone surrogate (which is not text), and every field that
is wrong is reported, each naming itself, in one :class:`~web.errors.ServiceError`, so
the client fixes them all at once and nothing is written. :func:`unusable_at` is the
one walk over a whole parsed body (JSON or form) that every body reader makes first.
Nothing here imports Django: the messages are translated (field names stay as sent) by
Django's gettext only when one is written, and only where settings are configured.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from web.errors import FieldError, ServiceError


def _(message: str) -> str:
    """``message`` in the active language (Django's gettext, imported here so that
    importing this module loads no Django); as written where Django is not set up."""
    from django.conf import settings

    if not settings.configured:
        return message
    from django.utils.translation import gettext

    return gettext(message)


MAX_NOTE = 2_000  # a reason, a note, a question: a sentence or two for the log
MAX_ID = 2**63 - 1  # the id columns' ceiling: a larger number is no row's id
MAX_DIGITS = 30  # longer digit strings are refused unread (int() of them is slow)
_WHOLE = re.compile(r"[0-9]{1,9}")
_INTEGER = re.compile(rf"\s*(-?[0-9]{{1,{MAX_DIGITS}}})\s*")
TRUE_WORDS = frozenset({"true", "on", "1", "yes"})
FALSE_WORDS = frozenset({"false", "off", "0", "no", ""})


def whole_number(raw: object) -> int | None:
    """The number in ``raw`` (a form field, a URL part) if it is plain ASCII digits, else None.

    For pages, which answer a bad number by ignoring it; APIs use :class:`Reader`.
    """
    text = str(raw if raw is not None else "").strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def _as_integer(value: Any) -> int | None:
    """An int, or a string of ASCII digits (form bodies, query strings); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        found = _INTEGER.fullmatch(value)
        return int(found.group(1)) if found else None
    return None


# JSON may escape half of a UTF-16 pair ("\ud800") alone; Python keeps it, and it then
# fails wherever the text is encoded (the database, the response). NUL ("\u0000") is text
# to Python and JSON but PostgreSQL's text and jsonb columns refuse it; "1e999" reads as
# an infinite float, which breaks arithmetic and ids. All are refused on arrival.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(field: str, text: str) -> str | None:
    """Why ``text`` (the value of ``field``) cannot be stored or shown, or None."""
    if _LONE_SURROGATE.search(text):
        return _(
            "%(field)s is not text: it holds a lone UTF-16 surrogate (an escape like \\ud800"
            " without its pair) or bytes that are not UTF-8."
        ) % {"field": field}
    if "\x00" in text:
        return _("%(field)s may not contain NUL characters (\\u0000).") % {"field": field}
    return None


def unusable_at(value: Any) -> FieldError | None:
    """The first text, key or number of a parsed body that cannot be used, or None.

    The one walk every reader of a body makes (the API's parsers, the import, the rules
    API, the pages that read JSON, form bodies): the problem, its ``field`` the path to
    the value ("players[0].name"; "(body)" for the body itself or a key of it).
    """
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        where = path or "(body)"
        if isinstance(item, str):
            problem = text_problem(where, item)
            if problem:
                return FieldError(field=where, message=problem)
        elif isinstance(item, float) and not math.isfinite(item):
            message = _("%(field)s is a number too large to be used.") % {"field": where}
            return FieldError(field=where, message=message)
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and text_problem(where, key):
                    key_of = _("A key in %(field)s") % {"field": where}
                    return FieldError(field=where, message=text_problem(key_of, key))
                stack.append((f"{path}.{key}" if path else str(key), child))
        elif isinstance(item, list | tuple):
            stack.extend((f"{path}[{i}]", child) for i, child in enumerate(item))
    return None


def urlencoded_fields(encoded: str) -> dict[str, Any]:
    """The fields of a query string or URL-encoded form, for :func:`unusable_at`.

    Django decodes bytes that are not UTF-8 (``%ED%A0%80``, a surrogate's bytes) to
    U+FFFD without a word; read here, they stay lone surrogates, so the field is named.
    A repeated field is a list, as in a JSON body.
    """
    pairs = parse_qsl(encoded, keep_blank_values=True, errors="surrogateescape")
    listed: dict[str, list[str]] = {}
    for key, value in pairs:
        listed.setdefault(key, []).append(value)
    return form_fields(listed.items())


def form_fields(lists: Iterable[tuple[str, list[Any]]]) -> dict[str, Any]:
    """A form's (field, values) pairs (``QueryDict.lists()``) as a JSON body holds them:
    one value as itself, a repeated field as a list."""
    return {key: values[0] if len(values) == 1 else list(values) for key, values in lists}


def limited(field: str, text: str, max_length: int = MAX_NOTE) -> str:
    """``text`` if it has at most ``max_length`` characters, else a ServiceError naming
    the field and the limit. Services call it, so a page's form (which hands them what
    it was sent) and the API are held to the same limit, before the database."""
    if len(text) > max_length:
        raise ServiceError(too_long(field, text, max_length), field)
    return text


def too_long(field: str, text: str, max_length: int) -> str:
    """The one wording of a text past its limit, for the services and the readers alike."""
    return _("%(field)s is %(length)s characters long; keep it to %(limit)s.") % {
        "field": field,
        "length": f"{len(text):,}",
        "limit": f"{max_length:,}",
    }


def _words(choices: Collection[str]) -> str:
    listed = [str(c) for c in choices]
    if len(listed) == 1:
        return listed[0]
    return _("%(listed)s or %(last)s") % {"listed": ", ".join(listed[:-1]), "last": listed[-1]}


class Reader:
    """The fields of one request, read one by one; every problem collected.

    Each reading method returns the value, or None (a default for text and booleans)
    after noting what is wrong; :meth:`check` then raises one ServiceError listing
    every problem. Values read before ``check`` must not be used until it has passed.
    """

    def __init__(self, data: Any, *, what: str | None = None):
        if not isinstance(data, Mapping):
            if what is None:
                raise ServiceError(_("Send the fields as a JSON object."))
            raise ServiceError(_("Send %(what)s.") % {"what": what})
        self.data = data
        self.errors: list[FieldError] = []

    def fail(self, field: str | None, message: str) -> None:
        """Note a problem found by the caller (a rule the reader does not know)."""
        self.errors.append(FieldError(field=field, message=str(message)))  # a lazy one too

    def check(self) -> None:
        """Raise one ServiceError listing every problem noted so far."""
        if self.errors:
            raise ServiceError.of(self.errors)

    def has(self, field: str) -> bool:
        """Whether the field was sent with a value (null and "" count as not sent)."""
        return self.data.get(field) not in (None, "")

    def _missing(self, field: str, required: bool, message: str | None = None) -> bool:
        if self.has(field):
            return False
        if required:
            self.fail(field, message or _("%(field)s is required.") % {"field": field})
        return True

    def integer(
        self,
        field: str,
        *,
        required: bool = True,
        minimum: int | None = None,
        maximum: int | None = None,
        message: str | None = None,
    ) -> int | None:
        """A whole number within the bounds given; ``message`` replaces the reader's own
        words for a value that is missing, not a number or out of bounds."""
        if self._missing(field, required, message):
            return None
        value = _as_integer(self.data.get(field))
        if value is None:
            self.fail(field, message or _("%(field)s must be a whole number.") % {"field": field})
            return None
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            self.fail(field, message or _bounds(field, minimum, maximum))
            return None
        return value

    def id(self, field: str, *, required: bool = True, message: str | None = None) -> int | None:
        """A row id: a positive whole number that fits an id column."""
        message = message or _("%(field)s must be an id (a whole number from 1).") % {
            "field": field
        }
        return self.integer(field, required=required, minimum=1, maximum=MAX_ID, message=message)

    def ids(self, field: str, *, message: str | None = None) -> list[int] | None:
        """A list of row ids (a JSON list, or the field repeated in a form)."""
        value = self.data.get(field)
        if isinstance(value, str) and hasattr(self.data, "getlist"):
            value = self.data.getlist(field)
        found = [_as_integer(item) for item in value] if isinstance(value, list) else None
        if found is None or any(pk is None or not 1 <= pk <= MAX_ID for pk in found):
            self.fail(field, message or _("%(field)s must be a list of ids.") % {"field": field})
            return None
        return found

    def row(
        self,
        field: str,
        rows: Any,
        *,
        required: bool = True,
        missing: str | None = None,
        message: str | None = None,
    ) -> Any:
        """The row of ``rows`` (a queryset) whose id the field holds, or None.

        Only ids among ``rows`` are found, so an id of another event's row is refused.
        ``missing`` words the refusal of a number that is no such row (``{id}`` is the
        number); ``message`` that of a value that is missing or no number at all (both
        default to the reader's own).
        """
        pk = self.integer(field, required=required, message=message)
        if pk is None:
            return None
        found = rows.filter(pk=pk).first() if 1 <= pk <= MAX_ID else None
        if found is None:
            words = missing or _("There is no {field} {id}.")
            self.fail(field, words.format(field=field, id=pk))
        return found

    def text(
        self,
        field: str,
        *,
        required: bool = False,
        max_length: int | None = None,
        strip: bool = False,
        message: str | None = None,
    ) -> str:
        """Text, "" when not sent; at most ``max_length`` characters and never a NUL."""
        value = self.data.get(field)
        if value is None:
            value = ""
        if not isinstance(value, str):
            self.fail(field, message or _("%(field)s must be text.") % {"field": field})
            return ""
        if strip:
            value = value.strip()
        problem = text_problem(field, value)
        if problem:
            self.fail(field, problem)
            return ""
        if max_length is not None and len(value) > max_length:
            self.fail(field, message or too_long(field, value, max_length))
            return ""
        if required and not value.strip():
            self.fail(field, _("%(field)s is required.") % {"field": field})
        return value

    def boolean(self, field: str, *, default: bool = False) -> bool:
        """true or false (or, from a form, on/off, yes/no, 1/0)."""
        value = self.data.get(field, default)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
            return value.strip().lower() in TRUE_WORDS
        self.fail(field, _("%(field)s must be true or false.") % {"field": field})
        return default

    def choice(
        self,
        field: str,
        choices: Collection[str],
        *,
        required: bool = True,
        message: str | None = None,
    ) -> str | None:
        """One of ``choices``; ``message`` replaces "<field> must be a, b or c."."""
        if not self.has(field):
            if required:
                self.fail(field, message or _must_be(field, choices))
            return None
        value = self.data.get(field)
        if not isinstance(value, str) or value not in choices:
            self.fail(field, message or _must_be(field, choices))
            return None
        return value

    def mapping(self, field: str, *, message: str | None = None) -> dict[str, Any] | None:
        """A JSON object, or None when not sent."""
        value = self.data.get(field)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            self.fail(field, message or _("%(field)s must be an object.") % {"field": field})
            return None
        return dict(value)

    def checked(self, field: str, rule: Callable[[], Any]) -> Any:
        """Run a service's check of one field; its refusal becomes that field's error."""
        try:
            return rule()
        except ServiceError as exc:
            self.errors.extend(
                FieldError(field=e["field"] or field, message=e["message"]) for e in exc.errors
            )
            return None


def _must_be(field: str, choices: Collection[str]) -> str:
    return _("%(field)s must be %(choices)s.") % {"field": field, "choices": _words(choices)}


def _bounds(field: str, minimum: int | None, maximum: int | None) -> str:
    """The refusal of a number outside its bounds."""
    if minimum is not None and maximum is not None:
        return _("%(field)s must be from %(minimum)s to %(maximum)s.") % {
            "field": field,
            "minimum": f"{minimum:,}",
            "maximum": f"{maximum:,}",
        }
    if minimum is not None:
        return _("%(field)s must be at least %(minimum)s.") % {
            "field": field,
            "minimum": f"{minimum:,}",
        }
    return _("%(field)s must be at most %(maximum)s.") % {"field": field, "maximum": f"{maximum:,}"}
