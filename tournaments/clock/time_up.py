"""Tables out of time, told without Celery beat: in venue mode one server process does
everything, and its in-memory channel layer reaches only its own sockets, so the check
(``live.announce_time_up``) runs on a thread of that process."""

from __future__ import annotations

import logging
import os
import threading

from django.db import close_old_connections

logger = logging.getLogger(__name__)

ENV_FLAG = "ARBITER_TIME_UP_CLOCK"  # set by manage.py venue for its server process only
INTERVAL_SECONDS = 10.0  # as often as beat's "live-time-up"


def check_once() -> int:
    """One look for tables out of time; a failure is logged and the next tick tries again."""
    from tournaments import live

    try:
        return live.announce_time_up()
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
