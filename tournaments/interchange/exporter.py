"""Export: an event as an ``arbiter-event/1`` document.

The output is a contract (other tools and sites read it, and backups are compared): the
keys, their order and their values stay as they are; every document written here fits
the committed schema (tests check it with ``jsonschema``).
"""

from __future__ import annotations

from typing import Any

from tournaments.interchange.schema import FORMAT, PENDING
from tournaments.models import Event, Match, Registration, Round
from tournaments.record.match_games import MatchGames


def export_event(event: Event) -> dict:
    """The event as an ``arbiter-event/1`` document (three queries, whatever its size).

    Only finished (closed) rounds are written, so every export can be imported: a round
    still paired or running has tables without a result, which import refuses. The rounds
    left out are named under ``left_out``, with the reason; the file is the event as it
    stood after its last finished round (drops after a later round wait for it)."""
    every_round = list(Round.objects.filter(event=event).order_by("number"))
    rounds = [r for r in every_round if r.status == Round.Status.CLOSED]
    unfinished = [r.number for r in every_round if r.status != Round.Status.CLOSED]
    last = rounds[-1].number if rounds else 0
    kept = {r.pk for r in rounds}
    matches = [m for m in Match.objects.filter(round__event=event) if m.round_id in kept]
    in_matches = {pk for m in matches for pk in (m.player_a_id, m.player_b_id) if pk}
    registrations = [
        r
        for r in Registration.objects.filter(event=event).select_related("user")
        if r.status != Registration.Status.WAITLISTED or r.pk in in_matches
    ]
    ids = public_ids(registrations)
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round_id, []).append(match)
    document = {
        "format": FORMAT,
        "event": _export_event_fields(event),
        "players": [_export_player(r, ids) for r in registrations],
        "rounds": [_export_round(r, by_round.get(r.pk, []), ids) for r in rounds],
        "drops": [
            {"player": ids[r.pk], "after_round": r.dropped_after_round}
            for r in registrations
            if r.dropped_after_round is not None and r.dropped_after_round <= last
        ],
    }
    if unfinished:
        document["left_out"] = {"rounds": unfinished, "reason": _left_out_reason(unfinished)}
    return document


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
    return {
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


def _export_player(registration: Registration, ids: dict[int, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": ids[registration.pk], "name": registration.display_name}
    if registration.joined_round > 1:
        entry["joined_round"] = registration.joined_round
    if registration.disqualified:
        entry["disqualified"] = True
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
