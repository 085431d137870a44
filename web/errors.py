"""A refused change or request, in the one shape every app raises and the API returns.

A service refuses with a message for the person who asked; when it knows which input
is at fault it names the field, and when several are wrong it lists them all, so the
API can answer ``{"errors": [{"field": ..., "message": ...}]}`` and a form can mark
each field. Nothing here uses Django: pure modules may raise it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict


class FieldError(TypedDict):
    """One problem: the field at fault (None: the request as a whole) and why."""

    field: str | None
    message: str


class ServiceError(Exception):
    """A refused change, with a message meant for the person who asked.

    ``errors`` is always a non-empty list of :class:`FieldError`: the given ``errors``,
    or else the one ``message`` with its ``field``. ``status`` is the HTTP status the API
    answers a refusal with: 400, unless a subclass says otherwise (409 for a conflict).
    """

    status: int = 400

    def __init__(
        self,
        message: str,
        field: str | None = None,
        errors: Iterable[FieldError] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        listed = [FieldError(field=e["field"], message=e["message"]) for e in errors or ()]
        self.errors: list[FieldError] = listed or [FieldError(field=field, message=message)]

    @classmethod
    def of(cls, errors: Iterable[FieldError]) -> ServiceError:
        """One error for several problems; its message joins theirs (for logs and pages)."""
        listed = list(errors)
        if not listed:
            raise ValueError("A ServiceError needs at least one problem.")
        message = " ".join(e["message"] for e in listed)
        field = listed[0]["field"] if len(listed) == 1 else None
        return cls(message, field, listed)

    @property
    def fields(self) -> list[str | None]:
        """The fields at fault, in order (None for the request as a whole)."""
        return [e["field"] for e in self.errors]
