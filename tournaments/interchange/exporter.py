"""Export: an event as an ``arbiter-event/1`` document.

The output is a contract (other tools and sites read it, and backups are compared): the
keys, their order and their values stay as they are; every document written here fits
the committed schema (tests check it with ``jsonschema``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.interchange.schema import FORMAT, PENDING
from tournaments.models import Event, Match, Registration, Round
from tournaments.record.match_games import MatchGames


def export_event(event: Event) -> dict:
    """The event as an ``arbiter-event/1`` document (four queries, whatever its size).

    Only finished (closed) rounds are written, so every export can be imported: a round
    still paired or running has tables without a result, which import refuses. The rounds
    left out are named under ``left_out``, with the reason; the file is the event as it
    stood after its last finished round (drops after a later round wait for it).

    A main event with Day 1 flights is written whole: its flights under ``phases`` (see
    :func:`_phases`). A flight alone is written as an event of one phase, with
    ``event.flight_of`` naming its main event (export the main event to keep the phases).
    """
    flights = list(Event.objects.filter(parent_id=event.pk).order_by("pk"))
    read = _Read.of([event, *flights])
    if not flights:
        return _one_phase(event, read)
    return _with_phases(event, flights, read)


@dataclass
class _Read:
    """The rounds, finished rounds' matches and entries of some events, by event."""

    rounds: dict[int, list[Round]]
    matches: dict[int, list[Match]]
    registrations: dict[int, list[Registration]]

    @classmethod
    def of(cls, events: list[Event]) -> _Read:
        """Three queries for any number of events."""
        pks = [e.pk for e in events]
        every_round = list(Round.objects.filter(event__in=pks).order_by("number"))
        closed = {r.pk for r in every_round if r.status == Round.Status.CLOSED}
        matches = [m for m in Match.objects.filter(round__event__in=pks) if m.round_id in closed]
        in_matches = {pk for m in matches for pk in (m.player_a_id, m.player_b_id) if pk}
        read = cls({pk: [] for pk in pks}, {}, {pk: [] for pk in pks})
        for round_ in every_round:
            read.rounds[round_.event_id].append(round_)
        for match in matches:
            read.matches.setdefault(match.round_id, []).append(match)
        for registration in Registration.objects.filter(event__in=pks).select_related("user"):
            if (
                registration.status != Registration.Status.WAITLISTED
                or registration.pk in in_matches
            ):
                read.registrations[registration.event_id].append(registration)
        return read

    def phase(self, event: Event, ids: dict[int, str], played: int = 0) -> dict[str, Any]:
        """``rounds``, ``drops`` and (when a round is unfinished) ``left_out`` of one event;
        ``played``: the rounds played before its own (Day 1's, for a main event's drops)."""
        every_round = self.rounds[event.pk]
        rounds = [r for r in every_round if r.status == Round.Status.CLOSED]
        unfinished = [r.number for r in every_round if r.status != Round.Status.CLOSED]
        last = max(rounds[-1].number if rounds else 0, played)
        phase: dict[str, Any] = {
            "rounds": [_export_round(r, self.matches.get(r.pk, []), ids) for r in rounds],
            "drops": [
                {"player": ids[r.pk], "after_round": r.dropped_after_round}
                for r in self.registrations[event.pk]
                if r.dropped_after_round is not None and r.dropped_after_round <= last
            ],
        }
        if unfinished:
            phase["left_out"] = {"rounds": unfinished, "reason": _left_out_reason(unfinished)}
        return phase


def _one_phase(event: Event, read: _Read) -> dict:
    registrations = read.registrations[event.pk]
    ids = public_ids(registrations)
    phase = read.phase(event, ids)
    document = {
        "format": FORMAT,
        "event": _export_event_fields(event),
        "players": [_export_player(r, ids) for r in registrations],
        "rounds": phase["rounds"],
        "drops": phase["drops"],
    }
    if "left_out" in phase:
        document["left_out"] = phase["left_out"]
    return document


def _with_phases(main: Event, flights: list[Event], read: _Read) -> dict:
    """The main event and its flights, every player once under the id they had on Day 1.

    ``players`` lists every flight's players (flight by flight), then the main event's
    own entries that came through no flight; ``rounds`` and ``drops`` are the main
    event's own (Day 2 and the top cut, numbered after Day 1's rounds); ``phases`` holds
    each flight's players, rounds and drops, the gate and, once applied, ``day2``.
    """
    day1 = [r for f in flights for r in read.registrations[f.pk]]
    main_entries = read.registrations[main.pk]
    own = [r for r in main_entries if not r.carried_from_id]
    ids = public_ids([*day1, *own])
    carried = {r.carried_from_id: r for r in main_entries if r.carried_from_id}
    for registration in main_entries:
        if registration.carried_from_id in ids:
            ids[registration.pk] = ids[registration.carried_from_id]
    played = max((f.swiss_rounds or 0 for f in flights), default=0)
    phase = read.phase(main, ids, played if main.gate_applied_at else 0)
    document: dict[str, Any] = {
        "format": FORMAT,
        "event": _export_event_fields(main),
        "players": [
            *(_export_player(r, ids, carried.get(r.pk)) for r in day1),
            *(_export_player(r, ids) for r in own),
        ],
        "rounds": phase["rounds"],
        "drops": phase["drops"],
        "phases": _phases(main, flights, read, ids),
    }
    if "left_out" in phase:
        document["left_out"] = phase["left_out"]
    return document


