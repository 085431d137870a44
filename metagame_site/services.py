"""The metagame of an event: who may read how much of it, the report (cached), and the
organiser's names, merges and splits (each logged, then announced by
``metagame_site.signals.metagame_changed``).

**Privacy follows the decklist policy** (:func:`access`, the one rule every page, the
API, CSV and print ask):

* the event's organisers and judges (and site staff) read everything, always;
* everyone else reads everything once the organiser publishes every decklist
  (``decklists_public`` "all");
* with decklists private (or only the top cut's published), nobody else reads anything
  about archetypes, unless the organiser allows the *shares* after the event ends: then,
  once it is finished, the shares alone (no win rate, conversion or matchup);
* an archetype of one player is never shown by name (the pure report folds it into
  Other before counting), so no cell, row or share is one player's deck.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import translation
from django.utils.translation import gettext as _

from decks.models import Decklist
from metagame.archetypes import Overrides, merged_key
from metagame.report import OTHER, metagame_report
from metagame_site import field as fields
from metagame_site.models import MetagameSettings
from metagame_site.signals import metagame_changed
from tournaments.event.roles import JUDGE, ORGANISER, has_role
from tournaments.models import Event, EventLog, Registration
from tournaments.signals import send_on_commit
from web.errors import ServiceError

FULL, SHARES, NOTHING = "full", "shares", "nothing"
"""How much of an event's metagame someone may read (see the module docstring)."""

ALL = "all"
"""The whole event, every phase together."""

MOST_SHOWN = 20
"""Archetypes shown by name, most played first; the rest join Other (a matrix of 20 is
380 cells, about what a page or a printed page can hold and a reader can take in)."""

MAX_NAME = 60
CACHE_SECONDS = 60 * 60


class NotAllowed(ServiceError):
    """Only the event's organisers name, merge and split its archetypes."""

    status = 403


# --- Who reads what -------------------------------------------------------------------


def is_staff(user, event: Event) -> bool:
    return user.is_authenticated and (user.is_staff or has_role(user, event, ORGANISER, JUDGE))


def access(user, event: Event, settings: MetagameSettings | None = None) -> str:
    """:data:`FULL`, :data:`SHARES` or :data:`NOTHING`: the one privacy rule."""
    if is_staff(user, event) or event.decklists_public == "all":
        return FULL
    settings = settings or settings_of(event)
    if settings.shares_after_event and event.status == Event.Status.FINISHED:
        return SHARES
    return NOTHING


def settings_of(event: Event) -> MetagameSettings:
    """The event's settings, or unsaved defaults (nothing renamed, shares not allowed)."""
    found = MetagameSettings.objects.filter(event=event).first()
    return found or MetagameSettings(event=event)


def phases_of(event: Event) -> list[str]:
    """The phases a reader can ask for: the whole event first, then each phase played."""
    return [ALL, *read_field(event, settings_of(event)).phases]


# --- The report -----------------------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """What a reader asked for: an event's phase, at an access level."""

    event: Event
    phase: str = ALL
    level: str = FULL


def read_field(event: Event, settings: MetagameSettings) -> fields.Field:
    return fields.read_event(event, settings.overrides)


def report(asked: Asked) -> dict[str, Any]:
    """The report as JSON-ready data (the API's body, what pages and CSV show), cached
    until a result, a decklist, an entry or the organiser's names change."""
    return report_and_key(asked)[0]


def report_and_key(asked: Asked) -> tuple[dict[str, Any], str]:
    """The report and its cache key: what is drawn from it (the charts) is cached under
    the same key, so both change together."""
    settings = settings_of(asked.event)
    return _cached(asked, settings, _stamp(asked.event, settings))


def phase_reports(event: Event, level: str = FULL) -> list[dict[str, Any]]:
    """The whole event's report, then each phase's (what the printed report shows),
    cached as :func:`report`; the settings and the cache's stamp are read once for all."""
    settings = settings_of(event)
    stamp = _stamp(event, settings)
    whole = _cached(Asked(event, ALL, level), settings, stamp)[0]
    phases = whole.get("phases", [])[1:]
    return [whole, *(_cached(Asked(event, p, level), settings, stamp)[0] for p in phases)]


