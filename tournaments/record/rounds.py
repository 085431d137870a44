"""An event's rounds as read: the latest one, and how many Swiss rounds it plays."""

from __future__ import annotations

import math

from tournaments.models import Event, Registration, Round


def latest_round(event: Event) -> Round | None:
    """The event's round with the highest number (Swiss or top cut), or None before round 1."""
    return event.rounds.order_by("-number").first()


def swiss_round_count(event: Event) -> int:
    """The Swiss rounds the event plays: its organiser's number, else the suggestion for
    the players seated now (:func:`suggested_swiss_rounds`)."""
    if event.swiss_rounds:
        return event.swiss_rounds
    seated = event.registrations.filter(status=Registration.Status.REGISTERED).count()
    return suggested_swiss_rounds(seated)


def suggested_swiss_rounds(players: int) -> int:
    """Enough rounds for one undefeated player: ceil(log2(players)), at least 3 for 8+."""
    if players < 2:
        return 1
    return max(1, math.ceil(math.log2(players)))
