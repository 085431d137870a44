"""The production connection pool answers a database that refuses connections promptly.

No server is needed: a loopback port nothing listens on refuses at once, as a stopped
PostgreSQL does. The restart itself (a real server going and coming back) is
tests/integration/test_pool_restart.py.
"""

from __future__ import annotations

import itertools
import socket
import threading
import time
from pathlib import Path

import psycopg
import pytest
from django.db import OperationalError
from django.db.backends.postgresql.base import DatabaseWrapper as DjangoWrapper
from django.db.utils import ConnectionHandler
from psycopg_pool import PoolTimeout

from arbiter import env
from arbiter.postgresql.base import DatabaseWrapper
from arbiter.postgresql.pool import RETRY_SECONDS, PromptPool
from web.middleware import DatabaseUnavailableMiddleware


def refusing_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


class CountedConnection(psycopg.Connection):
    """Counts the pool's connection attempts (all refused here)."""

    attempts: list[float] = []
    lock = threading.Lock()

    @classmethod
    def connect(cls, *args, **kwargs):
        with cls.lock:
            cls.attempts.append(time.monotonic())
        return super().connect(*args, **kwargs)


def refused_pool(**options) -> PromptPool:
    kwargs = {"host": "127.0.0.1", "port": refusing_port(), "dbname": "x", "user": "x"}
    return PromptPool(kwargs={**kwargs, "connect_timeout": 5}, open=True, **options)


def test_a_request_waiting_for_a_connection_hears_the_refusal_at_once():
    """psycopg_pool alone waited the whole timeout (10 s here) and then said only that."""
    pool = refused_pool(min_size=1, max_size=2, timeout=10)
    try:
        started = time.monotonic()
        with pytest.raises(psycopg.OperationalError, match="Connection refused") as raised:
            pool.getconn()
        assert time.monotonic() - started < RETRY_SECONDS + 1
        assert not isinstance(raised.value, PoolTimeout)
    finally:
        pool.close()


def test_a_refused_connection_is_tried_again_every_second():
    """psycopg_pool alone tried again after 1, 2, 4, 8... s: 3 tries in the first 4.5 s."""
    CountedConnection.attempts = []
    pool = refused_pool(min_size=1, max_size=1, connection_class=CountedConnection)
    try:
        time.sleep(4.5)
    finally:
        pool.close()
    tries = CountedConnection.attempts
    gaps = [later - earlier for earlier, later in itertools.pairwise(tries)]
    assert len(tries) >= 4, gaps
    assert max(gaps) < RETRY_SECONDS + 0.5, gaps


def pooled_settings(**overrides) -> dict:
    config = env.database_config(
        {"DATABASE_URL": f"postgres://x@127.0.0.1:{refusing_port()}/x"}, Path("."), debug=False
    )
    # The keys Django's connection handler fills in for a DATABASES entry.
    return ConnectionHandler({"default": {**config, **overrides}}).settings["default"]


def test_the_backend_lends_from_the_prompt_pool_with_django_s_health_check():
    wrapper = DatabaseWrapper(pooled_settings(), alias="prompt-pool-test")
    try:
        pool = wrapper.pool
        assert isinstance(pool, PromptPool) and not pool._opened  # opened by first use
        assert pool._lend_check == PromptPool.check_connection
        assert (pool.min_size, pool.max_size, pool.timeout) == (0, 2, 5)
        assert wrapper.pool is pool  # one per alias, as Django keeps it
        no_checks = DatabaseWrapper(pooled_settings(CONN_HEALTH_CHECKS=False), alias="prompt-2")
        assert no_checks.pool._lend_check is None
        no_checks.close_pool()
    finally:
        wrapper.close_pool()
    assert "prompt-pool-test" not in DjangoWrapper._connection_pools


def test_a_pool_timeout_or_refusal_through_django_is_the_database_unavailable_503():
    """Django wraps the pool's errors (PoolTimeout is a psycopg OperationalError) as its
    own OperationalError, which the middleware answers with the 503."""
    from django.test import RequestFactory

    wrapper = DatabaseWrapper(pooled_settings(), alias="prompt-pool-503")
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    try:
        for error in (PoolTimeout("couldn't get a connection after 5.00 sec"), None):
            with pytest.raises(OperationalError) as raised:
                if error is not None:
                    with wrapper.wrap_database_errors:
                        raise error
                else:  # the refused server, through the pool, as ensure_connection does
                    with wrapper.wrap_database_errors:
                        wrapper.connect()
            request = RequestFactory().get("/events/1/")
            answer = middleware.process_exception(request, raised.value)
            assert answer.status_code == 503
            assert "database is unavailable" in answer.content.decode()
    finally:
        wrapper.close_pool()
