"""The judge roster of an event (issue 33): each judge's role and team, and the zones of
tables the floor judges cover.

A judge call or a dispute goes first to the judges of its table's zone
(``judging.routing``); the console shows each judge their zone and team. Each change
here is one transaction on the locked event row (two organisers editing zones at once
cannot make them overlap), logged in the event's log and announced with
:data:`roster_changed` once it commits.

Permissions are the views' business (organisers and the head judge); these functions
refuse what is wrong whoever asks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _

from judging.models import DeckCheckPick, JudgeAssignment, Zone
from tournaments import signals
from tournaments.event.roles import JUDGE, ORGANISER, has_role
from tournaments.models import Event, EventLog, EventRole, Match, Round
from web.errors import ServiceError

MAX_TABLE = 2_147_483_647
MAX_ZONE_NAME = 40
MAX_DECK_CHECKS = 50
FINISHED = (Match.Status.CONFIRMED, Match.Status.FINAL)

roster_changed = Signal()
"""An event's judge roster changed (a judge's role, team or zone; a zone).

Keyword arguments: ``event_id`` (int). Sender: ``JudgeAssignment``. Sent on commit by the
services below; ``live`` tells the event's staff (notice ``roster``).
"""


# --- who is on the roster ---------------------------------------------------------------


def staff_ids(event: Event) -> set[int]:
    """The accounts that may be on the roster: the event's judges and organisers."""
    rows = EventRole.objects.filter(event=event, role__in=(JUDGE, ORGANISER))
    return set(rows.values_list("user_id", flat=True))


def everyone(event: Event) -> list[int]:
    """Every judge of the event, as a call escalated reaches them: the judge role, and
    anyone on the roster who still holds a staff role (an organiser acting as head judge)."""
    judges = EventRole.objects.filter(event=event, role=JUDGE).values_list("user_id", flat=True)
    placed = set(event.judge_roster.values_list("user_id", flat=True)) & staff_ids(event)
    return sorted(set(judges) | placed)


def zone_of(event: Event, table: int | None) -> Zone | None:
    """The zone holding ``table``, or None (no table, or outside every zone)."""
    if table is None:
        return None
    return event.judge_zones.filter(first_table__lte=table, last_table__gte=table).first()


def judges_of_zone(zone: Zone) -> list[int]:
    """The zone's judges who still hold a staff role in the event."""
    placed = set(zone.assignments.values_list("user_id", flat=True))
    return sorted(placed & staff_ids(zone.event))


def may_manage(user, event: Event) -> bool:
    """Organisers and the head judge set the roster."""
    if has_role(user, event, ORGANISER):
        return True
    return event.judge_roster.filter(user_id=user.pk, role=JudgeAssignment.Role.HEAD).exists()


# --- changing the roster ----------------------------------------------------------------


def _locked_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _log(event: Event, actor, action: str, data: dict) -> None:
    EventLog.objects.create(event=event, actor=actor, action=action, data=data)
    signals.send_on_commit(roster_changed, JudgeAssignment, event_id=event.pk)


def _choice(value, choices: Iterable[str], field_name: str, message: str) -> str:
    value = "" if value is None else str(value)
    if value not in choices:
        raise ServiceError(message, field_name)
    return value


def _zone_in(event: Event, zone_id) -> Zone | None:
    if zone_id in (None, ""):
        return None
    try:
        zone = event.judge_zones.filter(pk=int(zone_id)).first()
    except (TypeError, ValueError):
        zone = None
    if zone is None:
        raise ServiceError(_("Choose one of this event's zones."), "zone")
    return zone


@transaction.atomic
def assign(
    event: Event, actor, *, username: str, role: str, team: str = "", zone_id=None
) -> JudgeAssignment:
    """Place a judge on the roster, or change their role, team or zone."""
    event = _locked_event(event)
    user = get_user_model().objects.filter(username=str(username or "").strip()).first()
    if user is None or user.pk not in staff_ids(event):
        raise ServiceError(
            _("%(user)s is not a judge or organiser of this event: give them the role first.")
            % {"user": str(username or "").strip() or "—"},
            "username",
        )
    role = _choice(role, JudgeAssignment.Role.values, "role", _("Choose a role."))
    team = _choice(team, JudgeAssignment.Team.values, "team", _("Choose a team, or none."))
    zone = _zone_in(event, zone_id)
    place, created = JudgeAssignment.objects.update_or_create(
        event=event, user=user, defaults={"role": role, "team": team, "zone": zone}
    )
    data = {"user": user.username, "role": role, "team": team, "zone": zone.name if zone else None}
    _log(event, actor, "judge_roster", {**data, "new": created})
    return place


@transaction.atomic
def unassign(event: Event, actor, *, assignment_id) -> None:
    """Take a judge off the roster (their judge role stays)."""
    event = _locked_event(event)
    place = event.judge_roster.filter(pk=assignment_id).select_related("user").first()
    if place is None:
        raise ServiceError(_("That judge is no longer on the roster."), "assignment")
    username = place.user.username
    place.delete()
    _log(event, actor, "judge_roster_removed", {"user": username})


