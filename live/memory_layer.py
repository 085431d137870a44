"""The in-memory channel layer (the embedded default and venue mode: one server process),
with channels' clean-up of expired messages done at most once a second.

channels' own layer walks every channel and every group member on each receive and each
group send. Every socket receives after every notice, so with 2,000 sockets one notice
cost 2,000 walks of 4,000 entries, and a pairing's notices took 8 s to reach them all on
a 2-core machine (benchmarks/live_fanout.py). Expiry is a minute by default: noticing it
up to a second late changes nothing for anyone.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer

CLEAN_EVERY_SECONDS = 1.0


class InMemoryChannelLayer(ChannelsInMemoryLayer):
    _cleaned_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < CLEAN_EVERY_SECONDS:
            return
        self._cleaned_at = now
        super()._clean_expired()
