"""The worker's bound on requests inside Django: PostgreSQL sees at most `threads` web
connections per process however many requests arrive at once; sockets are not held up."""

from __future__ import annotations

import asyncio

from arbiter.asgi_worker import BoundedHTTP


class CountingApp:
    """An ASGI app that records how many HTTP requests are inside it at once."""

    def __init__(self) -> None:
        self.inside = 0
        self.most = 0
        self.served: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.inside += 1
        self.most = max(self.most, self.inside)
        await asyncio.sleep(0.01)
        self.inside -= 1
        self.served.append(scope["type"])


def test_at_most_the_limit_of_requests_are_inside_at_once_and_all_are_served():
    app = CountingApp()
    bounded = BoundedHTTP(app, limit=3)

    async def main() -> None:
        await asyncio.gather(*(bounded({"type": "http"}, None, None) for _ in range(40)))

    asyncio.run(main())
    assert app.most == 3
    assert app.served == ["http"] * 40


def test_a_websocket_does_not_wait_for_a_request_slot():
    gate = asyncio.Event()
    opened: list[str] = []

    async def app(scope, receive, send) -> None:
        if scope["type"] == "http":
            await gate.wait()  # the only slot, held until the socket has opened
        opened.append(scope["type"])

    bounded = BoundedHTTP(app, limit=1)

    async def main() -> None:
        request = asyncio.create_task(bounded({"type": "http"}, None, None))
        await asyncio.sleep(0)
        await asyncio.wait_for(bounded({"type": "websocket"}, None, None), timeout=2)
        gate.set()
        await request

    asyncio.run(main())
    assert opened == ["websocket", "http"]
