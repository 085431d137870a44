"""Every change to a series, each in one transaction and logged.

A series' rule is checked by ``pairing.series.rule_problems`` against the events it will
have, so no change can leave it with no events or a best N it cannot count.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from pairing.series import (
    Problem,
    SeriesRule,
    SeriesRuleError,
    checked_points,
    parse_points_table,
    rule_problems,
)
from series.models import Series, SeriesEvent, SeriesLog
from tournaments.event.roles import ORGANISER, has_role
from tournaments.models import Event
from web.errors import FieldError, ServiceError
from web.inputs import too_long

RULE_FIELDS = ("method", "placing_points", "participation", "best_of", "tiebreakers")
EDITABLE_FIELDS = ("name", "description", *RULE_FIELDS)
LISTED = ("placing_points", "tiebreakers")  # kept as JSON lists


def may_manage(user, series: Series) -> bool:
    """The series' organiser, or site staff."""
    return user.is_authenticated and (user.is_superuser or series.organiser_id == user.pk)


def points_table(typed: Any) -> tuple[int, ...]:
    """The points table from a form's text or an API's list, or ServiceError naming it."""
    try:
        if isinstance(typed, str):
            return parse_points_table(typed)
        if isinstance(typed, list | tuple) and all(type(p) is int for p in typed):
            return checked_points(typed)
    except SeriesRuleError as exc:
        raise _refusal(exc.problems) from None
    raise ServiceError(
        _("Give the points per place as a list of whole numbers."), field="placing_points"
    )


def _refusal(problems: list) -> ServiceError:
    """Each problem beside its field, in the reader's language: a rule's ``Problem``
    (``pairing.series``) carries its sentence as a template for the catalogue."""
    return ServiceError.of(FieldError(field=p[0], message=_said(p)) for p in problems)


def _said(problem) -> str:
    if isinstance(problem, Problem):
        return gettext(problem.template) % problem.params
    return problem[1]


def _text_problems(fields: dict[str, Any]) -> list[tuple[str, str]]:
    problems = []
    name = fields.get("name")
    if name is not None and not str(name).strip():
        problems.append(("name", _("Give the series a name.")))
    for field in ("name", "description"):
        value = fields.get(field)
        limit = Series._meta.get_field(field).max_length
        if isinstance(value, str) and len(value) > limit:
            problems.append((field, too_long(field, value, limit)))
    return problems


def _rule_of(fields: dict[str, Any]) -> SeriesRule:
    return SeriesRule(
        method=fields["method"],
        placing_points=tuple(fields["placing_points"]),
        participation=fields["participation"],
        best_of=fields["best_of"],
        tiebreakers=tuple(fields["tiebreakers"]),
    )


def _check(fields: dict[str, Any], event_count: int) -> None:
    problems = _text_problems(fields) + rule_problems(_rule_of(fields), event_count)
    if problems:
        raise _refusal(problems)


def _refuse_flights(events: Iterable[Event], field: str) -> None:
    """A Day 1 flight counts through its main event, whose placings hold its players."""
    flight = next((e for e in events if e.parent_id), None)
    if flight is not None:
        raise ServiceError(
            _("%(event)s is a Day 1 flight: add its main event, which counts every flight.")
            % {"event": flight.name},
            field=field,
        )


def _not_organised(user, events: Iterable[Event]) -> list[Event]:
    return [event for event in events if not has_role(user, event, ORGANISER)]


@transaction.atomic
def create_series(organiser, events: list[Event], **fields: Any) -> Series:
    """A new series of ``events`` (at least one, each organised by ``organiser``)."""
    if "placing_points" in fields:
        fields["placing_points"] = points_table(fields["placing_points"])
    settings = {
        "name": "",
        "method": Series.Method.PLACINGS,
        "placing_points": (),
        "participation": 0,
        "best_of": None,
        "tiebreakers": (),
        "description": "",
        **fields,
    }
    events = list(dict.fromkeys(events))
    _check(settings, len(events))
    _refuse_flights(events, "events")
    foreign = _not_organised(organiser, events)
    if foreign:
        raise ServiceError(
            _("You do not organise %(event)s: only its organisers can add it to a series.")
            % {"event": foreign[0].name},
            field="events",
        )
    series = Series.objects.create(
        organiser=organiser,
        **{
            k: list(v) if k in ("placing_points", "tiebreakers") else v for k, v in settings.items()
        },
    )
    SeriesEvent.objects.bulk_create(SeriesEvent(series=series, event=e) for e in events)
    SeriesLog.objects.create(
        series=series, actor=organiser, action="create", data={"events": [e.pk for e in events]}
    )
    return series


