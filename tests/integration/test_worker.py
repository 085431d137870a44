"""With a broker configured, a task sent from Django runs in a real ``celery worker``."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from arbiter.tasks import ping

ROOT = Path(__file__).resolve().parents[2]

needs_broker = pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER and not os.environ.get("ARBITER_REQUIRE_SERVICES"),
    reason="no CELERY_BROKER_URL: tasks run eagerly (scripts/test's second pass sets one)",
)


@pytest.fixture
def worker():
    """A real worker process on a queue of its own, stopped after the test."""
    assert not settings.CELERY_TASK_ALWAYS_EAGER, "ARBITER_REQUIRE_SERVICES set but no broker"
    queue = f"arbiter-test-{uuid.uuid4().hex[:8]}"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "arbiter",
            "worker",
            "--pool",
            "solo",
            "--queues",
            queue,
            "--concurrency",
            "1",
            "--loglevel",
            "INFO",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield process, queue
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.mark.integration
@needs_broker
def test_task_sent_from_django_runs_in_a_worker_process(worker):
    process, queue = worker
    started = time.monotonic()
    result = ping.apply_async(queue=queue)
    answer = result.get(timeout=60)
    assert answer["pong"] is True
    assert answer["pid"] == process.pid != os.getpid()
    assert time.monotonic() - started < 60
