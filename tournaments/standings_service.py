"""Standings of an event: its rows turned into the pure standings module's input.

Only Swiss rounds count (the top cut is a bracket, not standings). One query for
the registrations and one for the matches, whatever the event's size.
"""

from __future__ import annotations

from typing import Any

from pairing.standings import DEFAULT_TIEBREAKERS, compute_standings
from tournaments.models import Event, Match, Registration, Round


def standings_input(event: Event, through_round: int | None = None) -> tuple[list, list]:
    """(players, matches) as plain data, ids being ``Registration.public_id``."""
    registrations = list(
        event.registrations.exclude(status=Registration.Status.WAITLISTED)
        .select_related("user")
        .order_by("registered_at", "pk")
    )
    public = {r.pk: r.public_id for r in registrations}
    players = [
        {
            "id": r.public_id,
            "name": r.display_name,
            "registration": r.pk,
            "dropped": r.status == Registration.Status.DROPPED,
            "disqualified": r.disqualified,
        }
        for r in registrations
    ]
    matches = Match.objects.filter(round__event=event, round__kind=Round.Kind.SWISS)
    if through_round is not None:
        matches = matches.filter(round__number__lte=through_round)
    plain = _missed_rounds(event, registrations, through_round)
    for match in matches.select_related("round").order_by("round__number", "table"):
        if match.is_bye:
            plain.append(
                {"round": match.round.number, "players": [public[match.player_a_id]], "bye": True}
            )
        elif match.has_result:
            plain.append(
                {
                    "round": match.round.number,
                    "players": [public[match.player_a_id], public[match.player_b_id]],
                    "games": [public.get(g) for g in match.games],
                }
            )
    return players, plain


def _missed_rounds(event: Event, registrations: list, through_round: int | None) -> list[dict]:
    """Swiss rounds a late entry missed: each a loss without an opponent."""
    played = event.rounds.filter(kind=Round.Kind.SWISS).values_list("number", flat=True)
    numbers = [n for n in played if through_round is None or n <= through_round]
    return [
        {"round": n, "players": [r.public_id], "missed": True}
        for r in registrations
        if r.joined_round > 1
        for n in numbers
        if n < r.joined_round
    ]


def standings_rows(event: Event, through_round: int | None = None) -> list[dict[str, Any]]:
    """Contract rows in rank order, each with its ``registration`` pk added."""
    players, matches = standings_input(event, through_round)
    rows = compute_standings(
        players,
        matches,
        points={"win": event.points_win, "draw": event.points_draw, "loss": event.points_loss},
        tiebreakers=event.tiebreakers or DEFAULT_TIEBREAKERS,
    )
    registration_of = {p["id"]: p["registration"] for p in players}
    for row in rows:
        row["registration"] = registration_of[row["player"]]
    return rows


def public_rows(event: Event) -> list[dict[str, Any]]:
    """The rows exactly as the contract shows them (no internal keys)."""
    return [
        {key: value for key, value in row.items() if key != "registration"}
        for row in standings_rows(event)
    ]