def _cached(asked: Asked, settings: MetagameSettings, stamp: str) -> tuple[dict[str, Any], str]:
    key = _cache_key(asked, stamp)
    cached = cache.get(key)
    if cached is not None:
        return cached, key
    data = build(asked, settings)
    cache.set(key, data, CACHE_SECONDS)
    return data, key


def build(asked: Asked, settings: MetagameSettings) -> dict[str, Any]:
    """The report, uncached: see :func:`report`."""
    event = asked.event
    head = {
        "event": {"id": event.pk, "name": event.name, "game": event.game},
        "phase": asked.phase,
        "access": asked.level,
    }
    if asked.level == NOTHING:
        return {**head, "phases": [], "rows": [], "matrix": []}
    field = read_field(event, settings)
    if asked.phase != ALL and asked.phase not in field.phases:
        raise ServiceError(
            _("This event has no phase %(phase)s yet: choose one of %(phases)s.")
            % {"phase": asked.phase, "phases": ", ".join([ALL, *field.phases])},
            "phase",
        )
    data = _report_of(field, asked.phase).as_dict()
    data.update(head, phases=[ALL, *field.phases], stages=_stages(field, asked.phase))
    return shares_only(data) if asked.level == SHARES else data


def _report_of(field: fields.Field, phase: str):
    if phase == ALL:
        players = field.players
        reached = field.reached
        phases = None
    else:
        players = {p: field.players.get(p) for p in field.in_phase.get(phase, ())}
        reached = {
            stage: field.reached[stage]
            for stage in fields.STAGES_AFTER[phase]
            if stage in field.reached
        }
        phases = [phase]
    return metagame_report(
        players,
        field.matches,
        reached,
        names=named(field),
        phases=phases,
        most=MOST_SHOWN,
        field=field.players,
    )


def named(field: fields.Field) -> dict[str, str]:
    """Each key's name as the reader reads it, Other's in their language."""
    return {**field.names, OTHER: _("Other")}


def _stages(field: fields.Field, phase: str) -> list[str]:
    if phase == ALL:
        return sorted(field.reached, key=[fields.DAY2, fields.TOP_CUT].index)
    return [s for s in fields.STAGES_AFTER[phase] if s in field.reached]


def shares_only(data: dict[str, Any]) -> dict[str, Any]:
    """What a reader sees of a private event allowed to show its shares: players and
    shares per archetype, nothing of how they did."""
    rows = [{k: row[k] for k in ("key", "name", "players", "share")} for row in data["rows"]]
    kept = ("event", "phase", "access", "players", "with_archetype", "folded")
    return {
        **{k: data[k] for k in kept},
        "phases": [ALL],
        "stages": [],
        "rows": rows,
        "matrix": [],
    }


def _stamp(event: Event, settings: MetagameSettings) -> str:
    """What a report is counted from, in a few numbers: a result (the event's or a
    flight's), the organiser's names, a submitted list and an entry. Two queries, asked
    on every read."""
    flights = list(
        Event.objects.filter(parent=event).order_by("pk").values_list("pk", "results_version")
    )
    submitted = Q(decklist__status=Decklist.Status.SUBMITTED)
    counts = Registration.objects.filter(
        event__in=[event.pk, *(pk for pk, _v in flights)]
    ).aggregate(
        lists=Count("decklist", filter=submitted),
        lists_at=Max("decklist__updated_at", filter=submitted),
        entries=Count("pk", filter=~Q(status=Registration.Status.WAITLISTED)),
        entries_at=Max("registered_at"),
    )
    return "-".join(
        str(x)
        for x in (
            event.results_version,
            settings.version,
            counts["lists"],
            counts["lists_at"] and counts["lists_at"].timestamp(),
            counts["entries"],
            counts["entries_at"] and counts["entries_at"].timestamp(),
            ".".join(str(version) for _pk, version in flights),
        )
    )