def _locked(series: Series) -> Series:
    return Series.objects.select_for_update().get(pk=series.pk)


@transaction.atomic
def update_series(series: Series, actor, **fields: Any) -> Series:
    """Change a series' name or rule; the log names what changed, old and new."""
    unknown = sorted(set(fields) - set(EDITABLE_FIELDS))
    if unknown:
        raise ServiceError(
            _("%(field)s cannot be changed here.") % {"field": unknown[0]}, field=unknown[0]
        )
    if "placing_points" in fields:
        fields["placing_points"] = list(points_table(fields["placing_points"]))
    series = _locked(series)
    current = {name: getattr(series, name) for name in EDITABLE_FIELDS}
    wanted = {**current, **fields}
    for listed in LISTED:
        wanted[listed] = list(wanted[listed] or ())
    _check(wanted, series.entries.count())
    changed = sorted(name for name in fields if wanted[name] != current[name])
    if changed:
        for name in changed:
            setattr(series, name, wanted[name])
        series.save(update_fields=changed)
        SeriesLog.objects.create(
            series=series,
            actor=actor,
            action="edit",
            data={
                "fields": changed,
                "before": {n: current[n] for n in changed if n in RULE_FIELDS},
            },
        )
    return series


@transaction.atomic
def add_event(series: Series, event: Event, actor) -> Series:
    """The event's results count in the series from now on (standings follow)."""
    series = _locked(series)
    if not has_role(actor, event, ORGANISER):
        raise ServiceError(
            _("You do not organise %(event)s: only its organisers can add it to a series.")
            % {"event": event.name},
            field="event",
        )
    _refuse_flights([event], "event")
    if series.entries.filter(event=event).exists():
        raise ServiceError(
            _("%(event)s is already in %(series)s.") % {"event": event.name, "series": series.name},
            field="event",
        )
    SeriesEvent.objects.create(series=series, event=event)
    SeriesLog.objects.create(
        series=series, actor=actor, action="add_event", data={"event": event.pk, "name": event.name}
    )
    return series


@transaction.atomic
def remove_event(series: Series, event: Event, actor) -> Series:
    """The event no longer counts; refused when the series would be left unable to count."""
    series = _locked(series)
    entry = series.entries.filter(event=event).first()
    if entry is None:
        raise ServiceError(
            _("%(event)s is not in %(series)s.") % {"event": event.name, "series": series.name},
            field="event",
        )
    left = series.entries.count() - 1
    if left < 1:
        raise ServiceError(
            _(
                "%(event)s is the only event of %(series)s: a series needs at least one "
                "event. Add another first, or leave the series as it is."
            )
            % {"event": event.name, "series": series.name},
            field="event",
        )
    if series.best_of and series.best_of > left:
        raise ServiceError(
            _(
                "%(series)s counts each player's best %(best)s events; without "
                "%(event)s it would have %(left)s. Lower best N first."
            )
            % {"series": series.name, "best": series.best_of, "event": event.name, "left": left},
            field="event",
        )
    entry.delete()
    SeriesLog.objects.create(
        series=series,
        actor=actor,
        action="remove_event",
        data={"event": event.pk, "name": event.name},
    )
    return series


def log_merge(series: Series, registration, actor) -> None:
    """The series' log notes a walk-in linked from its page by site staff (the event's
    log has it too)."""
    SeriesLog.objects.create(
        series=series,
        actor=actor,
        action="merge",
        data={
            "event": registration.event_id,
            "registration": registration.pk,
            "player": registration.display_name,
            "account": registration.user.username,
        },
    )


def log_offer(series: Series, offer, actor) -> None:
    """The series' log notes a walk-in offered from its page: the name as typed, nothing
    of any account (the event's log has it too)."""
    SeriesLog.objects.create(
        series=series,
        actor=actor,
        action="offer",
        data={
            "event": offer.registration.event_id,
            "registration": offer.registration_id,
            "player": offer.registration.display_name,
            "account": offer.username,
        },
    )
