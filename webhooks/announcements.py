"""What a webhook delivery says: one announcement of the domain, as plain JSON.

Every body has the Standard Webhooks shape ``{"type", "timestamp", "data"}``; ``data``
always names the event (``{"id", "name"}``) and then what changed. The body is built once,
when the change is announced (after it committed), and kept with the delivery, so a retry
or a replay sends exactly what the change was. docs/webhooks.md documents each type.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from tournaments.models import Event, Match, Registration, Round
from tournaments.record.standings import public_rows
from tournaments.results.services import games_of

ROUND_PAIRED = "round.paired"
ROUND_STARTED = "round.started"
ROUND_CLOSED = "round.closed"
RESULT_CHANGED = "result.changed"
ENTRY_CHANGED = "entry.changed"
EVENT_STATUS_CHANGED = "event.status_changed"
EVENT_FINISHED = "event.finished"
PING = "webhook.test"

KINDS = (
    ROUND_PAIRED,
    ROUND_STARTED,
    ROUND_CLOSED,
    RESULT_CHANGED,
    ENTRY_CHANGED,
    EVENT_STATUS_CHANGED,
    EVENT_FINISHED,
)
"""The announcement types a subscription may choose among (``PING`` is sent on request)."""


def envelope(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """A body as the Standard Webhooks specification shapes one."""
    return {"type": kind, "timestamp": timezone.now().isoformat(), "data": data}


def _event(event: Event) -> dict[str, Any]:
    return {"id": event.pk, "name": event.name, "status": event.status}


def _player(registration: Registration | None) -> dict[str, Any] | None:
    if registration is None:
        return None
    return {"id": registration.public_id, "name": registration.display_name}


def _match(match: Match) -> dict[str, Any]:
    return {
        "id": match.pk,
        "table": match.table,
        "bye": match.is_bye,
        "players": [_player(p) for p in match.players()],
        "status": match.status,
        "score": games_of(match).score_text(),
    }


def _round(round_: Round) -> dict[str, Any]:
    return {
        "number": round_.number,
        "kind": round_.kind,
        "status": round_.status,
        "started_at": round_.started_at.isoformat() if round_.started_at else None,
        "ends_at": round_.ends_at.isoformat() if round_.ends_at else None,
    }


def _standings(event: Event) -> list[dict[str, Any]]:
    """The standings rows as the API's standings endpoint gives them."""
    return public_rows(Event.objects.get(pk=event.pk))  # read after the change committed


def round_paired(round_id: int, how: str) -> dict[str, Any]:
    round_ = Round.objects.select_related("event").get(pk=round_id)
    matches = round_.matches.select_related("player_a__user", "player_b__user").order_by(
        "is_bye", "table"
    )
    data = {
        "event": _event(round_.event),
        "round": _round(round_),
        "how": how,
        "pairings": [_match(m) for m in matches],
    }
    return envelope(ROUND_PAIRED, data)


def round_status(round_id: int, kind: str) -> dict[str, Any]:
    """``round.started`` or ``round.closed``; a closed round carries the standings after it."""
    round_ = Round.objects.select_related("event").get(pk=round_id)
    data: dict[str, Any] = {"event": _event(round_.event), "round": _round(round_)}
    if kind == ROUND_CLOSED:
        data["standings"] = _standings(round_.event)
    return envelope(kind, data)


def result_changed(match_id: int, status_before: str) -> dict[str, Any]:
    match = Match.objects.select_related("round__event", "player_a__user", "player_b__user").get(
        pk=match_id
    )
    data = {
        "event": _event(match.round.event),
        "round": {"number": match.round.number, "kind": match.round.kind},
        "match": _match(match),
        "status_before": status_before,
    }
    return envelope(RESULT_CHANGED, data)


def entry_changed(registration_id: int, what: str) -> dict[str, Any]:
    entry = Registration.objects.select_related("event", "user").get(pk=registration_id)
    data = {"event": _event(entry.event), "player": _player(entry), "what": what}
    return envelope(ENTRY_CHANGED, data)


def event_status_changed(event_id: int, status: str, previous: str) -> dict[str, Any]:
    """``event.finished`` (with the final standings) for an event that finished, else
    ``event.status_changed``: one delivery per change."""
    event = Event.objects.get(pk=event_id)
    data: dict[str, Any] = {"event": _event(event), "status": status, "previous": previous}
    if status == Event.Status.FINISHED:
        data["standings"] = _standings(event)
        return envelope(EVENT_FINISHED, data)
    return envelope(EVENT_STATUS_CHANGED, data)


def ping(event: Event | None, series_name: str | None = None) -> dict[str, Any]:
    """A test delivery an organiser asks for, to check their receiver."""
    data: dict[str, Any] = {"event": _event(event) if event else None}
    if series_name is not None:
        data["series"] = series_name
    return envelope(PING, data)
