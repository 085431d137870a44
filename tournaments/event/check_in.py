"""Check-in as part of the event's state: who is registered but not checked in, whether a
player may check themself in now, and whether round 1 was paired without them.

Round 1 pairs only checked-in players (``record.history.is_active_in``). A player who
registered on the site is not checked in until the organiser checks them in, or they do
it themself while the event's self check-in is open (``Event.self_check_in_opens`` until
round 1 is paired). The organiser is asked before round 1 leaves anyone out
(``rounds.services.pair_next_round``), and whoever was left out is told so on their pages.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.event import local_time
from tournaments.models import Event, Registration


def not_checked_in(event: Event) -> list[Registration]:
    """The registered players (not waiting, not dropped) who are not checked in, by name."""
    return list(
        event.registrations.filter(status=Registration.Status.REGISTERED, checked_in=False)
        .select_related("user")
        .order_by("name", "user__first_name", "user__last_name", "pk")
    )


def self_check_in_closed(event: Event, now: datetime.datetime | None = None) -> str | None:
    """Why a player cannot check themself in now, in words that say what to do; None when
    self check-in is open (from ``self_check_in_opens`` until round 1 is paired)."""
    now = now or timezone.now()
    if event.rounds.exists() or event.status == Event.Status.FINISHED:
        return _(
            "Check-in is closed: round 1 is paired. Find the organiser or a judge at the venue."
        )
    opens = event.self_check_in_opens
    if opens is None or event.status == Event.Status.DRAFT:
        return _(
            "This event has no self check-in: check in with the organiser at the venue "
            "before round 1."
        )
    if now < opens:
        return _("Self check-in opens at %(time)s (%(zone)s).") % {
            "time": local_time.wall_clock(opens, event),
            "zone": local_time.zone_of(event).key,
        }
    return None


def left_out(event: Event, registration: Registration) -> bool:
    """Whether round 1 was paired while this registered player was not checked in (so it
    has no seat for them)."""
    return (
        registration.status == Registration.Status.REGISTERED
        and not registration.checked_in
        and event.rounds.exists()
    )


@dataclass(frozen=True)
class CheckInState:
    """What a player's own pages say about their check-in: a line, whether a Check in
    button goes with it, and whether it is a warning (left out of round 1)."""

    text: str
    hint: str = ""
    can_check_in: bool = False
    warning: bool = False


def state_for(event: Event, registration: Registration | None) -> CheckInState | None:
    """The player's check-in line for My match and the event page (None: nothing to say,
    for a player not registered, waiting, dropped, or in an event that is over)."""
    if registration is None or registration.status != Registration.Status.REGISTERED:
        return None
    if event.status in (Event.Status.DRAFT, Event.Status.FINISHED):
        return None
    paired = event.rounds.exists()
    if registration.checked_in:
        if paired:
            return None
        return CheckInState(_("You are checked in for round 1."))
    if paired:
        return CheckInState(
            _("You are not checked in, so you have no match: round 1 was paired without you."),
            _(
                "Find the organiser or a judge at the venue: once they check you in, you are "
                "paired from the next round."
            ),
            warning=True,
        )
    closed = self_check_in_closed(event)
    if closed is None:
        return CheckInState(
            _("You are not checked in yet."),
            _("Check in before round 1 is paired: players who are not checked in are not paired."),
            can_check_in=True,
        )
    return CheckInState(
        _("You are not checked in yet: players who are not checked in are not paired."), closed
    )
