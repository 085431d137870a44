"""A table's clock: minutes granted on top of the round's time (903.1b).

The match row is the tournaments app's; judges grant the time (``judging.calls``)
and this service writes it, locked with its round so the round cannot close under it.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import EventLog, Match, Round
from web.errors import ServiceError


@transaction.atomic
def extend_match_time(match: Match, minutes: int, actor, *, call: int | None = None) -> Match:
    """Add ``minutes`` to the table's clock and log it (with the judge call that granted it)."""
    if minutes < 1:
        raise ServiceError("A time extension needs at least one minute.")
    # The round row too: close_round locks it, so the round cannot close under the extension.
    match = (
        Match.objects.select_for_update(of=("self", "round"))
        .select_related("round")
        .get(pk=match.pk)
    )
    if match.round.status == Round.Status.CLOSED:
        raise ServiceError(
            f"Round {match.round.number} is closed: table {match.table} can get no more time."
        )
    match.extension_minutes += minutes
    match.save(update_fields=["extension_minutes"])
    data = {"table": match.table, "minutes": minutes}
    EventLog.objects.create(
        event_id=match.round.event_id,
        round_number=match.round.number,
        actor=actor,
        action="time_extension",
        data={**data, "call": call} if call is not None else data,
    )
    return match
