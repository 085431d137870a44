"""What a tournament change tells the people following the event (live-updates.md).

The services that make a change call one function here inside their transaction; the
notices leave once it commits (``live.notify``), never for a rolled-back change. Each
function names one kind of change and sends every notice the contract lists for it:
the public one, the staff queue's, and each affected player's own ``my_match``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from live import notify
from tournaments.models import Event, Match, Round

# The contract's round statuses, by the round's own.
ROUND_STATUS = {
    Round.Status.PAIRED: "paired",
    Round.Status.RUNNING: "started",
    Round.Status.CLOSED: "closed",
}
TOP_CUT = "top_cut"  # the event's status while its top cut is played (the model says running)
QUEUE_DISPUTE, QUEUE_CALL, QUEUE_TIME = "dispute", "call", "time"


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _my_match(event_id: int, round_number: int, matches: Iterable[Match]):
    """Each seated player's own ``my_match`` notice for the given matches (a bye too)."""
    for match in matches:
        for player_id in (match.player_a_id, match.player_b_id):
            if player_id is not None:
                group = notify.player_group(event_id, player_id)
                body = notify.notice(event_id, "my_match", round=round_number, table=match.table)
                yield group, body


def announce_pairings(round_: Round, matches: Iterable[Match] | None = None) -> None:
    """The round's pairings are published, re-paired or swapped.

    Everyone learns the round has pairings; each player at ``matches`` (every table of
    the round by default) learns their own seat. Web Push, where it is set up, follows.
    """
    event_id = round_.event_id
    seated = list(round_.matches.all()) if matches is None else list(matches)
    public = (
        notify.public_group(event_id),
        notify.notice(event_id, "pairings", round=round_.number),
    )
    notify.send_many([public, *_my_match(event_id, round_.number, seated)])
    _push_pairings(round_)


def _push_pairings(round_: Round) -> None:
    """Hand the pairing to Web Push (``push.announce``), where that part is installed."""
    try:
        from push.announce import push_pairings
    except ImportError:
        return
    push_pairings(round_)


def announce_round(round_: Round) -> None:
    """The round changed status or its clock was set: status and when time is up."""
    notify.send(
        round_.event_id,
        "round",
        round=round_.number,
        status=ROUND_STATUS[round_.status],
        ends_at=_iso(round_.ends_at),
    )


def announce_event(event: Event, status: str | None = None) -> None:
    """The event's status changed (registration, running, top cut, finished).

    A draft is nobody's live event: nothing is said of it.
    """
    status = status or event.status
    if status == Event.Status.DRAFT:
        return
    notify.send(event.pk, "event", status=str(status))


def announce_standings(round_: Round) -> None:
    """Standings changed as of ``round_``: it closed, or a result in it was corrected."""
    notify.send(round_.event_id, "standings", round=round_.number)
