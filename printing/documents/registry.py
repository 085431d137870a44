"""The print documents there are: kind name → the one object that knows how to print it.

Jobs, the print page and the samples read this registry and nothing else, so a
document kind is added by writing its class with ``@register`` above it.
"""

from __future__ import annotations

from typing import TypeVar

from printing.documents.base import DocumentKind

Kind = TypeVar("Kind", bound=type[DocumentKind])

_KINDS: dict[str, DocumentKind] = {}


def register(cls: Kind) -> Kind:
    """Class decorator: make ``cls`` printable under ``cls.name`` (one instance, shared)."""
    # A title is a string or a lazy translation (never evaluated here: at import time
    # there may be no translations yet).
    if not cls.name or (isinstance(cls.title, str) and not cls.title):
        raise ValueError(f"{cls.__name__} needs a name and a title to be printed.")
    if cls.name in _KINDS:
        raise ValueError(f"Print document {cls.name!r} is registered twice.")
    _KINDS[cls.name] = cls()
    return cls


def unregister(name: str) -> None:
    """Forget a kind (a throwaway kind registered for a test, say)."""
    _KINDS.pop(name, None)


def find(name: str) -> DocumentKind | None:
    """The kind called ``name``, or None: for callers that answer an unknown name themselves."""
    return _KINDS.get(name)


def get(name: str) -> DocumentKind:
    """The kind called ``name``; a ValueError naming the known ones if there is none."""
    kind = _KINDS.get(name)
    if kind is None:
        raise ValueError(f"Unknown print document {name!r}; known: {', '.join(_KINDS)}")
    return kind


def all_kinds() -> list[DocumentKind]:
    """Every kind, in the order the print page offers them."""
    return sorted(_KINDS.values(), key=lambda kind: kind.position)
