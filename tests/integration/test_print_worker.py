"""A print job rendered by a real ``celery worker`` process with Redis as the broker."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from arbiter.celery import app
from printing import jobs
from printing.models import PrintJob
from tests.conftest import make_event, make_user
from tests.waiting import wait_until
from tournaments.rounds import services as rounds

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER or connection.vendor != "postgresql",
        reason="needs PostgreSQL and a Redis broker (scripts/test's second pass)",
    ),
]


@pytest.fixture
def worker(tmp_path, settings):
    """A worker on a queue of its own, sharing the test database and media folder.

    The queue is the default queue of both sides (CELERY_QUEUE), and the worker takes the
    small queue too, as deploy/ runs every worker: a round's slips go there.
    """
    queue = f"arbiter-print-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    settings.PRINT_SMALL_QUEUE = f"{queue}-small"
    settings.MEDIA_ROOT = tmp_path
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "MEDIA_ROOT": str(tmp_path),
        "CELERY_QUEUE": queue,
    }
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
            f"{queue}-small,{queue}",
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield process
    app.conf.task_default_queue = previous
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def test_slips_are_printed_by_a_worker_process(worker):
    organiser = make_user("olive")
    event = make_event(organiser, 16)
    rounds.pair_next_round(event, organiser)
    job, _ = jobs.request_print(event, "match_slips", 1, organiser)

    def finished() -> bool:
        assert worker.poll() is None, f"the worker exited:\n{worker.stdout.read()}"
        job.refresh_from_db()
        return not job.is_active

    wait_until(finished, 120, lambda: f"print job {job.pk} to finish ({job.status})", 0.5)
    assert job.status == PrintJob.Status.DONE, job.error or job.note
    assert job.pages == 2 and job.file.name.endswith(".pdf")
    assert Path(settings.MEDIA_ROOT, job.file.name).read_bytes().startswith(b"%PDF")
