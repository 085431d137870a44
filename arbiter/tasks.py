"""Project-wide tasks. ``ping`` lets health checks and tests prove a worker runs."""

import os
import socket

from celery import shared_task


@shared_task(name="arbiter.ping")
def ping() -> dict:
    """Answer with where it ran, so a caller can tell a worker from eager mode."""
    return {"pong": True, "pid": os.getpid(), "host": socket.gethostname()}
