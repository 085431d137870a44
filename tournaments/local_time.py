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
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from asgiref.local import Local
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

# Zones tzdata lists that no venue is in: the system's own alias and placeholders.
_NOT_A_VENUE = {"localtime", "Factory"}
# The zone a request's pages were switched to, per request (thread or task) like Django's.
_shown = Local()


@cache
def zone_names() -> tuple[str, ...]:
    """The IANA zone names an event may be given, sorted for a select."""
    return tuple(sorted(available_timezones() - _NOT_A_VENUE))


def default_zone_name() -> str:
    """A new event's zone: the site's ``TIME_ZONE`` (an organiser sets the venue's)."""
    return settings.TIME_ZONE


def zone_problem(name: object) -> str | None:
    """Why ``name`` is not a time zone an event can have, or None when it is."""
    if not isinstance(name, str) or not name.strip():
        return _("Choose the venue's time zone, for example Europe/Berlin or Asia/Tokyo.")
    if name not in zone_names():
        return _(
            "“%(name)s” is not a time zone this site knows. Use an IANA name such as "
            "Europe/Berlin, America/New_York or Asia/Tokyo."
        ) % {"name": name[:64]}
    return None


def validate_zone(name: object) -> None:
    """The model field's validator: the same sentence as every other way in."""
    problem = zone_problem(name)
    if problem:
        raise ValidationError(problem, code="time_zone")


def zone_of(event) -> ZoneInfo:
    """The event's zone; an unknown name (an old row, a removed zone) falls back to UTC."""
    try:
        return ZoneInfo(event.time_zone)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo("UTC")


def show_event_times(event) -> None:
    """Pages of this request show times in the event's zone (the request's start resets it)."""
    zone = zone_of(event)
    timezone.activate(zone)
    _shown.zone = zone


def show_site_times() -> None:
    """Back to the site's ``TIME_ZONE``: every request starts here."""
    timezone.deactivate()
    _shown.zone = None


def venue_zone_shown() -> ZoneInfo | None:
    """The venue zone this request's pages show, if an event's was chosen."""
    return getattr(_shown, "zone", None)


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


def zone_caption(zone: ZoneInfo, moment: datetime.datetime | None = None) -> str:
    """The zone named as people read it: ``Europe/Berlin (CET, UTC+01:00)``.

    The abbreviation and offset are those at ``moment`` (now by default): across a
    daylight-saving change the same event is CEST before it and CET after."""
    local = timezone.localtime(moment or timezone.now(), zone)
    offset = local.strftime("%z")
    shown = f"UTC{offset[:3]}:{offset[3:]}" if offset else "UTC"
    abbreviation = local.tzname() or ""
    if abbreviation and not abbreviation.startswith(("+", "-")) and abbreviation != "UTC":
        return f"{zone.key} ({abbreviation}, {shown})"
    return f"{zone.key} ({shown})"


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
