"""gunicorn's worker class for Arbiter: uvicorn serving ``arbiter.asgi`` (HTTP and WebSockets).

gunicorn keeps what it did under WSGI (worker processes, restarts, HUP reloads, timeouts,
logging, deploy/gunicorn.conf.py); each worker runs uvicorn's event loop, which holds
every live socket of that process while Django's sync views run on threads.

Two things differ from uvicorn's own worker, on purpose:

* **At most ``threads`` requests inside Django at once per process** (``GUNICORN_THREADS``).
  Under ASGI each request runs its sync view on a thread of its own with its own database
  connection, and uvicorn accepts every connection: 512 players reporting at once opened
  hundreds of PostgreSQL connections and met ``max_connections`` ("too many clients": a
  503). The bound makes the rest wait their turn, as gthread's queue did, so PostgreSQL sees
  at most ``WEB_CONCURRENCY x GUNICORN_THREADS`` web connections (plus one per process for
  the sockets' own look-ups), whatever the load. WebSockets are not counted: they hold no
  thread while open.
* **The client's address is Django's business** (``TRUSTED_PROXIES``, read from the right).
  uvicorn's own proxy-header handling is off: with ``*`` it would take the leftmost
  ``X-Forwarded-For`` entry, which the client writes. HTTPS is still recognised from the
  proxy's ``X-Forwarded-Proto`` by Django (``SECURE_PROXY_SSL_HEADER``).

* **A stopping worker drops no request** (``DrainingH11Protocol``). gunicorn stops a worker
  when it has served ``max_requests`` and on every rolling restart; uvicorn then closed
  each idle kept-alive connection at once, and a request already on its way down one got
  no answer at all. Now every answer from a stopping worker says ``Connection: close``, and
  an idle connection stays until its keep-alive timeout: whatever reaches it is answered,
  and the client's next request opens a connection to a worker that is staying. It keeps
  telling gunicorn it is alive while it drains (``ArbiterWorker._heartbeat``), so gunicorn
  does not kill it before ``graceful_timeout``.

Also: no lifespan protocol (Django has none), no per-message compression (notices are a
few dozen bytes, and compressing each of them for thousands of sockets costs the CPU the
fan-out needs), and stopping workers get ``graceful_timeout`` to finish, as before.
"""

from __future__ import annotations

import asyncio
import signal
import warnings
from typing import Any

with warnings.catch_warnings():
    # uvicorn moved its gunicorn worker to a separate package and warns on import; the
    # class is unchanged and this subclass is the only user.
    warnings.simplefilter("ignore", DeprecationWarning)
    from uvicorn.workers import UvicornWorker
from uvicorn.protocols.http.h11_impl import H11Protocol

# Largest frame a client may send; clients send at most a {"type": "ping"}.
WS_MAX_BYTES = 64 * 1024


class BoundedHTTP:
    """An ASGI wrapper letting at most ``limit`` HTTP requests into ``app`` at once."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit
        self._slots: asyncio.Semaphore | None = None

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if self._slots is None:  # made in the worker's own event loop
            self._slots = asyncio.Semaphore(self.limit)
        async with self._slots:
            await self.app(scope, receive, send)


CLOSE = (b"connection", b"close")
_quick = False  # gunicorn asked for its quick shutdown: idle connections are not waited for


def _stop_quickly() -> None:
    global _quick
    _quick = True
    signal.raise_signal(signal.SIGTERM)


class DrainingH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, drained rather than cut when the worker stops."""

    def shutdown(self) -> None:
        """Called on each open connection when the worker starts to stop."""
        if _quick:
            return super().shutdown()
        closing = self.server_state.default_headers
        if CLOSE not in closing:
            closing.append(CLOSE)  # every answer from here on closes its connection
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.keep_alive = False
            if not cycle.response_started and CLOSE not in cycle.default_headers:
                cycle.default_headers = [*cycle.default_headers, CLOSE]
            return
        if self.timeout_keep_alive_task is None and not self.transport.is_closing():
            # a connection that has sent nothing yet: it gets the keep-alive time too
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )


class ArbiterWorker(UvicornWorker):
    """uvicorn under gunicorn with the settings above (see the module docstring)."""

    CONFIG_KWARGS = {
        "loop": "auto",
        "http": DrainingH11Protocol,
        "ws": "auto",
        "lifespan": "off",
        "proxy_headers": False,
        "ws_per_message_deflate": False,
        "ws_max_size": WS_MAX_BYTES,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout

    async def _serve(self) -> None:
        """uvicorn's server, with the heartbeat below beside it for as long as it runs."""
        beating = asyncio.get_running_loop().create_task(self._heartbeat())
        try:
            await super()._serve()
        finally:
            beating.cancel()

    async def _heartbeat(self) -> None:
        """Tell gunicorn once a second that this worker's event loop runs, draining included.

        gunicorn kills a worker it has not heard from for ``timeout`` seconds. uvicorn spoke
        only from its serving loop, which ends when the worker starts to stop, so a worker
        still answering its queued requests after ``max_requests`` (or a restart) was killed
        (WORKER TIMEOUT) 15 to 30 s after its last word, well within ``graceful_timeout``,
        and every request it held got no answer (84 in one run of benchmarks/
        hosted_weekend.py at 300 events). A blocked event loop still goes unheard and is
        killed, as before."""
        while True:
            self.notify()
            await asyncio.sleep(1)

    def _install_sigquit_handler(self) -> None:
        """gunicorn's quick shutdown (SIGQUIT to workers; SIGINT or SIGQUIT to gunicorn)
        stops uvicorn as SIGTERM does. uvicorn's own worker only marked itself as no longer
        alive, which its server never reads: the worker kept serving until gunicorn killed
        it, or forever once gunicorn itself had been killed."""
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGQUIT, _stop_quickly)

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = BoundedHTTP(self.wsgi, max(1, self.cfg.threads))
