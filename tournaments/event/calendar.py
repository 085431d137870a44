"""Events and their rounds as calendar entries (RFC 5545), for calendar apps to subscribe to.

Each round's times are the live schedule's (``tournaments.event.schedule``): a started
round its real start, and its close or its expected end (the round's minutes and its
longest extension still running); a round not started yet follows the one before it after
the break, round 1 at the organiser's planned start (``first_round_at``). Without a planned
start, rounds before any is started have no time yet: they are all-day entries on the
event's date, and become timed entries (same UID, higher SEQUENCE) once known.

Every entry keeps its UID for life, so a subscribed calendar updates it instead of adding
a copy; SEQUENCE counts the event's timing changes (pairings, starts, closes, extensions,
edits) and LAST-MODIFIED/DTSTAMP are the latest of them, so an unchanged event gives the
same file, and every change of an expected time moves them (the file's times are taken
without the clock: they move only when something is done, and each such thing is logged).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from icalendar import Calendar
from icalendar import Event as CalendarEntry

from pairing.schedule import cut_rounds
from tournaments.event.local_time import wall_clock, zone_of
from tournaments.event.schedule import delay_words, event_schedule
from tournaments.models import Event, EventLog, Registration, Round

# Log actions after which a round's times (or the event's) may read differently.
TIMING_ACTIONS = (
    "pair",
    "repair",
    "start",
    "close",
    "top_cut",
    "top_cut_round",
    "finish",
    "edit",
    "import",
    "time_extension",
    "time_extension_removed",
)

PRODUCT_ID = "-//Arbiter//Event calendar//EN"
CONTENT_TYPE = "text/calendar; charset=utf-8"


@dataclass(frozen=True)
class RoundSlot:
    """One round's place in the day: actual times once started, else planned ones."""

    number: int
    kind: str
    state: str  # "planned" (not paired yet), or Round.Status
    start: datetime.datetime | None
    end: datetime.datetime | None
    planned: datetime.datetime | None = None  # the planned start (with first_round_at)
    delay: int | None = None  # start less planned start, in minutes


def top_cut_round_count(event: Event) -> int:
    """A top cut of N players plays log2(N) rounds."""
    return cut_rounds(event.top_cut)


def round_slots(event: Event) -> list[RoundSlot]:
    """Every round played or expected, in order, each with its best known times.

    A finished event lists only the rounds it played; a planned round starts a break
    after the one before it ends (actually or as expected), so one late start moves every
    later round."""
    planned = event_schedule(event)
    return [
        RoundSlot(
            slot.number,
            slot.kind,
            planned.state_of(slot.number),
            slot.expected_start,
            slot.expected_end,
            slot.planned_start,
            slot.delay_minutes,
        )
        for slot in planned.slots
    ]


@dataclass(frozen=True)
class Revision:
    """How many timing changes an event has seen, and when the last was."""

    sequence: int
    modified: datetime.datetime


def revision_of(event: Event) -> Revision:
    changes = EventLog.objects.filter(event=event, action__in=TIMING_ACTIONS)
    latest = changes.aggregate(at=Max("at"))["at"]
    modified = max(filter(None, [event.created_at, latest]))
    return Revision(sequence=changes.count(), modified=modified.replace(microsecond=0))


def event_entries(
    event: Event, url: str, domain: str, *, with_rounds: bool = True
) -> list[CalendarEntry]:
    """The event's entry and, with ``with_rounds``, one per round; ``url`` is its page."""
    revision = revision_of(event)
    slots = round_slots(event)
    entries = [_event_entry(event, url, domain, revision, slots)]
    if with_rounds:
        entries.extend(_round_entry(event, slot, url, domain, revision) for slot in slots)
    return entries


