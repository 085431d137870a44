"""psycopg's connection pool, answering a PostgreSQL restart as promptly as no pool does.

Without a pool a request opens its own connection: while PostgreSQL is down that fails at
once (refused; ``connect_timeout`` when unreachable) and the request is a 503; the first
request after the restart connects and succeeds. psycopg_pool 3.3 on its own does worse:

* a request waits the pool's whole ``timeout`` for a connection even though the attempt
  made for it failed at once: nothing tells the waiting requests;
* each dead idle connection found by the lending check costs the request a sleep (1 s,
  then 2 s…) before it tries the next, and after a restart every idle one is dead;
* a failed attempt is retried after 1, 2, 4, 8… s, and while a retry is pending the
  pool makes no other attempt, so after the database is back it can stay empty until
  the next retry: 503s for about as long again as the outage lasted.

``PromptPool`` changes those three and nothing else:

1. A failed connection attempt fails every request waiting for a connection with it.
2. A failed attempt is retried every ``RETRY_SECONDS`` at most: once PostgreSQL accepts
   connections again, the pool has one within about a second.
3. Lending checks the connection itself and, when it is dead, replaces it and takes the
   next one without sleeping.

It reaches into psycopg_pool's internals (``_connect``, ``_lock``, ``_waiting``,
``_putconn``, ``AddConnection``); tests/arbiter/test_prompt_pool.py and the restart in
tests/integration/test_pool_restart.py check each behaviour, so an upgrade that moves
them fails there rather than in production.
"""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.pool import AddConnection, MaintenanceTask

RETRY_SECONDS = 1.0


class PromptPool(ConnectionPool):
    """psycopg_pool's ``ConnectionPool`` with an outage answered promptly (module docstring)."""

    def __init__(
        self, *args: Any, check: Callable[[psycopg.Connection], None] | None = None, **kwargs: Any
    ) -> None:
        self._lend_check = check  # run by getconn below, not by the pool's sleeping loop
        super().__init__(*args, check=None, **kwargs)

    def getconn(self, timeout: float | None = None) -> psycopg.Connection:
        """A checked connection, waiting at most ``timeout`` (the pool's by default)."""
        allowed = self.timeout if timeout is None else timeout
        deadline = monotonic() + allowed
        while (remaining := deadline - monotonic()) > 0:
            conn = super().getconn(remaining)
            if self._lendable(conn):
                return conn
        raise PoolTimeout(f"couldn't get a connection after {allowed:.2f} sec")

    def _lendable(self, conn: psycopg.Connection) -> bool:
        if self._lend_check is None:
            return True
        try:
            self._lend_check(conn)
        except Exception:
            conn.close()  # so the pool discards it and opens a replacement
            self._putconn(conn, from_getconn=True)
            return False
        return True

    def _connect(self, timeout: float | None = None) -> psycopg.Connection:
        try:
            return super()._connect(timeout)
        except Exception as error:
            self._fail_waiting(error)
            raise

    def _fail_waiting(self, error: Exception) -> None:
        """The requests waiting for a connection hear that none could be made."""
        with self._lock:
            waiting = list(self._waiting)
            self._waiting.clear()
        for client in waiting:
            # One exception each: they are raised in different threads.
            client.fail(psycopg.OperationalError(f"cannot connect to the database: {error}"))

    def schedule_task(self, task: MaintenanceTask, delay: float) -> None:
        if isinstance(task, AddConnection):
            delay = min(delay, RETRY_SECONDS)
        super().schedule_task(task, delay)
