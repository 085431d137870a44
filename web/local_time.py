"""Time zones as the site knows them: which names a venue may have, which zone a
request's pages show their times in, and how a zone is named on them.

Every request starts on the site's ``TIME_ZONE`` (``SiteTimeZoneMiddleware``); a page
about one event switches to its venue's zone (the event app calls :func:`show_zone`), and the
page's caption names the zone shown. The kernel knows zones, not events.
"""

from __future__ import annotations

import datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from asgiref.local import Local
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

# The zone a request's pages were switched to, per request (thread or task) like Django's.
_shown = Local()


# Zones tzdata lists that no venue is in: the system's own alias and placeholders.
_NOT_A_VENUE = {"localtime", "Factory"}


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


def show_zone(zone: ZoneInfo) -> None:
    """Pages of this request show times in ``zone`` (the request's start resets it)."""
    timezone.activate(zone)
    _shown.zone = zone


def show_site_times() -> None:
    """Back to the site's ``TIME_ZONE``: every request starts here."""
    timezone.deactivate()
    _shown.zone = None


def venue_zone_shown() -> ZoneInfo | None:
    """The venue zone this request's pages show, if an event's was chosen."""
    return getattr(_shown, "zone", None)


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