def _cache_key(asked: Asked, stamp: str) -> str:
    language = translation.get_language() or "en"
    return f"metagame:{asked.event.pk}:{asked.phase}:{asked.level}:{language}:{stamp}"


def _event_ids(event: Event) -> list[int]:
    return [event.pk, *Event.objects.filter(parent=event).values_list("pk", flat=True)]


# --- The organiser's word -------------------------------------------------------------


def may_manage(user, event: Event) -> bool:
    return user.is_authenticated and (user.is_superuser or has_role(user, event, ORGANISER))


def _locked_settings(event: Event, actor) -> MetagameSettings:
    if not may_manage(actor, event):
        raise NotAllowed(_("Only the event's organisers name, merge and split its archetypes."))
    settings, _created = MetagameSettings.objects.select_for_update().get_or_create(event=event)
    settings.overrides = {
        "names": dict(settings.overrides.get("names", {})),
        "merge": dict(settings.overrides.get("merge", {})),
        "move": dict(settings.overrides.get("move", {})),
    }
    return settings


def _known_keys(event: Event, settings: MetagameSettings) -> set[str]:
    """Every key a deck of the event has, before and after the organiser's changes."""
    field = fields.read_event(event, {"move": settings.overrides.get("move", {})})
    return {k for k in field.players.values() if k} | set(field.names)


def _checked_key(value: Any, known: set[str], name: str) -> str:
    key = value.strip() if isinstance(value, str) else ""
    if key not in known:
        raise ServiceError(_("There is no archetype %(key)s in this event.") % {"key": key}, name)
    return key


def _checked_name(value: Any, name: str) -> str:
    text = " ".join(value.split()) if isinstance(value, str) else ""
    if not text:
        raise ServiceError(_("Write a name for the archetype."), name)
    if len(text) > MAX_NAME:
        raise ServiceError(
            _("An archetype's name holds at most %(n)d characters.") % {"n": MAX_NAME}, name
        )
    return text


def _saved(event: Event, settings: MetagameSettings, actor, action: str, data: dict) -> None:
    settings.version += 1
    settings.save()
    EventLog.objects.create(
        event=event, actor=actor, action="metagame", data={"change": action, **data}
    )
    send_on_commit(metagame_changed, MetagameSettings, event_id=event.pk, action=action)


@transaction.atomic
def name_archetype(event: Event, actor, *, key: Any, name: Any) -> MetagameSettings:
    """Give an archetype the name players know it by; an empty name gives back the computed one."""
    settings = _locked_settings(event, actor)
    key = _checked_key(key, _known_keys(event, settings), "key")
    names: dict[str, str] = settings.overrides["names"]
    if isinstance(name, str) and not name.strip():
        names.pop(key, None)
    else:
        names[key] = _checked_name(name, "name")
    _saved(event, settings, actor, "name", {"key": key, "name": names.get(key, "")})
    return settings


@transaction.atomic
def merge_archetypes(event: Event, actor, *, key: Any, into: Any) -> MetagameSettings:
    """Count ``key``'s decks as ``into``'s (two labels for one deck)."""
    settings = _locked_settings(event, actor)
    known = _known_keys(event, settings)
    key, into = _checked_key(key, known, "key"), _checked_key(into, known, "into")
    merge: dict[str, str] = settings.overrides["merge"]
    if key == OTHER or into == OTHER:
        raise ServiceError(_("Other is not an archetype: it cannot be merged."), "into")
    if merged_key(into, merge) == key or key == into:
        raise ServiceError(
            _("%(into)s is already counted as %(key)s: merge the other way round.")
            % {"into": into, "key": key},
            "into",
        )
    merge[key] = into
    _saved(event, settings, actor, "merge", {"key": key, "into": into})
    return settings


@transaction.atomic
def unmerge_archetype(event: Event, actor, *, key: Any) -> MetagameSettings:
    """Split a merged archetype off again."""
    settings = _locked_settings(event, actor)
    merge: dict[str, str] = settings.overrides["merge"]
    key = key.strip() if isinstance(key, str) else ""
    if key not in merge:
        raise ServiceError(_("%(key)s is not merged into another archetype.") % {"key": key}, "key")
    del merge[key]
    _saved(event, settings, actor, "unmerge", {"key": key})
    return settings


