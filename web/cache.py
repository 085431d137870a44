"""A Redis cache that degrades instead of failing when Redis is down.

The cache only ever holds things that can be recomputed, so losing it must not take a
page down with it: Django's ``RedisCache`` raises ``redis.ConnectionError`` on a dead
server, which would turn every page that touches the cache into a 500. Here a failed
read is a miss and a failed write does nothing; each failure is logged (at most once
every ``LOG_EVERY_SECONDS`` per process, so an outage does not flood the log), and
``/healthz`` still reports the cache as down through :attr:`last_error`.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
LOG_EVERY_SECONDS = 30.0


def _degrade(fallback: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run the wrapped cache call; on a Redis failure answer ``fallback(*args, **kwargs)``."""

    def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def wrapper(self: ResilientRedisCache, *args: Any, **kwargs: Any) -> Any:
            try:
                result = method(self, *args, **kwargs)
            except (RedisError, OSError) as exc:
                self._failed(method.__name__, exc)
                return fallback(*args, **kwargs)
            self.last_error = None
            return result

        return wrapper

    return decorate


def _default(key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _empty(*args: Any, **kwargs: Any) -> dict:
    return {}


def _all_failed(data: dict, *args: Any, **kwargs: Any) -> list:
    return list(data)


def _incr_missing(key: Any, *args: Any, **kwargs: Any) -> int:
    # Django's contract for incr on a missing key; callers already handle it.
    raise ValueError(f"Key {key!r} not found (the cache is unavailable).")


class ResilientRedisCache(RedisCache):
    """``RedisCache`` whose failures are cache misses and no-op writes, logged."""

    last_error: str | None = None
    _last_logged: float = 0.0

    def _failed(self, operation: str, exc: Exception) -> None:
        self.last_error = f"{type(exc).__name__}: {exc}"
        now = time.monotonic()
        if now - self._last_logged >= LOG_EVERY_SECONDS:
            self._last_logged = now
            log.warning("cache %s failed, carrying on without the cache: %s", operation, exc)

    get = _degrade(_default)(RedisCache.get)
    get_many = _degrade(_empty)(RedisCache.get_many)
    has_key = _degrade(_false)(RedisCache.has_key)
    add = _degrade(_false)(RedisCache.add)
    set = _degrade(_nothing)(RedisCache.set)
    set_many = _degrade(_all_failed)(RedisCache.set_many)
    touch = _degrade(_false)(RedisCache.touch)
    delete = _degrade(_false)(RedisCache.delete)
    delete_many = _degrade(_nothing)(RedisCache.delete_many)
    incr = _degrade(_incr_missing)(RedisCache.incr)
    clear = _degrade(_false)(RedisCache.clear)
