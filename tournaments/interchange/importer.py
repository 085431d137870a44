"""Import: an ``arbiter-event/1`` document checked whole, then written in one transaction.

``check_document`` runs the schema and then the rules it cannot state; only a document
that passes both is turned into a plan and written, so a bad file leaves no trace.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.event import services
from tournaments.interchange.limits import ImportPolicy
from tournaments.interchange.problems import raise_if_any
from tournaments.interchange.rules import player_key, rule_findings, whole_number
from tournaments.interchange.schema import FORMAT, schema_findings
from tournaments.models import Event, EventLog, Match, Registration, Round
from tournaments.record.match_games import MatchGames

BATCH_SIZE = 1_000

# Event keys copied as they are when given (``swiss_rounds`` may be null: the default).
_OPTIONAL_EVENT_FIELDS = (
    "swiss_rounds",
    "top_cut",
    "venue",
    "time_zone",
    "round_minutes",
    "seed",
    "status",
)
_WHOLE_NUMBER_FIELDS = {"swiss_rounds", "top_cut", "round_minutes", "seed"}


# --- the checked plan ----------------------------------------------------------------------


@dataclass
class _Player:
    id: str
    name: str
    joined_round: int = 1
    disqualified: bool = False
    dropped_after_round: int | None = None


@dataclass
class _Match:
    table: int | None
    players: list[str]
    bye: bool
    games: list[str | None]


@dataclass
class _Round:
    number: int
    kind: str
    matches: list[_Match] = field(default_factory=list)


@dataclass
class _Plan:
    event: dict[str, Any]
    players: list[_Player]
    rounds: list[_Round]


def check_document(document: Any) -> _Plan:
    """The validated contents of a document, or InterchangeError listing every problem.

    Nothing is written: import calls this first, so a bad file leaves no trace.
    """
    findings = schema_findings(document)
    gate = [f for f in findings if f[0][:1] in ((), ("format",))]
    # Not an object, or another format: anything further would only add noise.
    raise_if_any(document, gate)
    raise_if_any(document, findings + rule_findings(document))
    return _plan(document)


def _plan(document: dict[str, Any]) -> _Plan:
    """The document (valid: schema and rules) as the rows to write."""
    drops = {
        player_key(drop["player"]): whole_number(drop["after_round"])
        for drop in document.get("drops") or []
    }
    players = []
    for entry in document["players"]:
        key = player_key(entry["id"])
        players.append(
            _Player(
                id=key,
                name=entry["name"],
                joined_round=whole_number(entry.get("joined_round", 1)),
                disqualified=entry.get("disqualified", False),
                dropped_after_round=drops.get(key),
            )
        )
    rounds = [
        _Round(
            index + 1, entry.get("kind", Round.Kind.SWISS), [_match(m) for m in entry["matches"]]
        )
        for index, entry in enumerate(document["rounds"])
    ]
    fields = _event_fields(document["event"])
    _settle_status(fields, rounds)
    return _Plan(fields, players, rounds)


def _match(entry: dict[str, Any]) -> _Match:
    bye = entry.get("bye", False)
    games = [] if bye else [None if g is None else player_key(g) for g in entry["games"]]
    return _Match(
        table=whole_number(entry.get("table")),
        players=[player_key(p) for p in entry["players"]],
        bye=bye,
        games=games,
    )


def _event_fields(event: dict[str, Any]) -> dict[str, Any]:
    """Event fields as ``Event`` keyword arguments; status is settled afterwards."""
    fields: dict[str, Any] = {
        "name": event["name"],
        "game": event["game"],
        "date": datetime.date.fromisoformat(event["date"]),
        "match_format": event["match_format"],
    }
    for key in _OPTIONAL_EVENT_FIELDS:
        value = event.get(key)
        if value is not None:
            fields[key] = whole_number(value) if key in _WHOLE_NUMBER_FIELDS else value
    if "tiebreakers" in event:
        fields["tiebreakers"] = list(event["tiebreakers"])
    if "points" in event:
        for key in ("win", "draw", "loss"):
            fields[f"points_{key}"] = whole_number(event["points"][key])
    return fields


def _settle_status(fields: dict[str, Any], rounds: list[_Round]) -> None:
    if "status" in fields:
        return
    if not rounds:
        fields["status"] = Event.Status.REGISTRATION
    elif rounds[-1].kind == Round.Kind.TOP_CUT and len(rounds[-1].matches) == 1:
        fields["status"] = Event.Status.FINISHED
    else:
        fields["status"] = Event.Status.RUNNING


# --- writing -------------------------------------------------------------------------------


def import_event(document: dict, actor, *, policy: ImportPolicy | None = None) -> Event:
    """Create an event from an ``arbiter-event/1`` document; all of it or nothing.

    Raises InterchangeError listing every problem before anything is written: first a
    count past the ``policy``'s limits (before the document is validated, so a huge file
    costs nothing more), then every problem of the document. ``actor`` becomes the
    organiser; None (a command run without ``--organiser``) leaves the event to
    superusers. ``policy`` defaults to the actor's (``ImportPolicy.for_user``; no actor is
    the site's operator): without the import permission the event is a draft, whatever
    the file says, until they publish it.
    """
    if policy is None:
        policy = ImportPolicy.operator() if actor is None else ImportPolicy.for_user(actor)
    policy.check_size(document)
    plan = check_document(document)
    if not policy.keeps_status:
        plan.event["status"] = Event.Status.DRAFT
    with transaction.atomic():
        event = _create_event(plan.event, actor)
        registration_pks = _create_registrations(event, plan.players)
        round_pks = _create_rounds(event, plan.rounds)
        matches = _create_matches(plan.rounds, round_pks, registration_pks)
        EventLog.objects.create(
            event=event,
            actor=actor if _is_user(actor) else None,
            action="import",
            data={
                "format": FORMAT,
                "players": len(plan.players),
                "rounds": len(plan.rounds),
                "matches": matches,
            },
        )
    return event


def _is_user(actor) -> bool:
    return actor is not None and getattr(actor, "is_authenticated", False)


def _create_event(fields: dict[str, Any], actor) -> Event:
    if _is_user(actor):
        return services.create_event(actor, **fields)
    return Event.objects.create(**fields)


def _create_registrations(event: Event, players: list[_Player]) -> dict[str, int]:
    """Bulk-create the players; returns their pks by file id (one query to read back)."""
    Registration.objects.bulk_create(
        (
            Registration(
                event=event,
                name=p.name,
                external_id=p.id,
                status=(
                    Registration.Status.REGISTERED
                    if p.dropped_after_round is None
                    else Registration.Status.DROPPED
                ),
                checked_in=True,
                joined_round=p.joined_round,
                dropped_after_round=p.dropped_after_round,
                disqualified=p.disqualified,
                number=number,
            )
            for number, p in enumerate(players, start=1)
        ),
        batch_size=BATCH_SIZE,
    )
    return dict(Registration.objects.filter(event=event).values_list("external_id", "pk"))


def _create_rounds(event: Event, rounds: list[_Round]) -> dict[int, int]:
    now = timezone.now()
    Round.objects.bulk_create(
        Round(
            event=event,
            number=r.number,
            kind=r.kind,
            status=Round.Status.CLOSED,
            started_at=now,
            closed_at=now,
        )
        for r in rounds
    )
    return dict(Round.objects.filter(event=event).values_list("number", "pk"))


def _create_matches(rounds: list[_Round], round_pks: dict[int, int], pks: dict[str, int]) -> int:
    rows = [
        _match_row(match, round_pks[round_.number], pks)
        for round_ in rounds
        for match in round_.matches
    ]
    Match.objects.bulk_create(rows, batch_size=BATCH_SIZE)
    return len(rows)


def _match_row(match: _Match, round_pk: int, pks: dict[str, int]) -> Match:
    if match.bye:
        player = pks[match.players[0]]
        return Match(
            round_id=round_pk,
            table=match.table,
            player_a_id=player,
            is_bye=True,
            games=MatchGames.bye(player).stored(),
            status=Match.Status.CONFIRMED,
        )
    player_a, player_b = pks[match.players[0]], pks[match.players[1]]
    return Match(
        round_id=round_pk,
        table=match.table,
        player_a_id=player_a,
        player_b_id=player_b,
        games=MatchGames.from_public(player_a, player_b, match.games, pks).stored(),
        status=Match.Status.FINAL,
    )
