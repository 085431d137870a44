"""Read an event's history as the plain data the pure modules take.

The Swiss engine and the standings module know nothing of Django; this module
turns rows into their inputs (and is the only place that knows how).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.match_games import MatchGames
from tournaments.models import Event, Match, Registration, Round


@dataclass
class PlayerRecord:
    """What pairing needs to know about one player, from the closed rounds."""

    registration: Registration
    points: int = 0
    opponents: list[str] = field(default_factory=list)
    had_bye: bool = False


def match_winner(match: Match) -> int | None:
    """The winning Registration id, or None for a draw: more game wins wins the match."""
    return match.player_a_id if match.is_bye else MatchGames.of(match).winner


def is_active_in(registration: Registration, round_number: int) -> bool:
    """Registered, checked in, joined by then, not dropped before it, not disqualified."""
    if registration.status == Registration.Status.WAITLISTED or registration.disqualified:
        return False
    if not registration.checked_in or registration.joined_round > round_number:
        return False
    dropped = registration.dropped_after_round
    return dropped is None or dropped >= round_number


def swiss_records(event: Event, before_round: int) -> dict[int, PlayerRecord]:
    """Points, opponents and byes of every registration from Swiss rounds before ``before_round``.

    Rounds a late entry missed count as losses (no opponent, loss points).
    """
    registrations = list(event.registrations.select_related("user"))
    records = {r.pk: PlayerRecord(r) for r in registrations}
    by_id = {r.pk: r for r in registrations}
    matches = Match.objects.filter(
        round__event=event, round__kind=Round.Kind.SWISS, round__number__lt=before_round
    ).select_related("round")
    for match in matches:
        _add_match(records, by_id, event, match)
    for record in records.values():
        missed = max(0, min(record.registration.joined_round, before_round) - 1)
        record.points += missed * event.points_loss
    return records


def _add_match(records, by_id, event: Event, match: Match) -> None:
    if match.is_bye:
        records[match.player_a_id].points += event.points_win
        records[match.player_a_id].had_bye = True
        return
    if not match.has_result:
        return
    winner = match_winner(match)
    for me, other in (
        (match.player_a_id, match.player_b_id),
        (match.player_b_id, match.player_a_id),
    ):
        record = records[me]
        record.opponents.append(by_id[other].public_id)
        if winner is None:
            record.points += event.points_draw
        else:
            record.points += event.points_win if winner == me else event.points_loss
