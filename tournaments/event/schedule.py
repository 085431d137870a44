"""An event's live schedule: ``pairing.schedule`` fed with the event's plan and rounds.

The rounds are read in one query (each with the longest extension of a table still
playing), the Swiss count in at most one more, whatever the number of rounds or tables.
The event page and the hall pass ``now`` (a round not started is never expected in the
past); the calendar file does not, so it changes only when something is done (a start,
a close, an extension, an edit: each logged, each moving the file's SEQUENCE).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pairing import schedule as plain
from tournaments.models import Event, Match, Round
from tournaments.record.rounds import swiss_round_count

# A table still holds its round until its result stands (a report awaiting the
# opponent's confirmation, or a dispute, still does).
STILL_PLAYING = Q(matches__is_bye=False) & ~Q(
    matches__status__in=[Match.Status.CONFIRMED, Match.Status.FINAL]
)


@dataclass(frozen=True)
class EventSchedule:
    """The rounds' slots, and each round's status (``"planned"`` before it is paired)."""

    slots: list[plain.Slot]
    states: dict[int, str]
    planned: bool  # whether the organiser set round 1's start (delays are known)

    def state_of(self, number: int) -> str:
        return self.states.get(number, "planned")

    @property
    def next(self) -> plain.Slot | None:
        """The next round to start, None once every round has."""
        return plain.next_slot(self.slots)

    @property
    def delay(self) -> int | None:
        return plain.running_delay(self.slots)


def plan_of(event: Event) -> plain.Plan:
    return plain.Plan(
        first_start=event.first_round_at,
        round_minutes=event.round_minutes,
        break_minutes=event.break_minutes,
        swiss_rounds=swiss_round_count(event),
        top_cut=event.top_cut,
    )


def event_schedule(event: Event, now: datetime.datetime | None = None) -> EventSchedule:
    """The event's schedule as of ``now`` (None: from what has happened only)."""
    rounds = (
        Round.objects.filter(event=event)
        .annotate(longest=Max("matches__extension_minutes", filter=STILL_PLAYING))
        .order_by("number")
        .only("number", "kind", "status", "started_at", "closed_at")
    )
    played, states = [], {}
    for round_ in rounds:
        played.append(
            plain.Played(
                number=round_.number,
                started_at=round_.started_at,
                closed_at=round_.closed_at,
                longest_extension=round_.longest or 0,
                kind=round_.kind,
            )
        )
        states[round_.number] = round_.status
    slots = plain.schedule(
        plan_of(event), played, now, finished=event.status == Event.Status.FINISHED
    )
    return EventSchedule(slots, states, planned=event.first_round_at is not None)


def live_schedule(event: Event) -> EventSchedule:
    """The schedule as the hall and the event page show it: as of this moment."""
    return event_schedule(event, timezone.now())


def delay_cell(delay: int | None) -> str:
    """The delay in a schedule's table: "12 minutes late", "on time" ("" for none)."""
    lateness = plain.lateness(delay)
    if lateness == "late":
        return ngettext("%(minutes)s minute late", "%(minutes)s minutes late", delay) % {
            "minutes": delay
        }
    if lateness == "early":
        return ngettext("%(minutes)s minute early", "%(minutes)s minutes early", -delay) % {
            "minutes": -delay
        }
    return _("on time") if lateness == "on_time" else ""


def delay_words(delay: int | None) -> str:
    """The delay as the hall says it: "running 12 minutes late", "on time" ("" for none)."""
    lateness = plain.lateness(delay)
    if lateness == "late":
        words = ngettext(
            "running %(minutes)s minute late", "running %(minutes)s minutes late", delay
        )
        return words % {"minutes": delay}
    if lateness == "early":
        words = ngettext(
            "running %(minutes)s minute ahead of schedule",
            "running %(minutes)s minutes ahead of schedule",
            -delay,
        )
        return words % {"minutes": -delay}
    return _("on time") if lateness == "on_time" else ""
