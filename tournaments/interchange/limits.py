"""Who may import how much, and whether their event is public at once.

Anyone signed in may import an event (they become its organiser), so an import must
neither publish to everyone what anybody uploads nor make the site do unbounded work in
a web request. A user without the ``tournaments.import_published_event`` permission
(site staff grant it; superusers have it) gets a draft, only theirs to see until they
publish it, and the ordinary limits (``IMPORT_MAX_PLAYERS``, ``_ROUNDS``, ``_MATCHES``).
With the permission, and for the ``import_event`` command, the file's status stands
and the ``*_TRUSTED`` limits apply: they are the bound past which nobody's import runs.

The counts are taken from the parsed document before the schema or any rule looks at
it: a document past a limit costs a few ``len`` calls, not a validation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from tournaments.interchange.problems import InterchangeError, Problem

IMPORT_PERMISSION = "tournaments.import_published_event"
_COUNTED = ("players", "rounds", "matches")


class ImportTooBig(InterchangeError):
    """A document past the importer's limits: refused unread (the API answers 413)."""


@dataclass(frozen=True)
class ImportPolicy:
    """What one importer may do: the most of each count, and whether to keep the status."""

    players: int
    rounds: int
    matches: int
    keeps_status: bool
    trusted: bool

    @classmethod
    def ordinary(cls) -> ImportPolicy:
        """A signed-in user without the permission: a draft, within the ordinary limits."""
        return cls(
            players=settings.IMPORT_MAX_PLAYERS,
            rounds=settings.IMPORT_MAX_ROUNDS,
            matches=settings.IMPORT_MAX_MATCHES,
            keeps_status=False,
            trusted=False,
        )

    @classmethod
    def operator(cls) -> ImportPolicy:
        """The permission's holders and the command: the file's status, the highest limits."""
        return cls(
            players=settings.IMPORT_MAX_PLAYERS_TRUSTED,
            rounds=settings.IMPORT_MAX_ROUNDS_TRUSTED,
            matches=settings.IMPORT_MAX_MATCHES_TRUSTED,
            keeps_status=True,
            trusted=True,
        )

    @classmethod
    def for_user(cls, user: Any) -> ImportPolicy:
        """The policy of ``user``: ``operator`` with the permission, else ``ordinary``."""
        if user is not None and user.is_authenticated and user.has_perm(IMPORT_PERMISSION):
            return cls.operator()
        return cls.ordinary()

    def check_size(self, document: Any) -> None:
        """Raise ImportTooBig naming the first count past its limit (and the limit).

        Only lists are counted: anything else the schema reports in its own words.
        """
        counts = document_counts(document)
        for name in _COUNTED:
            limit = getattr(self, name)
            if counts[name] > limit:
                raise ImportTooBig([Problem(name, self._message(name, counts[name], limit))])

    def _message(self, name: str, count: int, limit: int) -> str:
        words = f"This file has {count:,} {name}; an import may hold at most {limit:,}"
        if self.trusted:
            return f"{words}. Split the event, or ask the site's operator to raise the limit."
        return (
            f"{words} for your account. Site staff can grant the permission to import "
            "larger events."
        )


def _items(value: Any) -> list:
    return value if isinstance(value, list) else []


def document_counts(document: Any) -> dict[str, int]:
    """Players, rounds and matches of a parsed document, counting only what is a list
    (the rounds of an event in phases are its own and its flights')."""
    if not isinstance(document, dict):
        return dict.fromkeys(_COUNTED, 0)
    rounds = _items(document.get("rounds"))
    phases = document.get("phases")
    flights = _items(phases.get("flights")) if isinstance(phases, dict) else []
    for flight in flights:
        if isinstance(flight, dict):
            rounds = rounds + _items(flight.get("rounds"))
    return {
        "players": len(_items(document.get("players"))),
        "rounds": len(rounds),
        "matches": sum(len(_items(r.get("matches"))) for r in rounds if isinstance(r, dict)),
    }