def _table(value, field_name: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(_("A table number is a whole number."), field_name)
    if not 1 <= value <= MAX_TABLE:
        raise ServiceError(
            _("A table number is from 1 to %(high)s (got %(value)s).")
            % {"high": f"{MAX_TABLE:,}", "value": value},
            field_name,
        )
    return value


def _clean_zone(event: Event, name, first, last, zone: Zone | None) -> tuple[str, int, int]:
    name = str(name or "").strip()
    if not name:
        raise ServiceError(_("Name the zone (A, B, Hall 2…)."), "name")
    if len(name) > MAX_ZONE_NAME:
        raise ServiceError(
            _("A zone's name is at most %(limit)s characters.") % {"limit": MAX_ZONE_NAME}, "name"
        )
    first, last = _table(first, "first_table"), _table(last, "last_table")
    if first > last:
        raise ServiceError(
            _("The first table (%(first)s) comes after the last (%(last)s).")
            % {"first": first, "last": last},
            "last_table",
        )
    others = event.judge_zones.exclude(pk=zone.pk if zone else None)
    if others.filter(name=name).exists():
        raise ServiceError(_("This event already has a zone %(name)s.") % {"name": name}, "name")
    clash = others.filter(first_table__lte=last, last_table__gte=first).first()
    if clash is not None:
        raise ServiceError(
            _("Tables %(first)s to %(last)s overlap zone %(zone)s (tables %(from)s to %(to)s).")
            % {
                "first": first,
                "last": last,
                "zone": clash.name,
                "from": clash.first_table,
                "to": clash.last_table,
            },
            "first_table",
        )
    return name, first, last


@transaction.atomic
def save_zone(event: Event, actor, *, name, first_table, last_table, zone_id=None) -> Zone:
    """Add a zone of tables, or change one; zones never overlap."""
    event = _locked_event(event)
    zone = _zone_in(event, zone_id) if zone_id not in (None, "") else None
    name, first, last = _clean_zone(event, name, first_table, last_table, zone)
    if zone is None:
        zone = Zone.objects.create(event=event, name=name, first_table=first, last_table=last)
    else:
        zone.name, zone.first_table, zone.last_table = name, first, last
        zone.save(update_fields=["name", "first_table", "last_table"])
    _log(event, actor, "judge_zone", {"zone": name, "first_table": first, "last_table": last})
    return zone


@transaction.atomic
def delete_zone(event: Event, actor, *, zone_id) -> None:
    """Remove a zone; its judges stay on the roster, with no zone."""
    event = _locked_event(event)
    zone = _zone_in(event, zone_id)
    name = zone.name
    zone.delete()
    _log(event, actor, "judge_zone_removed", {"zone": name})


# --- what each judge sees ---------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """What the console shows a judge by default: their zone's tables (``zone`` None:
    every table) and their team's view; ``everything`` for organisers and the head judge."""

    everything: bool
    zone: Zone | None = None
    team: str = ""
    role: str = ""

    def holds(self, table: int | None) -> bool:
        return self.everything or self.zone is None or self.zone.holds(table)

    @property
    def team_label(self) -> str:
        return str(JudgeAssignment.Team(self.team).label) if self.team else ""


def scope_for(user, event: Event) -> Scope:
    """The judge's default view of the console."""
    place = event.judge_roster.filter(user_id=user.pk).select_related("zone").first()
    if place is None:
        return Scope(everything=True)
    if place.role == JudgeAssignment.Role.HEAD or has_role(user, event, ORGANISER):
        return Scope(everything=True, zone=place.zone, team=place.team, role=place.role)
    return Scope(everything=False, zone=place.zone, team=place.team, role=place.role)


@dataclass
class ZoneTables:
    """One zone's outstanding tables, for the end-of-round team."""

    zone: Zone | None
    matches: list[Match] = field(default_factory=list)


def running_round(event: Event) -> Round | None:
    latest = event.rounds.order_by("-number").first()
    if latest is None or latest.status == Round.Status.CLOSED:
        return None
    return latest


def outstanding_by_zone(event: Event) -> list[ZoneTables]:
    """The running round's tables without a final result, by zone in table order; tables
    outside every zone last."""
    current = running_round(event)
    zones = list(event.judge_zones.all())
    groups = [ZoneTables(zone) for zone in zones]
    loose = ZoneTables(None)
    if current is None:
        return groups
    matches = (
        current.matches.filter(is_bye=False)
        .exclude(status__in=FINISHED)
        .select_related("player_a__user", "player_b__user")
        .order_by("table")
    )
    for match in matches:
        home = next((g for g in groups if g.zone.holds(match.table)), loose)
        home.matches.append(match)
    return [*groups, loose] if loose.matches else groups


def picked(pick: DeckCheckPick | None) -> list[Match]:
    """The drawn tables' matches, in table order, with their players."""
    if pick is None:
        return []
    return list(
        pick.round.matches.filter(table__in=pick.tables, is_bye=False)
        .select_related("player_a__user", "player_b__user")
        .order_by("table")
    )


@transaction.atomic
def pick_deck_checks(event: Event, actor, *, count) -> DeckCheckPick:
    """Draw the running round's deck-check tables once (the same tables for the whole
    team), with a seed kept so the draw can be checked; players already checked come last
    (``decks.services.pick_tables``)."""
    from decks.services import pick_tables

    event = _locked_event(event)
    current = running_round(event)
    if current is None:
        raise ServiceError(_("No round is being played: there are no tables to pick."), "count")
    if isinstance(count, str) and count.strip().isdigit():
        count = int(count.strip())
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_DECK_CHECKS:
        raise ServiceError(
            _("Pick from 1 to %(limit)s tables.") % {"limit": MAX_DECK_CHECKS}, "count"
        )
    drawn = DeckCheckPick.objects.filter(round=current).first()
    if drawn is not None:
        return drawn
    seed = random.SystemRandom().randrange(2**62)
    tables = sorted(m.table for m in pick_tables(current, count, seed))
    drawn = DeckCheckPick.objects.create(
        event=event, round=current, seed=seed, tables=tables, picked_by=actor
    )
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="deck_check_pick",
        round_number=current.number,
        data={"tables": tables, "seed": seed},
    )
    signals.send_on_commit(roster_changed, JudgeAssignment, event_id=event.pk)
    return drawn
