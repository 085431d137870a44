"""Print jobs that lose their work recover by themselves, and small jobs have their queue.

In the production topology (gunicorn, real Celery workers and beat, a private Redis):

* the whole worker is killed while it renders a big print: the job stops making progress,
  the print page shows it stalled and sends it again, and it finishes as soon as a worker
  is back, well before the broker's visibility timeout would hand the dead worker's tasks
  out again; then Redis restarts without persistence while the next job renders (its
  queued messages and its chord's state are gone): beat's sweep sends it again;
* a small job (a round's pairings) finishes while a big one waits on the main queue.

The stall bound and the sweep are short here (3 s, every second); in production they
are 5 minutes and a minute (arbiter/env.py). The recovery times are printed (``-s``).
"""

from __future__ import annotations

import time

import pytest

from tests.integration.test_faults import (
    ORGANISER,
    ask_for_print,
    assert_complete_slips,
    job,
    latest_job,
    seed,
    wait_finished,
)
from tests.integration.topology import Topology, wait_until

pytestmark = pytest.mark.integration

STALL = 3
SWEEP = 1
# Long, so a job that finishes in the test was sent again by the sweep, not redelivered.
VISIBILITY_TIMEOUT = 300
# Within this a stalled job must be done again: the stall bound, a sweep, a new worker's
# start and rendering 25 pages, with room for a shared, busy CI machine (about 40 s at a
# load of 6 on 2 cores).
RECOVERY_BOUND = 120
SLOW = 240


def recovering_site(make_topology) -> Topology:
    site = make_topology()
    site.extra_env.update(
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        PRINT_JOB_STALL_SECONDS=str(STALL),
        PRINT_JOB_SWEEP_SECONDS=str(SWEEP),
        PRINT_SMALL_JOB_PAGES="5",  # 100 tables of slips (25 pages) use the main queue
    )
    return site


def attempt(site: Topology, job_id: int) -> tuple[int, str, str]:
    return site.sql("SELECT attempt, queue, note FROM printing_printjob WHERE id = %s", job_id)[0]


def wait_running(site: Topology, event: int) -> dict:
    return wait_until(
        lambda: (row := latest_job(site, event)) and row["status"] == "running" and row,
        SLOW,
        "the worker to start rendering slips",
        interval=0.1,
    )


def test_print_jobs_that_lost_their_work_show_stalled_and_finish_soon_after(make_topology):
    site = recovering_site(make_topology)
    seeded = seed(site, 200)  # 100 tables: three chunks of up to 40 slips
    event = seeded["event"]
    site.start_web()
    worker = site.start_worker("worker", concurrency=2)
    site.start_beat()
    organiser = site.client().login(ORGANISER)

    # 1. The whole worker killed while it renders.
    ask_for_print(organiser, event)
    running = wait_running(site, event)
    worker.kill()  # the power cut: main process and pool, no clean-up
    killed_at = time.monotonic()
    job_id = running["id"]
    assert attempt(site, job_id)[:2] == (1, "arbiter")

    # No worker: the job is found stalled and sent again; its row and the page say so.
    def shown_stalled() -> str | None:
        text = organiser.get(f"/events/{event}/print/jobs/{job_id}/").text
        return text if "Stalled" in text else None

    row = wait_until(shown_stalled, 30, "the job row to say the job stalled", interval=0.5)
    stalled_after = time.monotonic() - killed_at
    assert "Download PDF" not in row and "hx-trigger" in row
    assert stalled_after >= STALL - 1
    assert attempt(site, job_id)[0] >= 2
    assert "Stalled" in organiser.get(f"/events/{event}/print/").text

    site.start_worker("worker2", concurrency=2)  # as systemd's Restart= brings it back
    wait_finished(site, job_id, timeout=SLOW)
    recovered = time.monotonic() - killed_at
    print(
        f"\nworker killed: shown stalled after {stalled_after:.1f} s, done {recovered:.1f} s "
        f"after the kill, a new worker's start included (stall bound {STALL} s, sweep {SWEEP} s)"
    )
    assert recovered < RECOVERY_BOUND < VISIBILITY_TIMEOUT
    assert_complete_slips(site, organiser, seeded, job_id)
    ask_for_print(organiser, event)  # asking again reuses the finished file, as before
    assert latest_job(site, event)["id"] == job_id

    # 2. Redis restarted without persistence while the next job renders: its queued
    # messages and its chord's state are gone. Beat's sweep alone sends it again.
    site.sql(
        "UPDATE tournaments_match SET extension_minutes = 3 WHERE id = %s RETURNING id",
        seeded["match"],
    )  # a judge's time extension: the slips change, a new job
    ask_for_print(organiser, event)
    second = wait_until(
        lambda: (r := latest_job(site, event)) and r["id"] != job_id
        and r["status"] == "running" and r,
        SLOW,
        "the second job to start rendering",
        interval=0.1,
    )["id"]  # fmt: skip
    site.redis.stop()
    site.redis.start()
    restarted_at = time.monotonic()
    assert job(site, second)["status"] == "running"
    wait_finished(site, second, timeout=SLOW)
    recovered = time.monotonic() - restarted_at
    print(f"Redis restarted: job done {recovered:.1f} s after (nobody watching its row)")
    assert attempt(site, second)[0] >= 2, "finished by a new attempt: the first was lost"
    assert recovered < RECOVERY_BOUND
    (site.media_root / job(site, job_id)["file"]).unlink()  # the first job's PDF
    assert_complete_slips(site, organiser, seeded, second)


def test_a_small_job_finishes_while_a_big_one_waits_on_the_main_queue(make_topology):
    site = make_topology()
    site.extra_env["PRINT_SMALL_JOB_PAGES"] = "2"  # slips: 5 pages (big); pairings: 1
    seeded = seed(site, 40)
    event = seeded["event"]
    site.start_web()
    # Only deploy's small worker runs: whatever waits on the main queue, small jobs go.
    site.start_worker("worker-small", concurrency=1, queues="arbiter-small")
    organiser = site.client().login(ORGANISER)

    ask_for_print(organiser, event, "match_slips")
    big = latest_job(site, event)["id"]
    ask_for_print(organiser, event, "pairings_by_table")
    small = latest_job(site, event)["id"]
    assert attempt(site, big)[1] == "arbiter" and attempt(site, small)[1] == "arbiter-small"

    wait_finished(site, small, timeout=SLOW)
    assert job(site, big)["status"] == "queued" and job(site, big)["done_chunks"] == 0
    row = organiser.get(f"/events/{event}/print/jobs/{small}/").text
    assert "Download PDF" in row

    site.start_worker("worker", concurrency=2)  # takes both queues, the big job too
    wait_finished(site, big, timeout=SLOW)
    assert_complete_slips_without_others(site, organiser, seeded, big)


def assert_complete_slips_without_others(site, client, seeded, job_id) -> None:
    """As ``assert_complete_slips``, with the pairings' file also in the media folder."""
    pairings = {
        row[0]
        for row in site.sql(
            "SELECT file FROM printing_printjob WHERE event_id = %s AND id <> %s",
            seeded["event"],
            job_id,
        )
    }
    for name in pairings:
        (site.media_root / name).unlink()
    assert_complete_slips(site, client, seeded, job_id)
