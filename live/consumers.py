"""The socket at /ws/events/<event_id>/: joins the caller's groups, relays notices, and
checks the caller's rights again whenever a change may have altered them (live/access.py).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError
from redis.exceptions import RedisError

from live import access
from live.audience import Refused, groups_for
from live.auth import Credential, credential_of

logger = logging.getLogger(__name__)

REFUSED = 4403  # live-updates.md: a draft, or an event the caller may not see
UNAVAILABLE = 1011  # Redis (or the database) cannot be reached: the page polls instead
# What a channel layer that cannot reach Redis raises (connection refused, reset, timeout).
LAYER_DOWN = (RedisError, OSError)


class LayerDown(Exception):
    """The channel layer could not be reached while joining or leaving a group."""


class EventConsumer(AsyncWebsocketConsumer):
    event_id: int
    credential: Credential
    joined: list[str]
    handshaken = False  # the client's handshake was read (connect ran)
    accepted = False
    closing = False

    async def __call__(self, scope, receive, send) -> None:
        """channels' consumer; a channel layer it cannot reach (Redis down) closes the
        socket with 1011 and one warning line, never an HTTP 500 with a traceback."""
        self.joined = []
        try:
            await super().__call__(scope, receive, send)
        except LAYER_DOWN:
            await self._layer_lost(scope, receive, send)

    async def _layer_lost(self, scope, receive, send) -> None:
        event_id = scope["url_route"]["kwargs"]["event_id"]
        logger.warning("live socket for event %s closed: channel layer unavailable", event_id)
        with contextlib.suppress(Exception):  # the client may be gone already
            if not self.handshaken:  # the layer failed before the handshake was read
                await receive()
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": UNAVAILABLE})

    async def connect(self) -> None:
        self.handshaken = True
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        if self.scope.get("token_refused"):
            return await self._refuse(REFUSED)
        self.credential = await database_sync_to_async(credential_of)(self.scope)
        if await self._settle(self._opening_user):
            await self.accept()

    async def access_check(self, message: dict) -> None:
        """A change may have altered what this caller may hear: check as on opening."""
        if self.closing or message.get("event") not in (None, self.event_id):
            return
        await self._settle(self._user_now)

    async def _opening_user(self):
        # Listen for changes first: one made while the groups are worked out is heard.
        await self._join(self._access_groups())
        return self.scope.get("user")

    async def _user_now(self):
        user = await self.credential.user_now()
        if self.credential.user_id is not None and user is None:
            raise Refused("logged out, or the token or the account is gone")
        return user

    async def _settle(self, caller: Callable[[], Awaitable[Any]]) -> bool:
        """Be in exactly the groups the caller (``caller()``) may hear now; False when
        refused (the socket is closed)."""
        try:
            user = await caller()
            wanted = await database_sync_to_async(groups_for)(user, self.event_id)
            await self._become([*self._access_groups(), *wanted])
        except Refused:
            await self._refuse(REFUSED)
            return False
        except (LayerDown, DatabaseError):  # rights that cannot be checked are not kept
            logger.warning(
                "live socket for event %s closed: channel layer or database unavailable",
                self.event_id,
            )
            await self._refuse(UNAVAILABLE)
            return False
        return True

    def _access_groups(self) -> list[str]:
        groups = [access.event_group(self.event_id)]
        if self.credential.user_id is not None:
            groups.append(access.user_group(self.credential.user_id))
        return groups

    async def _become(self, groups: list[str]) -> None:
        """Leave what is not in ``groups`` first (nothing more is heard there), then join."""
        await self._leave([group for group in self.joined if group not in groups])
        await self._join([group for group in groups if group not in self.joined])

    async def _join(self, groups: list[str]) -> None:
        for group in groups:
            try:
                await self.channel_layer.group_add(group, self.channel_name)
            except LAYER_DOWN as down:
                raise LayerDown(group) from down
            self.joined.append(group)

    async def _leave(self, groups: list[str] | None = None) -> None:
        for group in list(self.joined if groups is None else groups):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:
                logger.info("live socket left %s without the channel layer", group)
            self.joined.remove(group)

    async def _refuse(self, code: int) -> None:
        """Leave every group (a refused socket hears nothing more), then close with the
        code; on opening, accept first: a refused handshake carries no code a browser reads."""
        self.closing = True
        await self._leave()
        if not self.accepted:
            await self.accept()
        await self.close(code=code)

    async def accept(self, subprotocol=None, headers=None) -> None:
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def disconnect(self, code: int) -> None:
        self.closing = True
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """Clients need send nothing; a "ping" is answered, anything else ignored."""
        try:
            message = json.loads(text_data or "")
        except ValueError:
            logger.info("live socket: ignored a frame that is not JSON")
            return
        if isinstance(message, dict) and message.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))

    async def notice(self, message: dict) -> None:
        """Relay a notice, unless it came to a group this socket has left since it was
        sent (its rights were checked again while it was on its way)."""
        group = message.get("group")
        if self.closing or (group is not None and group not in self.joined):
            return
        await self.send(text_data=json.dumps(message["notice"]))
