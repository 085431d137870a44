"""The socket at /ws/events/<event_id>/: joins the caller's groups, relays notices."""

from __future__ import annotations

import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from live.audience import Refused, groups_for

logger = logging.getLogger(__name__)

REFUSED = 4403  # live-updates.md: a draft, or an event the caller may not see
UNAVAILABLE = 1011  # the channel layer (Redis) cannot be reached: the page polls instead


class EventConsumer(AsyncWebsocketConsumer):
    groups: list[str]

    async def connect(self) -> None:
        self.joined: list[str] = []
        event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        if self.scope.get("token_refused"):
            return await self._refuse(REFUSED)
        try:
            wanted = await database_sync_to_async(groups_for)(self.scope.get("user"), event_id)
        except Refused:
            return await self._refuse(REFUSED)
        try:
            for group in wanted:
                await self.channel_layer.group_add(group, self.channel_name)
                self.joined.append(group)
        except Exception:  # the layer is down: say so, the page falls back to polling
            logger.warning("live socket for event %s refused: channel layer unavailable", event_id)
            await self._leave()
            return await self._refuse(UNAVAILABLE)
        await self.accept()

    async def _refuse(self, code: int) -> None:
        # Accept, then close with the code: a refused handshake carries no code a
        # browser can read.
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        for group in self.joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:
                logger.info("live socket left %s without the channel layer", group)
        self.joined = []

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
        await self.send(text_data=json.dumps(message["notice"]))
