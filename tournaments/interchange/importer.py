"""Import: an ``arbiter-event/1`` document checked whole, then written in one transaction.

``check_document`` runs the schema and then the rules it cannot state; only a document
that passes both is turned into a plan and written, so a bad file leaves no trace.

An event in phases (``phases``) is written as the site makes one: the main event, its
flights (child events, each with its players, rounds and drops), the gate's rule and,
when the file says who went through (``day2``), their Day 2 entries as
:func:`tournaments.event.phases.apply_gate` makes them and the gate's log, its decisions
worked out again over the merged Day 1 standings; then the main event's own rounds.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pairing.gate import GateRule
from pairing.gate import apply_gate as decide_gate
from tournaments.event import services
from tournaments.event.phases import COPIED_FIELDS
from tournaments.interchange.limits import ImportPolicy
from tournaments.interchange.problems import raise_if_any
from tournaments.interchange.rules import day1_rounds, player_key, rule_findings, whole_number
from tournaments.interchange.schema import FORMAT, schema_findings
from tournaments.models import Event, EventLog, EventRole, Match, Registration, Round
from tournaments.record.history import EventHistory
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
    byes: int = 0
    carried: bool = False  # a Day 2 entry carrying on the flight entry of the same id


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
class _Flight:
    name: str
    fields: dict[str, Any]  # swiss_rounds, and seed and status when given
    players: list[_Player]
    rounds: list[_Round]


@dataclass
class _Phases:
    flights: list[_Flight]
    gate: GateRule | None
    applied: bool  # the file gives ``day2``: the gate was applied


@dataclass
class _Plan:
    event: dict[str, Any]
    players: list[_Player]  # the main event's entries: Day 2's (carried) first
    rounds: list[_Round]
    phases: _Phases | None = None


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
    if isinstance(document.get("phases"), dict):
        return _phased_plan(document, document["phases"])
    drops = _drops(document.get("drops"))
    players = [_player(entry, drops) for entry in document["players"]]
    rounds = _rounds(document["rounds"])
    fields = _event_fields(document["event"])
    _settle_status(fields, rounds)
    return _Plan(fields, players, rounds)


def _drops(items: list | None) -> dict[str, int]:
    return {player_key(drop["player"]): whole_number(drop["after_round"]) for drop in items or []}


def _player(entry: dict[str, Any], drops: dict[str, int]) -> _Player:
    key = player_key(entry["id"])
    return _Player(
        id=key,
        name=entry["name"],
        joined_round=whole_number(entry.get("joined_round", 1)),
        disqualified=entry.get("disqualified", False),
        dropped_after_round=drops.get(key),
        byes=whole_number(entry.get("byes", 0)),
    )


def _rounds(items: list, first: int = 1) -> list[_Round]:
    return [
        _Round(
            first + index,
            entry.get("kind", Round.Kind.SWISS),
            [_match(m) for m in entry["matches"]],
        )
        for index, entry in enumerate(items)
    ]


def _phased_plan(document: dict[str, Any], phases: dict[str, Any]) -> _Plan:
    """Flights with their players; the main event's entries: Day 2's, then its own.

    A disqualification is Day 2's for a player who went through, else their flight's."""
    entries = {player_key(entry["id"]): entry for entry in document["players"]}
    day2 = [player_key(value) for value in phases.get("day2") or []]
    through = set(day2)
    main_drops = _drops(document.get("drops"))
    flights, in_flights = [], set()
    for flight in phases["flights"]:
        drops = _drops(flight.get("drops"))
        players = []
        for value in flight["players"]:
            key = player_key(value)
            in_flights.add(key)
            player = _player(entries[key], drops)
            player.disqualified = player.disqualified and key not in through
            players.append(player)
        fields = {"swiss_rounds": whole_number(flight["swiss_rounds"])}
        for key in ("seed", "status"):
            if flight.get(key) is not None:
                fields[key] = whole_number(flight[key]) if key == "seed" else flight[key]
        flights.append(_Flight(flight["name"].strip(), fields, players, _rounds(flight["rounds"])))
    main_players = [
        _Player(
            id=key,
            name=entries[key]["name"],
            disqualified=entries[key].get("disqualified", False),
            dropped_after_round=main_drops.get(key),
            carried=True,
        )
        for key in day2
    ]
    main_players += [_player(e, main_drops) for k, e in entries.items() if k not in in_flights]
    rounds = _rounds(document["rounds"], first=day1_rounds(phases) + 1)
    fields = _event_fields(document["event"])
    _settle_status(fields, rounds)
    gate = phases.get("gate")
    rule = (
        GateRule(
            points=whole_number(gate.get("points")),
            top=whole_number(gate.get("top")),
            ties=gate.get("ties", "tiebreakers"),
        )
        if isinstance(gate, dict)
        else None
    )
    return _Plan(
        fields,
        main_players,
        rounds,
        _Phases(flights, rule, "day2" in phases and phases["day2"] is not None),
    )


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
        for flight in plan.phases.flights if plan.phases else []:
            flight.fields["status"] = Event.Status.DRAFT
    with transaction.atomic():
        event = _create_event(plan.event, actor)
        counts = _create_phases(event, plan.phases, actor) if plan.phases else {}
        carried = counts.pop("carried", {})
        registration_pks = _create_registrations(event, plan.players, carried)
        round_pks = _create_rounds(event, plan.rounds)
        matches = _create_matches(plan.rounds, round_pks, registration_pks, plan.players)
        EventLog.objects.create(
            event=event,
            actor=actor if _is_user(actor) else None,
            action="import",
            data={
                "format": FORMAT,
                "players": len(plan.players) + counts.get("players", 0),
                "rounds": len(plan.rounds) + counts.get("rounds", 0),
                "matches": matches + counts.get("matches", 0),
                **({"flights": len(plan.phases.flights)} if plan.phases else {}),
            },
        )
    return event


def _is_user(actor) -> bool:
    return actor is not None and getattr(actor, "is_authenticated", False)


def _create_event(fields: dict[str, Any], actor) -> Event:
    if _is_user(actor):
        return services.create_event(actor, **fields)
    return Event.objects.create(**fields)


def _create_phases(main: Event, phases: _Phases, actor) -> dict[str, Any]:
    """The flights, the gate's rule, and (when applied) its log; what was written, and the
    flight entries Day 2's entries carry on (``carried``: their pks by id)."""
    counts = {"players": 0, "rounds": 0, "matches": 0}
    carried: dict[str, int] = {}
    roles = list(main.roles.values_list("user_id", "role"))
    for flight in phases.flights:
        event = _create_flight(main, flight, roles)
        pks = _create_registrations(event, flight.players)
        round_pks = _create_rounds(event, flight.rounds)
        counts["players"] += len(flight.players)
        counts["rounds"] += len(flight.rounds)
        counts["matches"] += _create_matches(flight.rounds, round_pks, pks, flight.players)
        carried.update(pks)
    if phases.gate is not None:
        main.gate_points, main.gate_top, main.gate_ties = (
            phases.gate.points,
            phases.gate.top,
            phases.gate.ties,
        )
        main.save(update_fields=["gate_points", "gate_top", "gate_ties"])
    if phases.applied:
        _log_gate(main, phases.gate, actor)
    return {**counts, "carried": carried}


