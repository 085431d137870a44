"""State changes of events and registrations, each in one transaction.

Views call these and never change rows themselves (design.md, Conventions).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.models import Event, EventLog, EventRole, Registration
from web.errors import ServiceError


@transaction.atomic
def create_event(organiser, **fields) -> Event:
    """A new event whose creator is its first organiser."""
    event = Event.objects.create(created_by=organiser, **fields)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    return event


@transaction.atomic
def register_player(event: Event, user) -> Registration:
    """Register ``user``; past the cap they join the waiting list instead."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not event.registration_open:
        raise ServiceError("Registration for this event is closed.")
    existing = Registration.objects.filter(event=event, user=user).first()
    if existing and existing.status != Registration.Status.DROPPED:
        raise ServiceError("You are already registered for this event.")
    taken = event.registrations.filter(status=Registration.Status.REGISTERED).count()
    full = event.registration_cap is not None and taken >= event.registration_cap
    status = Registration.Status.WAITLISTED if full else Registration.Status.REGISTERED
    if existing:
        existing.status = status
        existing.save(update_fields=["status"])
        return existing
    return Registration.objects.create(event=event, user=user, status=status)


@transaction.atomic
def withdraw_player(event: Event, user) -> None:
    """Before the event starts a withdrawal frees the seat for the waiting list."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None or registration.status == Registration.Status.DROPPED:
        raise ServiceError("You are not registered for this event.")
    if event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        raise ServiceError("The event has started: ask the organiser to drop you.")
    was_seated = registration.status == Registration.Status.REGISTERED
    registration.delete()
    if was_seated:
        _promote_from_waiting_list(event)


def _promote_from_waiting_list(event: Event) -> None:
    nxt = event.registrations.filter(status=Registration.Status.WAITLISTED).first()
    if nxt is not None:
        nxt.status = Registration.Status.REGISTERED
        nxt.save(update_fields=["status"])


@transaction.atomic
def grant_role(event: Event, username: str, role: str) -> EventRole:
    """Make an existing user an organiser or judge of ``event``."""
    if role not in EventRole.Role.values:
        raise ServiceError(f"Unknown role {role!r}.")
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise ServiceError(f"No account is called {username.strip()!r}.")
    grant, created = EventRole.objects.get_or_create(event=event, user=user, role=role)
    if not created:
        raise ServiceError(f"{user.username} is already a {grant.get_role_display().lower()}.")
    return grant


@transaction.atomic
def revoke_role(event: Event, grant_id: int) -> None:
    grant = EventRole.objects.select_for_update().filter(event=event, pk=grant_id).first()
    if grant is None:
        raise ServiceError("That role grant no longer exists.")
    organisers = EventRole.objects.filter(event=event, role=EventRole.Role.ORGANISER)
    if grant.role == EventRole.Role.ORGANISER and organisers.count() == 1:
        raise ServiceError("An event needs at least one organiser.")
    grant.delete()


def _last_round_number(event: Event) -> int:
    last = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return last or 0


@transaction.atomic
def check_in(event: Event, registration_ids: list[int], actor) -> int:
    """Mark players present; returns how many were newly checked in."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    changed = event.registrations.filter(
        pk__in=registration_ids, status=Registration.Status.REGISTERED, checked_in=False
    ).update(checked_in=True)
    if changed:
        EventLog.objects.create(
            event=event, actor=actor, action="check_in", data={"players": changed}
        )
    return changed


@transaction.atomic
def drop_player(event: Event, registration: Registration, actor, reason: str = "") -> Registration:
    """Drop a player from the next round on: a round already paired is still theirs to play."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    registration = Registration.objects.select_for_update().get(pk=registration.pk, event=event)
    if registration.status == Registration.Status.DROPPED:
        raise ServiceError(f"{registration.display_name} has already dropped.")
    registration.status = Registration.Status.DROPPED
    registration.dropped_after_round = _last_round_number(event)
    registration.save(update_fields=["status", "dropped_after_round"])
    EventLog.objects.create(
        event=event,
        round_number=registration.dropped_after_round or None,
        actor=actor,
        action="drop",
        reason=reason,
        data={"player": registration.display_name, "after_round": registration.dropped_after_round},
    )
    return registration


@transaction.atomic
def add_late_entry(event: Event, actor, *, user=None, name: str = "") -> Registration:
    """Seat a player after the event started: rounds already paired count as losses."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if user is None and not name.strip():
        raise ServiceError("Give the late player's account or name.")
    if (
        user is not None
        and Registration.objects.filter(event=event, user=user)
        .exclude(status=Registration.Status.WAITLISTED)
        .exists()
    ):
        raise ServiceError(f"{user.username} is already in this event.")
    joined = _last_round_number(event) + 1
    fields = {
        "name": name.strip(),
        "status": Registration.Status.REGISTERED,
        "checked_in": True,
        "joined_round": joined,
    }
    if user is not None:  # a waiting-list entry is promoted rather than duplicated
        registration, _ = Registration.objects.update_or_create(
            event=event, user=user, defaults=fields
        )
    else:
        registration = Registration.objects.create(event=event, **fields)
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="late_entry",
        data={"player": registration.display_name, "joined_round": joined},
    )
    return registration
