"""What tournaments announce to the other apps: who may follow an event changed.

Side effects of a change are listeners of a signal (design.md); tournaments imports none
of them. Each signal below is sent once per changed row, after the change commits (never
for a rolled-back one), whichever code made it: a service, the admin, a cascade of a
deletion. The receivers at the bottom watch tournaments' own rows to send them.

A listener that raises is logged here; the change stands and the other listeners still
hear it.
"""

from __future__ import annotations

import functools
import logging

from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import Signal, receiver

from tournaments.models import Event, EventRole, Registration

logger = logging.getLogger(__name__)

role_changed = Signal()
"""An account's organiser or judge role in an event was granted or removed.

Keyword arguments: ``event_id`` and ``user_id`` (ints). Sender: ``EventRole``. A grant
moved from one account to another (the admin) is sent for each of the two accounts.
"""

registration_changed = Signal()
"""An account gained or lost its entry in an event: registered or entered late, withdrawn
or deleted, or the entry moved between accounts (a walk-in merged into an account, two
accounts merged), sent for each account concerned.

Keyword arguments: ``event_id`` and ``user_id`` (ints). Sender: ``Registration``. Not sent
when only the entry's status changes (waiting list, drop): it is still that account's.
"""

event_status_changed = Signal()
"""An event's status changed, moving back to draft included.

Keyword arguments: ``event_id`` (int), ``status`` and ``previous`` (``Event.Status``
values). Sender: ``Event``. Not sent for a new event.
"""

# What a row held before this save (set by pre_save, read by post_save).
_BEFORE = "_announced_before"


def send_on_commit(signal: Signal, sender: type, **arguments) -> None:
    """Send ``signal`` once the current transaction commits (now, outside one)."""
    transaction.on_commit(functools.partial(_send, signal, sender, arguments), robust=True)


def _send(signal: Signal, sender: type, arguments: dict) -> None:
    for listener, outcome in signal.send_robust(sender, **arguments):
        if isinstance(outcome, Exception):
            logger.error(
                "%s listener %s failed: %s",
                sender.__name__,
                getattr(listener, "__qualname__", listener),
                outcome,
                exc_info=outcome,
            )


def _saving(instance, field: str, update_fields) -> bool:
    """Whether this save writes ``field`` of a row that already exists."""
    saved = update_fields is None or field in update_fields
    return saved and not instance._state.adding and instance.pk is not None


def _remember(instance, field: str, update_fields) -> None:
    instance.__dict__.pop(_BEFORE, None)  # left over from a save that failed
    if _saving(instance, field, update_fields):
        column = instance._meta.get_field(field).attname
        before = type(instance)._base_manager.filter(pk=instance.pk).values_list(column)
        instance.__dict__[_BEFORE] = before.first()


def _accounts_changed(instance, created: bool) -> set[int]:
    """The accounts a saved role or entry was added to or taken from."""
    before = instance.__dict__.pop(_BEFORE, None)
    if created:
        return {instance.user_id} - {None}
    if before is None or before[0] == instance.user_id:
        return set()
    return {before[0], instance.user_id} - {None}


@receiver(pre_save, sender=EventRole, dispatch_uid="tournaments.signals.role_before")
@receiver(pre_save, sender=Registration, dispatch_uid="tournaments.signals.entry_before")
def _account_before(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    if not raw:
        _remember(instance, "user", update_fields)


@receiver(post_save, sender=EventRole, dispatch_uid="tournaments.signals.role_saved")
def _role_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if not raw:
        for user_id in _accounts_changed(instance, created):
            send_on_commit(role_changed, EventRole, event_id=instance.event_id, user_id=user_id)


@receiver(post_delete, sender=EventRole, dispatch_uid="tournaments.signals.role_deleted")
def _role_deleted(sender, instance, **kwargs) -> None:
    send_on_commit(role_changed, EventRole, event_id=instance.event_id, user_id=instance.user_id)


@receiver(post_save, sender=Registration, dispatch_uid="tournaments.signals.entry_saved")
def _entry_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if not raw:
        for user_id in _accounts_changed(instance, created):
            send_on_commit(
                registration_changed, Registration, event_id=instance.event_id, user_id=user_id
            )


@receiver(post_delete, sender=Registration, dispatch_uid="tournaments.signals.entry_deleted")
def _entry_deleted(sender, instance, **kwargs) -> None:
    if instance.user_id is not None:
        send_on_commit(
            registration_changed,
            Registration,
            event_id=instance.event_id,
            user_id=instance.user_id,
        )


@receiver(pre_save, sender=Event, dispatch_uid="tournaments.signals.status_before")
def _status_before(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    if not raw:
        _remember(instance, "status", update_fields)


@receiver(post_save, sender=Event, dispatch_uid="tournaments.signals.status_saved")
def _status_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    before = instance.__dict__.pop(_BEFORE, None)
    if raw or created or before is None or before[0] == instance.status:
        return
    send_on_commit(
        event_status_changed,
        Event,
        event_id=instance.pk,
        status=instance.status,
        previous=before[0],
    )