def _create_flight(main: Event, flight: _Flight, roles: list[tuple[int, str]]) -> Event:
    """A flight as ``add_flight`` makes one: the main event's settings and staff."""
    limit = Event._meta.get_field("name").max_length
    fields = {field: getattr(main, field) for field in COPIED_FIELDS}
    fields.update(
        name=f"{main.name} — {flight.name}"[:limit],
        parent=main,
        flight_name=flight.name,
        top_cut=0,
        created_by=main.created_by,
        **flight.fields,
    )
    event = Event.objects.create(**fields)
    EventRole.objects.bulk_create(
        EventRole(event=event, user_id=user_id, role=role) for user_id, role in roles
    )
    return event


def _log_gate(main: Event, rule: GateRule, actor) -> None:
    """The gate's decisions worked out again over the merged Day 1 standings, logged as
    ``apply_gate`` logs them, so each player is told why (before Day 2's entries exist,
    as when it was applied)."""
    rows = EventHistory.read(main, plain=True).standings_rows()
    result = decide_gate(rows, rule)
    main.gate_applied_at = timezone.now()
    main.save(update_fields=["gate_applied_at"])
    EventLog.objects.create(
        event=main,
        actor=actor if _is_user(actor) else None,
        action="gate",
        data={
            "rule": rule.as_json(),
            "through": result.through,
            "last_points": result.last_points,
            "decisions": [[d.player, d.rank, d.points, d.through, d.why] for d in result.decisions],
            "imported": True,
        },
    )


def _create_registrations(
    event: Event, players: list[_Player], carried: dict[str, int] | None = None
) -> dict[str, int]:
    """Bulk-create the players; returns their pks by file id (one query to read back).

    ``carried``: the flight entries' pks by id, for Day 2's entries (``carried_from``)."""
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
                awarded_byes=p.byes,
                carried_from_id=(carried or {}).get(p.id) if p.carried else None,
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


def _create_matches(
    rounds: list[_Round], round_pks: dict[int, int], pks: dict[str, int], players: list[_Player]
) -> int:
    byes = {p.id: p.byes for p in players if p.byes}
    rows = [
        _match_row(match, round_.number, round_pks[round_.number], pks, byes)
        for round_ in rounds
        for match in round_.matches
    ]
    Match.objects.bulk_create(rows, batch_size=BATCH_SIZE)
    return len(rows)


def _match_row(
    match: _Match, number: int, round_pk: int, pks: dict[str, int], byes: dict[str, int]
) -> Match:
    if match.bye:
        player = pks[match.players[0]]
        awarded = byes.get(match.players[0], 0)
        return Match(
            round_id=round_pk,
            table=match.table,
            player_a_id=player,
            is_bye=True,
            games=MatchGames.bye(player).stored(),
            status=Match.Status.CONFIRMED,
            explanation=(
                _("Awarded bye (%(number)s of %(count)s)") % {"number": number, "count": awarded}
                if number <= awarded
                else ""
            ),
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
