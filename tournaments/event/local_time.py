"""The venue's wall clock.

Every moment is stored in UTC. An event's pages, slips, logs and exports show it in the
time zone of the venue (``Event.time_zone``) and say which zone that is, so a round that
starts at 23:30 and ends after midnight, or one that spans the night the clocks change,
reads the way the hall's clock does. The round clock itself counts down from a UTC
instant, so it never depends on the zone.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Event
from web.local_time import default_zone_name, show_zone


def new_event_zone(organiser) -> str:
    """A new event's zone: that of the last event ``organiser`` created (organisers run
    most events in one place), else the site's ``TIME_ZONE``."""
    last = None
    if organiser is not None and getattr(organiser, "pk", None):
        last = (
            Event.objects.filter(created_by=organiser)
            .order_by("-created_at", "-pk")
            .values_list("time_zone", flat=True)
            .first()
        )
    return default_zone_name(last)


def zone_of(event) -> ZoneInfo:
    """The event's zone; an unknown name (an old row, a removed zone) falls back to UTC."""
    try:
        return ZoneInfo(event.time_zone)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo("UTC")


def show_event_times(event) -> None:
    """Pages of this request show times in the event's zone (the request's start resets it)."""
    show_zone(zone_of(event))


@contextmanager
def event_times(event) -> Iterator[ZoneInfo]:
    """Within the block (a print job, a report), times are the event's local times."""
    zone = zone_of(event)
    with timezone.override(zone):
        yield zone


def wall_clock(moment: datetime.datetime | None, event, pattern: str = "%Y-%m-%d %H:%M") -> str:
    """``moment`` as the venue's clock showed it ("" for none)."""
    if moment is None:
        return ""
    return timezone.localtime(moment, zone_of(event)).strftime(pattern)


def stamped(moment: datetime.datetime | None, event) -> str:
    """A moment with its zone's abbreviation, for paper: ``2026-10-25 02:30 CEST``."""
    if moment is None:
        return ""
    local = timezone.localtime(moment, zone_of(event))
    return f"{local:%Y-%m-%d %H:%M} {local.tzname() or ''}".rstrip()


def venue_moment(naive: datetime.datetime, zone: ZoneInfo) -> datetime.datetime:
    """A wall time typed for the venue as the instant it names.

    Raises ValueError for a time the venue's clocks skip (the hour lost when they go
    forward). A time they show twice (the hour repeated when they go back) is its first
    showing."""
    moment = naive.replace(tzinfo=zone, fold=0)
    round_trip = moment.astimezone(datetime.UTC).astimezone(zone).replace(tzinfo=None)
    if round_trip != naive:
        raise ValueError(
            _(
                "%(time)s does not exist in %(zone)s: the clocks go forward that night. "
                "Choose a time before or after the change."
            )
            % {"time": f"{naive:%Y-%m-%d %H:%M}", "zone": zone.key}
        )
    return moment
