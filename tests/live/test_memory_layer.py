"""The in-memory layer (embedded default, venue mode) cleans expired messages at most once
a second: a notice to 2,000 sockets no longer costs 2,000 walks of every channel, and an
expired message is still dropped."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer

from live import memory_layer
from live.memory_layer import InMemoryChannelLayer


def on_its_own_loop(main):
    """``asyncio.run(main())`` on a thread of its own: a browser test earlier in this
    process may leave its event loop running on the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result(timeout=60)


def test_a_burst_of_sends_and_receives_walks_the_channels_once(monkeypatch):
    walks = []
    monkeypatch.setattr(ChannelsInMemoryLayer, "_clean_expired", lambda self: walks.append(1))
    layer = InMemoryChannelLayer()

    async def burst() -> int:
        names = [await layer.new_channel() for _ in range(200)]
        for name in names:
            await layer.group_add("event.1.public", name)
        await layer.group_send("event.1.public", {"type": "notice", "notice": {}})
        got = [await layer.receive(name) for name in names]
        return len(got)

    assert on_its_own_loop(burst) == 200
    assert len(walks) == 1


def test_an_expired_message_is_still_dropped_once_a_second_has_passed():
    layer = InMemoryChannelLayer(expiry=0)

    async def run() -> tuple[bool, bool]:
        await layer.send("late.channel", {"type": "notice"})
        await layer.group_add("event.1.public", "late.channel")
        time.sleep(0.01)  # past the message's expiry (0 s)
        layer._clean_expired()  # within the second: not walked yet
        kept = "late.channel" in layer.channels
        layer._cleaned_at -= memory_layer.CLEAN_EVERY_SECONDS  # a second later
        layer._clean_expired()
        return kept, "late.channel" in layer.channels

    layer._clean_expired()  # the first clean-up, as a server's first receive does
    assert on_its_own_loop(run) == (True, False)
    assert "late.channel" not in layer.groups.get("event.1.public", {})
