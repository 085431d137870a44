"""How long a print job whose work was lost takes to finish anyway, with real workers.

Run (PostgreSQL on 127.0.0.1:5432 and redis-server installed):
    .venv/bin/python benchmarks/print_recovery.py [--players 200] [--repeat 1]
    .venv/bin/python benchmarks/print_recovery.py --stall 300 --sweep 60   # production bounds

Starts the production topology of ``tests/integration/topology.py`` (its own PostgreSQL
database and redis-server, gunicorn, a Celery worker on both queues, Celery beat) with
a short stall bound (``--stall``, default 3 s) and sweep (``--sweep``, default 1 s), and
the visibility timeout long (600 s), so only the sweep can bring the work back. Then, for
each fault, an organiser asks for the round's match slips over HTTP; once a worker is
rendering them:

* ``kill``: the worker is killed whole (SIGKILL to every process) and a new one started
  at once, as systemd's ``Restart=`` or Docker's restart policy would;
* ``redis``: the redis-server restarts without persistence (queue and chord state gone);
* ``lost``: the queue's keys are deleted in Redis (messages lost, server still up).

Timed: from the fault until the job is done (its PDF joined). ``clean`` is the same
print with no fault, for comparison. Nobody polls the job's row: only beat's sweep finds
the stall. Exits 1 if a job does not finish within ``--limit`` seconds (60).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.integration.test_faults import (  # noqa: E402 (needs ROOT on the path)
    ORGANISER,
    ask_for_print,
    job,
    latest_job,
    seed,
)
from tests.integration.topology import (  # noqa: E402
    Topology,
    throwaway_topology,
    wait_until,
)

FAULTS = ("clean", "kill", "redis", "lost")
VISIBILITY_TIMEOUT = 600


def own_topology(stall: int, sweep: int):
    """A throw-away site whose only way back for lost work is the stalled-job sweep."""
    return throwaway_topology(
        "arbiter-recovery-",
        {
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "PRINT_JOB_STALL_SECONDS": str(stall),
            "PRINT_JOB_SWEEP_SECONDS": str(sweep),
            "PRINT_SMALL_JOB_PAGES": "5",  # the slips use the main queue, as a big job does
        },
    )


def new_slips(site: Topology, seeded: dict, client, minutes: int) -> int:
    """Ask for the slips after a change (a time extension), so a new job renders."""
    site.sql(
        "UPDATE tournaments_match SET extension_minutes = %s WHERE id = %s RETURNING id",
        minutes,
        seeded["match"],
    )
    before = (latest_job(site, seeded["event"]) or {}).get("id")
    ask_for_print(client, seeded["event"])
    return wait_until(
        lambda: (r := latest_job(site, seeded["event"])) and r["id"] != before
        and r["status"] == "running" and r["id"],
        240,
        "a worker to start rendering the slips",
        interval=0.05,
    )  # fmt: skip


def lose_messages(site: Topology) -> None:
    """Delete the queues and the unacknowledged messages: the work is gone, Redis is up."""
    import redis

    broker = redis.Redis(port=site.redis.port, db=0)
    broker.delete("arbiter", "arbiter-small", "unacked", "unacked_index")


def run_fault(site: Topology, seeded: dict, client, fault: str, minutes: int, limit: float) -> dict:
    job_id = new_slips(site, seeded, client, minutes)
    started = time.monotonic()
    worker_start = None
    if fault == "kill":
        for name, process in list(site.processes.items()):
            if name.startswith("worker") and process.alive:
                process.kill()
        # A new name: its own log, so "ready" is this worker's, not the dead one's.
        site.start_worker(f"worker{minutes}", concurrency=2)
        worker_start = time.monotonic() - started
    elif fault == "redis":
        site.redis.stop()
        site.redis.start()
    elif fault == "lost":
        lose_messages(site)
    row = wait_until(
        lambda: (r := job(site, job_id))["status"] in ("done", "failed") and r,
        limit + 60,
        f"job {job_id} to finish",
        interval=0.1,
    )
    seconds = time.monotonic() - started
    attempt = site.sql("SELECT attempt FROM printing_printjob WHERE id = %s", job_id)[0][0]
    return {
        "fault": fault,
        "seconds": seconds,
        "status": row["status"],
        "attempt": attempt,
        "worker_start": worker_start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--stall", type=int, default=3, help="PRINT_JOB_STALL_SECONDS")
    parser.add_argument("--sweep", type=int, default=1, help="PRINT_JOB_SWEEP_SECONDS")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--limit", type=float, default=60.0)
    args = parser.parse_args(argv)
    faults = args.faults.split(",")
    results = []
    with own_topology(args.stall, args.sweep) as site:
        seeded = seed(site, args.players)
        site.start_web(workers=1, threads=2)
        site.start_worker("worker", concurrency=2)
        site.start_beat()
        client = site.client().login(ORGANISER)
        minutes = 0
        for _ in range(args.repeat):
            for fault in faults:
                minutes += 1
                results.append(run_fault(site, seeded, client, fault, minutes, args.limit))
                result = results[-1]
                started = result["worker_start"]
                print(
                    f"{fault:6} {result['seconds']:6.1f} s  {result['status']}, attempt "
                    f"{result['attempt']}"
                    + (f" (the new worker took {started:.1f} s to start)" if started else ""),
                    flush=True,
                )
    load = os.getloadavg()[0]
    print(
        f"{args.players // 2} slips, stall bound {args.stall} s, sweep every {args.sweep} s, "
        f"visibility timeout {VISIBILITY_TIMEOUT} s, load average {load:.1f}"
    )
    failed = [r for r in results if r["status"] != "done" or r["seconds"] > args.limit]
    print("PASS" if not failed else f"FAILED: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
