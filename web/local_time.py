"""Time zones as the site knows them: which names a venue may have, which zone a
request's pages show their times in, and how a zone is named on them.

Every request starts on the site's ``TIME_ZONE`` (``SiteTimeZoneMiddleware``); a page
about one event switches to its venue's zone (the event app calls :func:`show_zone`), and the
page's caption names the zone shown. The kernel knows zones, not events.
"""

from __future__ import annotations

import datetime
import importlib.resources
import zoneinfo
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo, available_timezones

from asgiref.local import Local
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

# The zone a request's pages were switched to, per request (thread or task) like Django's.
_shown = Local()


# Zones tzdata lists that no venue is in: the system's own alias and placeholders.
_NOT_A_VENUE = {"localtime", "Factory"}


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name an event may have, aliases included (``Asia/Calcutta``): an
    event or an imported file that has one still validates. New choices come from
    :func:`canonical_zone_names`."""
    return tuple(sorted(available_timezones() - _NOT_A_VENUE))


# The tz database's own tables of the zones people live in: ``zone1970.tab`` (one line
# per region whose clocks agreed since 1970) and ``zone.tab`` (each country's zones, so
# ``Europe/Amsterdam`` is there too). Neither lists a backward-compatibility link
# (``Asia/Calcutta``, ``US/Eastern``, ``Etc/GMT+5``): those live only in tzdata's
# ``backward`` file, which ships in no form Python can read.
_ZONE_TABLES = ("zone1970.tab", "zone.tab")
# Deprecated spellings, for a system whose tz data ships without the tables above.
_LEGACY_PREFIXES = ("Etc/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/", "SystemV/")


def _zone_table_texts() -> list[str]:
    """The tables' text where ``zoneinfo`` reads its zones: the system's tz directories
    first, else the ``tzdata`` package's."""
    texts = []
    for folder in zoneinfo.TZPATH:
        for table in _ZONE_TABLES:
            path = Path(folder) / table
            if path.is_file():
                texts.append(path.read_text(encoding="utf-8"))
        if texts:
            return texts
    try:
        package = importlib.resources.files("tzdata").joinpath("zoneinfo")
        for table in _ZONE_TABLES:
            if package.joinpath(table).is_file():
                texts.append(package.joinpath(table).read_text(encoding="utf-8"))
    except ModuleNotFoundError:
        pass
    return texts


@cache
def canonical_zone_names() -> tuple[str, ...]:
    """The zones a venue is offered: the tz database's current names (``Asia/Kolkata``,
    ``America/New_York``) plus ``UTC``, never a deprecated alias. The one rule of what
    a form offers; :func:`zone_names` still accepts the rest."""
    known = set(zone_names())
    listed = {"UTC"}
    for text in _zone_table_texts():
        for line in text.splitlines():
            columns = line.split("\t")
            if line.startswith("#") or len(columns) < 3:
                continue
            listed.add(columns[2].strip())
    if len(listed) == 1:  # no table to read: leave out what is plainly an old spelling
        listed |= {name for name in known if "/" in name and not name.startswith(_LEGACY_PREFIXES)}
    return tuple(sorted(listed & known))


# The regions a zone list is grouped by: the first part of an IANA name.
ZONE_REGIONS: dict[str, Promise] = {
    "Africa": _lazy("Africa"),
    "America": _lazy("Americas"),
    "Antarctica": _lazy("Antarctica"),
    "Arctic": _lazy("Arctic"),
    "Asia": _lazy("Asia"),
    "Atlantic": _lazy("Atlantic Ocean"),
    "Australia": _lazy("Australia"),
    "Europe": _lazy("Europe"),
    "Indian": _lazy("Indian Ocean"),
    "Pacific": _lazy("Pacific Ocean"),
    "UTC": _lazy("Coordinated Universal Time"),
}
_OTHER_REGION = _lazy("Other names")


def zone_region(name: str) -> str:
    """The region ``name`` is listed under: its first part, or ``UTC``."""
    return name.split("/", 1)[0] if "/" in name else "UTC"


def zone_choices(keep: str | None = None) -> list[tuple[Promise, list[tuple[str, str]]]]:
    """The canonical zones grouped by region, for a select's ``<optgroup>``s.

    ``keep`` (an event's current zone) is listed even if it is an alias, so an event
    made with ``US/Eastern`` still shows and keeps it."""
    names = list(canonical_zone_names())
    if keep and keep not in names and keep in zone_names():
        names.append(keep)
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in sorted(names):
        region = zone_region(name)
        groups.setdefault(region if region in ZONE_REGIONS else "", []).append((name, name))
    ordered = [(ZONE_REGIONS[r], groups[r]) for r in ZONE_REGIONS if r in groups]
    if "" in groups:
        ordered.append((_OTHER_REGION, groups[""]))
    return ordered


def default_zone_name(last_used: str | None = None) -> str:
    """A new event's zone: the organiser's last (``last_used``, the zone of the last
    event they created) when it is a current name, else the site's ``TIME_ZONE``."""
    if last_used and last_used in canonical_zone_names():
        return last_used
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


def shown_zone_caption() -> str:
    """The zone this request's pages show their times in, named (the venue's, else the
    site's): for a page about no one venue, such as a series."""
    return zone_caption(timezone.get_current_timezone())
