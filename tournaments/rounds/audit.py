"""A Swiss round's audit: the engine's input and its pairing with the proof of optimality,
kept with the round so anyone can check the pairing without trusting the site (issue 34).

The one owner of ``Round.audit``: :func:`build` makes what ``services._pair_into``
stores, :func:`read` gives the page and the API what they publish: the two documents
(``state``: the engine's input; ``pairing``: its output, before table pins, which only
reorder tables), the server's :func:`verdict` on them (``pairing.verify``), the players
with an awarded bye (not in the engine's input), and whether the round's tables are
still the engine's pairing (an organiser's swap changes them; the proof is about the
engine's pairing, not the swapped one).
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from pairing import swiss, verify
from tournaments.models import EventLog, Registration, Round

VERDICT_CACHE_SECONDS = 24 * 60 * 60  # the documents never change: the key is their digest
INPUT_ROWS = 200  # the page's input table; the JSON has every player

Pair = tuple[str, str]


def build(
    players: Sequence[swiss.SwissPlayer],
    round_: Round,
    result: swiss.Pairing,
    awarded: Sequence[str],
) -> dict[str, Any]:
    """What a Swiss round stores: the engine's input and output as the public contract's
    JSON (``result`` paired with ``certificate=True``), and who had an awarded bye."""
    return {
        "state": swiss.state_document(players, round_.number, round_.seed),
        "pairing": {
            "pairings": [[a, b] for a, b in result.pairings],
            "bye": result.bye,
            "seed": result.seed,
            "certificate": result.certificate,
        },
        "awarded_byes": list(awarded),
    }


def missing_reason(round_: Round) -> str | None:
    """Why the round has no audit (None when it has one): what the page says instead."""
    if round_.kind != Round.Kind.SWISS:
        return _(
            "Top-cut rounds are seeded from the standings, not paired by the Swiss engine: "
            "there is no pairing to prove."
        )
    if not round_.audit:
        return _("This round was paired before pairings carried proofs.")
    return None


@dataclass(frozen=True)
class Change:
    """A logged organiser action on the round's tables since it was paired."""

    at: datetime.datetime
    words: str
    tables: tuple[int, ...] = ()


@dataclass
class RoundAudit:
    """A round's audit as the page and the API publish it."""

    round: Round
    state: dict[str, Any]
    pairing: dict[str, Any]
    awarded_byes: list[str]
    not_seated: list[Pair] = field(default_factory=list)  # engine pairs split up since
    seated_instead: list[Pair] = field(default_factory=list)  # tables the engine did not make
    bye_now: str | None = None
    swaps: list[Change] = field(default_factory=list)  # since the latest pairing
    repairs: list[Change] = field(default_factory=list)
    tables: dict[frozenset, int] = field(default_factory=dict)  # pair -> its table now

    @property
    def tables_changed(self) -> bool:
        """Whether the round's tables are no longer exactly the engine's pairing."""
        return bool(self.not_seated or self.seated_instead) or self.bye_now != self.pairing.get(
            "bye"
        )

    def verdict(self) -> dict[str, Any]:
        """``pairing.verify``'s verdict on the two documents (cached by their digest)."""
        return verdict(self.state, self.pairing)

    def documents(self) -> dict[str, Any]:
        """The API's answer: the two documents, the verdict, and what the proof is not about."""
        return {
            "state": self.state,
            "pairing": self.pairing,
            "verdict": self.verdict(),
            "awarded_byes": self.awarded_byes,
            "tables_changed": self.tables_changed,
        }


def read(round_: Round) -> RoundAudit | None:
    """The round's audit with its tables compared to the engine's pairing; None when the
    round has none (:func:`missing_reason` says why)."""
    if missing_reason(round_) is not None:
        return None
    stored = round_.audit
    awarded = list(stored.get("awarded_byes", []))
    audit = RoundAudit(round_, stored["state"], stored["pairing"], awarded)
    _compare_tables(audit)
    _read_log(audit)
    return audit


def _compare_tables(audit: RoundAudit) -> None:
    rows = audit.round.matches.values_list(
        "table",
        "is_bye",
        "player_a_id",
        "player_a__external_id",
        "player_b_id",
        "player_b__external_id",
    )
    seated: dict[frozenset, Pair] = {}
    awarded = set(audit.awarded_byes)
    for table, is_bye, a_pk, a_ext, b_pk, b_ext in rows:
        a = Registration.public_id_of(a_ext, a_pk)
        if is_bye or b_pk is None:
            if a not in awarded:
                audit.bye_now = a
            continue
        pair = (a, Registration.public_id_of(b_ext, b_pk))
        seated[frozenset(pair)] = pair
        audit.tables[frozenset(pair)] = table
    engine = {frozenset(p): (p[0], p[1]) for p in audit.pairing.get("pairings", [])}
    audit.not_seated = [pair for key, pair in engine.items() if key not in seated]
    audit.seated_instead = [pair for key, pair in seated.items() if key not in engine]


def _read_log(audit: RoundAudit) -> None:
    """Re-pairs, and the swaps since the latest pairing (earlier ones were paired over)."""
    entries = EventLog.objects.filter(
        event_id=audit.round.event_id,
        round_number=audit.round.number,
        action__in=("pair", "repair", "swap"),
    ).order_by("at", "pk")
    for entry in entries:
        change = Change(entry.at, entry.words, _tables_of(entry.data))
        if entry.action == "swap":
            audit.swaps.append(change)
        else:
            audit.swaps.clear()  # a (re-)pairing replaced the tables they changed
            if entry.action == "repair":
                audit.repairs.append(change)


def _tables_of(data: Any) -> tuple[int, ...]:
    tables = data.get("tables", []) if isinstance(data, dict) else []
    return tuple(t for t in tables if isinstance(t, int))


def verdict(state: Any, pairing: Any) -> dict[str, Any]:
    """``{"ok": True, "proven": {...}}`` or ``{"ok": False, "message": ...}``: what
    ``pairing.verify`` says of the documents, as the in-browser checker answers too."""
    key = "round-audit-verdict:" + _digest(state, pairing)
    found = cache.get(key)
    if found is None:
        found = _verify(state, pairing)
        cache.set(key, found, VERDICT_CACHE_SECONDS)
    return found


def _verify(state: Any, pairing: Any) -> dict[str, Any]:
    try:
        return {"ok": True, "proven": verify.verify(state, pairing)}
    except verify.Refused as refused:
        return {"ok": False, "message": str(refused)}
    except (KeyError, TypeError, ValueError, IndexError) as error:  # a malformed document
        message = _("the documents cannot be read: %(error)s") % {"error": repr(error)}
        return {"ok": False, "message": message}


def _digest(state: Any, pairing: Any) -> str:
    text = json.dumps([state, pairing], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def document_bytes(document: Any) -> bytes:
    """A document as the downloads serve it: JSON, indented enough to read."""
    return json.dumps(document, indent=1, ensure_ascii=False).encode() + b"\n"
