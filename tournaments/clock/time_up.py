"""Tables out of time: found by a look every few seconds, each told once.

The moment a table's time runs out is no one's action, so something must look: Celery
beat (``tournaments.tasks``) in production, and in venue mode a thread of the one server
process (its in-memory channel layer reaches only its own sockets). Each table found is
announced with ``signals.time_ran_out``; the judges' queue hears it from ``live``.
"""

from __future__ import annotations

import datetime
import logging
import os
import threading

from django.core.cache import cache
from django.db import close_old_connections
from django.utils import timezone

from tournaments import signals
from tournaments.models import Event, Match, Round

logger = logging.getLogger(__name__)

ENV_FLAG = "ARBITER_TIME_UP_CLOCK"  # set by manage.py venue for its server process only
INTERVAL_SECONDS = 10.0  # as often as beat's "live-time-up"
TIME_UP_KEPT = 24 * 60 * 60  # how long the cache remembers a table's time was told


def tell_time_up(now: datetime.datetime | None = None) -> int:
    """Announce each table still playing whose time (with its extension) is up.

    Once per table and end of time: a later extension gives the table a new end, told
    again when it comes. Returns how many tables it told of.
    """
    now = now or timezone.now()
    running = Round.objects.filter(
        status=Round.Status.RUNNING, started_at__isnull=False, event__status=Event.Status.RUNNING
    ).select_related("event")
    told = 0
    for round_ in running:
        if round_.ends_at > now:
            continue
        pending = round_.matches.filter(is_bye=False, status=Match.Status.PENDING)
        for match in pending.only("pk", "table", "extension_minutes"):
            time_up = round_.ends_at + datetime.timedelta(minutes=match.extension_minutes)
            if time_up > now:
                continue
            if cache.add(f"live:time-up:{match.pk}:{time_up.isoformat()}", 1, TIME_UP_KEPT):
                signals.send_now(
                    signals.time_ran_out,
                    Match,
                    event_id=round_.event_id,
                    round_number=round_.number,
                    table=match.table,
                )
                told += 1
    return told


def check_once() -> int:
    """One look for tables out of time; a failure is logged and the next tick tries again."""
    try:
        return tell_time_up()
    except Exception:
        logger.exception("time-up check failed; trying again in %s s", INTERVAL_SECONDS)
        return 0
    finally:
        close_old_connections()


def run(stop: threading.Event, interval: float = INTERVAL_SECONDS) -> None:
    while not stop.wait(interval):
        check_once()


def start_if_asked(environ=os.environ) -> threading.Event | None:
    """Start the clock thread when this process is the venue's server; its stop switch."""
    if environ.get(ENV_FLAG) != "1":
        return None
    stop = threading.Event()
    threading.Thread(target=run, args=(stop,), name="time-up-clock", daemon=True).start()
    return stop