def calendar_of(
    name: str, events: Iterable[Event], url_of: Callable[[Event], str], domain: str
) -> bytes:
    """An iCalendar file of ``events`` and their rounds, times in each venue's zone."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    for event in events:
        for entry in event_entries(event, url_of(event), domain):
            calendar.add_component(entry)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def uid_for(event: Event, domain: str, round_number: int | None = None) -> str:
    suffix = "" if round_number is None else f"-round-{round_number}"
    return f"event-{event.pk}{suffix}@{domain}"


def _stamp(entry: CalendarEntry, uid: str, url: str, revision: Revision) -> None:
    entry.add("uid", uid)
    entry.add("dtstamp", revision.modified)
    entry.add("last-modified", revision.modified)
    entry.add("sequence", revision.sequence)
    entry.add("url", url)


def _event_entry(
    event: Event, url: str, domain: str, revision: Revision, slots: list[RoundSlot]
) -> CalendarEntry:
    """The whole event, all day, on the venue's dates (until the last round's end)."""
    zone = zone_of(event)
    last_day = max([event.date, *(slot.end.astimezone(zone).date() for slot in slots if slot.end)])
    entry = CalendarEntry()
    _stamp(entry, uid_for(event, domain), url, revision)
    entry.add("summary", event.name)
    entry.add("dtstart", event.date)
    entry.add("dtend", last_day + datetime.timedelta(days=1))
    entry.add("transp", "TRANSPARENT")
    if event.venue:
        entry.add("location", event.venue)
    entry.add(
        "description",
        _("%(game)s · %(status)s · %(url)s")
        % {"game": event.get_game_display(), "status": event.get_status_display(), "url": url},
    )
    return entry


def _round_entry(
    event: Event, slot: RoundSlot, url: str, domain: str, revision: Revision
) -> CalendarEntry:
    """A round: timed in the venue's zone when its start is known, else all day."""
    zone = zone_of(event)
    entry = CalendarEntry()
    _stamp(entry, uid_for(event, domain, slot.number), url, revision)
    entry.add("summary", _round_title(event, slot))
    if slot.start is None or slot.end is None:
        entry.add("dtstart", event.date)
        entry.add("dtend", event.date + datetime.timedelta(days=1))
        entry.add("transp", "TRANSPARENT")
        entry.add("description", _("Its time is known once the event's first round starts."))
    else:
        entry.add("dtstart", slot.start.astimezone(zone))
        entry.add("dtend", slot.end.astimezone(zone))
        entry.add("description", _round_state(slot, event))
    if event.venue:
        entry.add("location", event.venue)
    return entry


def _round_title(event: Event, slot: RoundSlot) -> str:
    if slot.kind == Round.Kind.TOP_CUT:
        words = _("%(event)s: top cut round %(round)s")
    else:
        words = _("%(event)s: round %(round)s")
    return words % {"event": event.name, "round": slot.number}


def _round_state(slot: RoundSlot, event: Event) -> str:
    if slot.state == Round.Status.CLOSED:
        return _("Played: the round's actual start and close.")
    if slot.state == Round.Status.RUNNING:
        return _("Running: started; it ends %(minutes)s minutes later, as planned.") % {
            "minutes": event.round_minutes
        }
    if slot.number == 1:
        words = _("Planned: %(minutes)s minutes long.")
    else:
        words = _(
            "Planned: after the round before it and a %(break)s-minute break, "
            "%(minutes)s minutes long."
        )
    text = words % {"minutes": event.round_minutes, "break": event.break_minutes}
    if slot.planned is None:
        return text
    planned = _("Planned start %(time)s: %(delay)s.") % {
        "time": wall_clock(slot.planned, event, "%H:%M"),
        "delay": delay_words(slot.delay),
    }
    return f"{text} {planned}"


def events_of(user) -> list[Event]:
    """The events an account plays (registered or waiting, not dropped out), organises or
    judges, and may see: a draft stays its organisers'."""
    mine = Q(roles__user=user) | Q(
        registrations__user=user,
        registrations__status__in=[
            Registration.Status.REGISTERED,
            Registration.Status.WAITLISTED,
        ],
    )
    return list(Event.objects.visible_to(user).filter(mine).distinct().order_by("date", "pk"))


def uid_domain(request: HttpRequest) -> str:
    """The site's host, the right-hand side of every entry's UID."""
    return request.get_host().rsplit(":", 1)[0] or "arbiter"


def calendar_response(body: bytes, filename: str, *, private: bool) -> HttpResponse:
    """A feed as calendar apps fetch it; a private one is never cached, indexed or sent
    on as a referrer (its address is its key)."""
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    if private:
        response["Cache-Control"] = "private, no-store"
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "no-referrer"
    return response