def _phases(main: Event, flights: list[Event], read: _Read, ids: dict[int, str]) -> dict:
    """``flights`` (each: name, Swiss rounds, seed, status, players' ids, rounds, drops),
    ``gate`` when the main event has one, ``day2`` (the ids let through) once applied."""
    phases: dict[str, Any] = {"flights": [_flight(f, read, ids) for f in flights]}
    if main.gate_points is not None or main.gate_top is not None:
        phases["gate"] = {"points": main.gate_points, "top": main.gate_top, "ties": main.gate_ties}
    if main.gate_applied_at:
        phases["day2"] = [
            ids[r.pk] for r in read.registrations[main.pk] if r.carried_from_id in ids
        ]
    return phases


def _flight(flight: Event, read: _Read, ids: dict[int, str]) -> dict[str, Any]:
    return {
        "name": flight.flight_name,
        "swiss_rounds": flight.swiss_rounds,
        "seed": flight.seed,
        "status": flight.status,
        "players": [ids[r.pk] for r in read.registrations[flight.pk]],
        **read.phase(flight, ids),
    }


def _left_out_reason(numbers: list[int]) -> str:
    rounds = ", ".join(str(n) for n in numbers)
    return (
        f"Round {rounds} was not finished when the file was written: its tables had no "
        "result yet, so it is left out, and the file is the event after its last finished "
        "round. Export again after closing it to include it."
        if len(numbers) == 1
        else f"Rounds {rounds} were not finished when the file was written: their tables "
        "had no result yet, so they are left out, and the file is the event after its last "
        "finished round. Export again after closing them to include them."
    )


def public_ids(registrations: list[Registration]) -> dict[int, str]:
    """Each registration's public id by pk, made unique.

    ``public_id`` can collide (an imported external id "r12" next to a site-made
    registration whose pk is 12); the later one then gets ``r<pk>``, suffixed if need be.
    """
    ids: dict[int, str] = {}
    taken: set[str] = set()
    for registration in registrations:
        candidate = registration.public_id
        suffix = 1
        while candidate in taken:
            candidate = f"r{registration.pk}" + (f"-{suffix}" if suffix > 1 else "")
            suffix += 1
        ids[registration.pk] = candidate
        taken.add(candidate)
    return ids


def _export_event_fields(event: Event) -> dict[str, Any]:
    date = event.date
    fields: dict[str, Any] = {
        "name": event.name,
        "game": event.game,
        "date": date.isoformat() if hasattr(date, "isoformat") else str(date),
        "match_format": event.match_format,
        "swiss_rounds": event.swiss_rounds,
        "top_cut": event.top_cut,
        "points": {"win": event.points_win, "draw": event.points_draw, "loss": event.points_loss},
        "venue": event.venue,
        "time_zone": event.time_zone,
        "round_minutes": event.round_minutes,
        "tiebreakers": list(event.tiebreakers or []),
        "seed": event.seed,
        "status": event.status,
    }
    if event.parent_id:
        main = Event.objects.filter(pk=event.parent_id).values_list("name", flat=True).first()
        fields["flight_of"] = {"event": main, "flight": event.flight_name}
    return fields


def _export_player(
    registration: Registration, ids: dict[int, str], day2: Registration | None = None
) -> dict[str, Any]:
    """A player's entry; ``day2``: their Day 2 entry, whose disqualification counts too."""
    entry: dict[str, Any] = {"id": ids[registration.pk], "name": registration.display_name}
    if registration.joined_round > 1:
        entry["joined_round"] = registration.joined_round
    if registration.disqualified or (day2 is not None and day2.disqualified):
        entry["disqualified"] = True
    if registration.awarded_byes > 0:
        entry["byes"] = registration.awarded_byes
    return entry


def _export_round(round_: Round, matches: list[Match], ids: dict[int, str]) -> dict[str, Any]:
    # Byes last, then by table: the same order on every database (NULLs sort differently).
    matches.sort(key=lambda m: (m.is_bye, m.table is None, m.table or 0, m.pk))
    return {
        "number": round_.number,
        "kind": round_.kind,
        "matches": [_export_match(m, ids) for m in matches],
    }


def _export_match(match: Match, ids: dict[int, str]) -> dict[str, Any]:
    if match.is_bye:
        return {"table": match.table, "players": [ids[match.player_a_id]], "bye": True}
    seats = {pk: ids[pk] for pk in (match.player_a_id, match.player_b_id) if pk is not None}
    entry: dict[str, Any] = {"table": match.table, "players": list(seats.values())}
    if match.has_result:
        entry["games"] = MatchGames.of(match).public(seats)
    else:
        entry["games"] = []
        entry["result"] = PENDING
    return entry
