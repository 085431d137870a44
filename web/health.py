"""Reachability of the parts a request or a job needs: database, cache, broker."""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection

BROKER_TIMEOUT_SECONDS = 2.0


def check_database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True, "vendor": connection.vendor}


def check_cache() -> dict[str, Any]:
    key = f"healthz:{uuid.uuid4().hex}"
    cache.set(key, "1", 5)
    ok = cache.get(key) == "1"
    cache.delete(key)
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    if not ok:  # web.cache turns Redis errors into misses; say which one it met
        return {"ok": False, "backend": backend, "error": getattr(cache, "last_error", None)}
    return {"ok": ok, "backend": backend}


def check_broker() -> dict[str, Any]:
    """Eager mode needs no broker; otherwise open a real connection to it."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    from arbiter.celery import app

    with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(
            max_retries=1, interval_start=0, interval_step=0.1, timeout=BROKER_TIMEOUT_SECONDS
        )
    return {"ok": True, "mode": "broker"}


CHECKS = {"database": check_database, "cache": check_cache, "broker": check_broker}


def run_checks() -> tuple[bool, dict[str, Any]]:
    """Every check, each timed; a check that raises is reported as down with why."""
    report: dict[str, Any] = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            result = check()
        except Exception as exc:  # any failure of a dependency means "down", never a 500
            result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        result["ms"] = round((time.perf_counter() - started) * 1000, 1)
        report[name] = result
    return all(part["ok"] for part in report.values()), report
