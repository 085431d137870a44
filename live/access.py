"""Open sockets lose (or gain) rights with the change that takes (or gives) them.

A socket is let in by what it may hear when it opens (live.audience.groups_for). Besides
its notice groups it joins two groups of its own kind: one for its event and, when it
opened as someone, one for that account. When a change commits that may alter what an
account, or everyone following an event, may hear, the listeners below send those groups
one ``access.check``; each socket in them checks its rights again, as on opening, and
leaves the groups it may no longer hear, joins those it now may, or closes with 4403.

What sends a check (connected in live/apps.py):

* tournaments.signals: a role granted or removed, an entry made, removed or moved between
  accounts (that account's sockets); an event moved back to draft (every socket of it).
* Django's model signals: an account saved (a password change, a deactivation), or
  removed; an API token deleted (revoked, rotated); a stored session deleted (a log-out,
  or a password change on another device cycling it).

Each is sent once the change commits; a channel layer that is down costs the check,
logged, never the change (as for notices, live.notify).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from live.auth import token_model
from tournaments import signals as tournament_signals
from tournaments.models import Event

logger = logging.getLogger(__name__)

# The message type a consumer's handler answers to (EventConsumer.access_check).
CHECK = "access.check"


def event_group(event_id: int) -> str:
    """Every socket following the event."""
    return f"event.{event_id}.access"


def user_group(user_id: int) -> str:
    """Every socket opened as the account, whatever the event."""
    return f"user.{user_id}.access"


def check_again(group: str, event_id: int | None = None) -> None:
    """Ask each socket in ``group`` to check its rights now (only those of ``event_id``,
    when given). A channel layer that is down is logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": CHECK, "event": event_id}
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the change is made: the sockets keep their rights until they reconnect
        logger.warning("live sockets in %s not re-checked (channel layer unavailable)", group)


def _logged(listener: Callable) -> Callable:
    """A listener that fails is logged; it never fails (or undoes) the change it heard of."""

    @functools.wraps(listener)
    def run(*args, **kwargs) -> None:
        try:
            listener(*args, **kwargs)
        except Exception:
            logger.exception("live access listener %s failed", listener.__name__)

    return run


def _after_commit(group: str) -> None:
    transaction.on_commit(functools.partial(check_again, group), robust=True)


# -- tournaments' signals (already sent on commit) ---------------------------------------
@_logged
def role_changed(sender, *, event_id: int, user_id: int, **kwargs) -> None:
    check_again(user_group(user_id), event_id)


@_logged
def registration_changed(sender, *, event_id: int, user_id: int, **kwargs) -> None:
    check_again(user_group(user_id), event_id)


@_logged
def event_status_changed(sender, *, event_id: int, status: str, **kwargs) -> None:
    """A draft is nobody's live event: every socket of it checks, and closes. No other
    status changes who may follow an event."""
    if status == Event.Status.DRAFT:
        check_again(event_group(event_id))


# -- Django's model signals (sent inside the change: the check waits for its commit) ----
@_logged
def account_saved(sender, instance, created: bool, update_fields=None, **kwargs) -> None:
    """A password change or a deactivation; a log-in (which saves last_login) changes
    nothing a socket holds."""
    if created or (update_fields is not None and set(update_fields) == {"last_login"}):
        return
    _after_commit(user_group(instance.pk))


@_logged
def account_removed(sender, instance, **kwargs) -> None:
    _after_commit(user_group(instance.pk))


@_logged
def token_deleted(sender, instance, **kwargs) -> None:
    _after_commit(user_group(instance.user_id))


@_logged
def session_deleted(sender, instance, **kwargs) -> None:
    """A log-out (or a session cycled away): the sockets opened with it check and close."""
    user_id = instance.get_decoded().get(SESSION_KEY)
    if user_id is not None:
        _after_commit(user_group(get_user_model()._meta.pk.to_python(user_id)))


def connect_listeners() -> None:
    """Called once from live/apps.py; the dispatch ids keep a second call harmless."""
    tournament_signals.role_changed.connect(role_changed, dispatch_uid="live.access.role")
    tournament_signals.registration_changed.connect(
        registration_changed, dispatch_uid="live.access.registration"
    )
    tournament_signals.event_status_changed.connect(
        event_status_changed, dispatch_uid="live.access.event_status"
    )
    user = get_user_model()
    post_save.connect(account_saved, sender=user, dispatch_uid="live.access.account_saved")
    post_delete.connect(account_removed, sender=user, dispatch_uid="live.access.account_removed")
    post_delete.connect(token_deleted, sender=token_model(), dispatch_uid="live.access.token")
    post_delete.connect(session_deleted, sender=Session, dispatch_uid="live.access.session")
