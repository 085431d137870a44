"""What tournaments announce to the other apps: each change, once, after it commits.

These are the event's domain signals (docs/architecture.md, "Signals"). Each is a
constant below whose docstring says when it fires, who sends it and its keyword
arguments. Side effects of a change are listeners in their own app's ``ready()``: live
notices (``live.listeners``), Web Push (``push.listeners``), round-close backups
(``backups.listeners``), outgoing webhooks (``webhooks.listeners``). Nothing in
``tournaments`` imports them.

Every signal is sent once per change after it commits (never for a rolled-back one):
the services send theirs with :func:`send_on_commit` from the one function that makes
the change; the receivers at the bottom watch tournaments' own rows for the account and
status changes, whichever code made them (a service, the admin, a cascade).

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

# -- Rounds ---------------------------------------------------------------------------

round_paired = Signal()
"""A round's pairings were published or changed.

Keyword arguments: ``event_id``, ``round_id``, ``round_number`` (ints); ``how``: one of
:data:`PAIRED` (a new Swiss or top-cut round), :data:`CUT` (the top cut's first round:
the event is now in its top cut), :data:`REPAIRED` or :data:`SWAPPED`; ``match_ids``
(tuple of ints): the tables whose seats are new, every table of the round but for a
swap's two. Sender: ``Round``. Sent by ``tournaments.rounds.services`` (pair_next_round,
repair_round, swap_players, start_top_cut, advance_top_cut).
"""
PAIRED, CUT, REPAIRED, SWAPPED = "paired", "cut", "repaired", "swapped"

round_status_changed = Signal()
"""A round has a new status: paired (a new round, after its :data:`round_paired`),
started (its clock set) or closed.

Keyword arguments: ``event_id``, ``round_id``, ``round_number`` (ints); ``status``: the
round's new ``Round.Status``. Sender: ``Round``. Sent by ``tournaments.rounds.services``
(pair_next_round, start_top_cut, advance_top_cut, start_round, close_round).
"""

# -- Results and the clock ------------------------------------------------------------

result_changed = Signal()
"""A match's result changed: reported, confirmed, disputed, entered or corrected by
staff, or changed by a penalty or its voiding.

Keyword arguments: ``event_id``, ``match_id``, ``change_id`` (the ``ResultChange`` that
logs it) (ints); ``status_before`` (the match's ``Match.Status`` before the change).
Sender: ``Match``. Sent by ``tournaments.results.services.log_change``, which every
result service calls once per change.
"""

extension_changed = Signal()
"""A table's time extension was granted, changed or removed.

Keyword arguments: ``event_id``, ``match_id`` (ints); ``minutes``: the table's standing
total. Sender: ``Match``. Sent by ``tournaments.clock.extensions``.
"""

time_ran_out = Signal()
"""A table still playing ran out of time (the round's time and its extensions).

Keyword arguments: ``event_id``, ``round_number``, ``table`` (ints). Sender: ``Match``.
Sent once per table and end of time by ``tournaments.clock.time_up.tell_time_up`` (Celery
beat, or the venue's own clock thread); no transaction: it is sent as it is found.
"""

# -- Judges ---------------------------------------------------------------------------

call_changed = Signal()
"""A judge call was made or answered: the judges' queue changed.

Keyword arguments: ``event_id`` (int); ``round_number`` and ``table`` (ints, or None for a
call from no table). Sender: the call's model. Sent by ``judging.calls``.
"""

# -- Penalties ------------------------------------------------------------------------

penalty_changed = Signal()
"""A penalty was issued or voided.

Keyword arguments: ``event_id``, ``penalty_id`` (ints); ``voided`` (bool: False when
issued). Sender: the penalty's model. Sent by ``judging.penalties`` (issue_penalty,
void_penalty): judging owns penalties, tournaments owns the announcement.
"""

# -- Entries and the event ------------------------------------------------------------

entry_changed = Signal()
"""A player entered the event (registered, entered late, or reinstated after a
disqualification was voided), dropped (by themself, the organiser or a
disqualification), or checked in.

Keyword arguments: ``event_id``, ``registration_id`` (ints); ``what``: one of
:data:`ENTERED`, :data:`DROPPED`, :data:`CHECKED_IN`. Sender: ``Registration``. Sent by
``tournaments.event.services`` (register_player, add_late_entry, drop_player, check_in)
and ``tournaments.results.penalties`` (disqualify, undo_disqualification).
"""
ENTERED, DROPPED, CHECKED_IN = "entered", "dropped", "checked_in"

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

gate_applied = Signal()
"""The gate from Day 1 to Day 2 was applied: the main event has its Day 2 players, and
every Day 1 player their decision.

Keyword arguments: ``event_id`` (the main event's id) and ``through`` (ints: how many
went through). Sender: ``Event``. Sent by ``tournaments.event.phases.apply_gate``.
"""

event_status_changed = Signal()
"""An event's status changed, moving back to draft included.

Keyword arguments: ``event_id`` (int), ``status`` and ``previous`` (``Event.Status``
values). Sender: ``Event``. Not sent for a new event.
"""


def send_on_commit(signal: Signal, sender: type, **arguments) -> None:
    """Send ``signal`` once the current transaction commits (now, outside one)."""
    transaction.on_commit(functools.partial(_send, signal, sender, arguments), robust=True)


def send_now(signal: Signal, sender: type, **arguments) -> None:
    """Send ``signal`` at once, for a change with no transaction (a clock running out)."""
    _send(signal, sender, arguments)


# What a row held before this save (set by pre_save, read by post_save).
_BEFORE = "_announced_before"


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