@transaction.atomic
def move_deck(event: Event, actor, *, registration: Any, key: Any) -> MetagameSettings:
    """Count one player's deck as another (or a new) archetype: a split.

    An empty ``key`` gives the deck back its computed archetype.
    """
    settings = _locked_settings(event, actor)
    person = _person(event, registration)
    move: dict[str, str] = settings.overrides["move"]
    text = " ".join(key.split()) if isinstance(key, str) else ""
    if not text:
        move.pop(str(person), None)
    else:
        if text == OTHER:
            raise ServiceError(_("Other is not an archetype: choose or name one."), "key")
        move[str(person)] = _checked_name(text, "key")
    _saved(event, settings, actor, "move", {"registration": person, "key": text})
    return settings


def _person(event: Event, value: Any) -> int:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        pk = 0
    entry = (
        Registration.objects.filter(pk=pk, event__in=_event_ids(event))
        .values("pk", "carried_from_id")
        .first()
    )
    if entry is None:
        raise ServiceError(_("No such player in this event."), "registration")
    return entry["carried_from_id"] or entry["pk"]


@transaction.atomic
def set_sharing(event: Event, actor, *, allowed: bool) -> MetagameSettings:
    """Whether, with decklists private, the archetypes' shares show after the event ends."""
    settings = _locked_settings(event, actor)
    settings.shares_after_event = bool(allowed)
    _saved(event, settings, actor, "sharing", {"allowed": settings.shares_after_event})
    return settings


def overrides_of(event: Event) -> Overrides:
    return settings_of(event).overrides


# --- A series ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesEvents:
    """A series' finished events, split into those its metagame counts and those left
    out because their decklists were never all published."""

    counted: list[Event]
    private: list[Event]


def series_events(series) -> SeriesEvents:
    """The series' finished events of its game whose decklists are all published: a
    series page is public, so it counts only what every reader may see."""
    finished = [
        e for e in series.events.order_by("date", "pk") if e.status == Event.Status.FINISHED
    ]
    games = [e.game for e in finished if e.game in fields.ARCHETYPE_GAMES]
    game = max(set(games), key=games.count) if games else None
    same = [e for e in finished if e.game == game]
    return SeriesEvents(
        [e for e in same if e.decklists_public == "all"],
        [e for e in same if e.decklists_public != "all"],
    )


def series_report(series) -> dict[str, Any]:
    """The metagame of the series' counted events together, cached like an event's."""
    return series_report_and_key(series)[0]


def series_report_and_key(series) -> tuple[dict[str, Any], str]:
    """The series' report and its cache key (its charts are cached under it too)."""
    counted = series_events(series).counted
    stamps = "|".join(_cache_key(Asked(event), settings_of(event)) for event in counted)
    language = translation.get_language() or "en"
    digest = hashlib.sha256(stamps.encode()).hexdigest()[:32]
    key = f"metagame:series:{series.pk}:{language}:{digest}"
    cached = cache.get(key)
    if cached is not None:
        return cached, key
    game = counted[0].game if counted else ""
    field = fields.combined(
        {event.pk: read_field(event, settings_of(event)) for event in counted}, game
    )
    reached = (
        {fields.TOP_CUT: field.reached[fields.TOP_CUT]} if fields.TOP_CUT in field.reached else {}
    )
    data = metagame_report(
        field.players, field.matches, reached, names=named(field), most=MOST_SHOWN
    ).as_dict()
    data.update(
        series={"id": series.pk, "name": series.name, "game": game},
        events=[{"id": e.pk, "name": e.name, "date": e.date.isoformat()} for e in counted],
        phase=ALL,
        phases=[ALL],
        stages=list(reached),
        access=FULL,
    )
    cache.set(key, data, CACHE_SECONDS)
    return data, key
