"""Sending notices: the one way a service announces a change (live-updates.md).

Services call `send` inside their transaction; the notice leaves only once the change is
committed (never for a rolled-back change). A channel layer that is down costs the notice,
logged, never the change: pages fall back to polling.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

logger = logging.getLogger(__name__)

PUBLIC, STAFF, PLAYER, JUDGE = "public", "staff", "player", "judge"
# The message type a consumer's handler answers to (LiveConsumer.notice).
MESSAGE_TYPE = "notice"


def public_group(event_id: int) -> str:
    return f"event.{event_id}.public"


def staff_group(event_id: int) -> str:
    return f"event.{event_id}.staff"


def player_group(event_id: int, registration_id: int) -> str:
    return f"event.{event_id}.player.{registration_id}"


def judge_group(event_id: int, user_id: int) -> str:
    """One judge's (or organiser's) own notices in the event: the calls routed to them."""
    return f"event.{event_id}.judge.{user_id}"


def notice(event_id: int, notice_type: str, at: datetime | None = None, **keys: Any) -> dict:
    """A notice as the contract shapes it: type, event, at, then the type's own keys."""
    moment = (at or timezone.now()).isoformat()
    return {"type": notice_type, "event": int(event_id), "at": moment, **keys}


def group_for(event_id: int, audience: str, player: int | None = None) -> str:
    if audience == PUBLIC:
        return public_group(event_id)
    if audience == STAFF:
        return staff_group(event_id)
    if audience == PLAYER and player is not None:
        return player_group(event_id, player)
    if audience == JUDGE and player is not None:  # ``player``: here the judge's account
        return judge_group(event_id, player)
    raise ValueError(f"no audience {audience!r} (player {player!r})")


def send(
    event_id: int,
    notice_type: str,
    *,
    audience: str = PUBLIC,
    player: int | None = None,
    at: datetime | None = None,
    **keys: Any,
) -> None:
    """Send one notice to one audience once the current transaction commits."""
    send_many([(group_for(event_id, audience, player), notice(event_id, notice_type, at, **keys))])


def send_many(messages: Iterable[tuple[str, dict]]) -> None:
    """Send (group, notice) pairs once the current transaction commits, in order."""
    batch = list(messages)
    if batch:
        transaction.on_commit(lambda: deliver(batch))


def deliver(batch: list[tuple[str, dict]]) -> None:
    """Hand notices to the channel layer now; a layer that is down is logged, not raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send_all)(layer, batch)
    except Exception:  # a lost notice must never undo or fail the change
        logger.warning("live notices not sent (channel layer unavailable): %d", len(batch))


async def _send_all(layer, batch: list[tuple[str, dict]]) -> None:
    for group, body in batch:
        # The group goes along: a socket that has just left it drops what was already
        # on its way (EventConsumer.notice).
        await layer.group_send(group, {"type": MESSAGE_TYPE, "notice": body, "group": group})
