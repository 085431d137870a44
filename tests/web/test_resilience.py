"""A dead cache is a miss, a dead database is a 503, and the Celery transport settings."""

import json
import socket
import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory

from arbiter import env
from web.cache import ResilientRedisCache
from web.middleware import DatabaseUnavailableMiddleware


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


def test_a_cache_whose_redis_is_down_misses_and_ignores_writes():
    cache = ResilientRedisCache(
        f"redis://127.0.0.1:{closed_port()}/1",
        {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}},
    )
    started = time.monotonic()
    assert cache.get("k", "default") == "default"
    assert cache.set("k", 1) is None and cache.add("k", 1) is False
    assert cache.get_many(["a", "b"]) == {} and cache.has_key("k") is False
    assert cache.get_or_set("k", 42) == 42
    assert cache.delete("k") is False and cache.set_many({"a": 1}) == ["a"]
    with pytest.raises(ValueError, match="not found"):
        cache.incr("counter")
    assert "ConnectionError" in cache.last_error
    assert time.monotonic() - started < 10


def middleware_answer(path: str, exc: Exception, accept: str = "text/html"):
    request = RequestFactory().get(path, HTTP_ACCEPT=accept)
    middleware = DatabaseUnavailableMiddleware(lambda r: None)
    return middleware.process_exception(request, exc)


def test_a_database_outage_is_a_503_page_with_retry_after():
    response = middleware_answer("/events/1/", OperationalError("connection refused"))
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "database is unavailable" in response.content.decode()


def test_a_database_outage_under_the_api_is_a_503_errors_body():
    response = middleware_answer("/api/v1/events/1/", InterfaceError("connection closed"))
    assert response.status_code == 503 and response["Retry-After"]
    (error,) = json.loads(response.content)["errors"]
    assert error["field"] is None and "database is unavailable" in error["message"]


def test_other_errors_are_left_to_the_500_handler():
    assert middleware_answer("/events/1/", ValueError("bug")) is None


def test_visibility_timeout_has_a_production_default_and_an_override():
    broker = {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}
    default = env.celery_config(broker)["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert default["visibility_timeout"] == env.DEFAULT_VISIBILITY_TIMEOUT >= 600
    short = env.celery_config({**broker, "CELERY_VISIBILITY_TIMEOUT": "15"})
    assert short["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"] == 15
    assert short["CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS"]["visibility_timeout"] == 15
    with pytest.raises(ImproperlyConfigured, match="CELERY_VISIBILITY_TIMEOUT"):
        env.celery_config({**broker, "CELERY_VISIBILITY_TIMEOUT": "soon"})
    with pytest.raises(ImproperlyConfigured, match="CELERY_VISIBILITY_TIMEOUT"):
        env.celery_config({**broker, "CELERY_VISIBILITY_TIMEOUT": "0"})


def test_postgres_connections_are_health_checked_and_time_out():
    config = env.database_config(
        {"DATABASE_URL": "postgres://u@db.example:5432/arbiter"}, Path(".")
    )
    assert config["CONN_HEALTH_CHECKS"] is True
    assert config["OPTIONS"]["connect_timeout"] == 5
