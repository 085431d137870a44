"""Match slips of a 2,000-player round (1,000 slips) from click to downloadable PDF.

Run (Redis on 127.0.0.1:6379 needed):
    .venv/bin/python benchmarks/print_slips.py [--players 2000] [--workers 2] [--world-names]

Builds a throw-away SQLite database and media folder, pairs round 1, starts N real
``celery worker`` processes (one process each, Redis as broker), waits until they
answer, then times ``request_print`` (what the organiser's button calls) until the
job is done and its file is on disk. Target: under 15 s with two workers.
``--world-names`` names the players in turn in Latin, Greek, Cyrillic, Japanese, Chinese,
Korean, Arabic, Hebrew, Thai, Devanagari and with emoji (every face print.css names, and
the emoji font's bitmaps), to see what names from all over the world cost.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--world-names", action="store_true")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-print-bench-"))
    queue = f"bench-{uuid.uuid4().hex[:6]}"
    os.environ.update(
        DATABASE_URL=f"sqlite:///{workdir}/bench.sqlite3",
        MEDIA_ROOT=str(workdir / "media"),
        CELERY_BROKER_URL=f"{args.redis}/0",
        CELERY_QUEUE=queue,
        DJANGO_SETTINGS_MODULE="arbiter.settings",
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from arbiter.celery import app

    call_command("migrate", verbosity=0)
    event = build_round(args.players)
    if args.world_names:
        name_in_every_script(event)
    workers = [start_worker(queue, i) for i in range(args.workers)]
    try:
        wait_for_workers(app, args.workers)
        seconds, job = time_print(event)
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
    size = Path(job.file.path).stat().st_size / 1e6
    print(
        f"{job.total_chunks} parts, {job.pages} pages ({args.players // 2} slips, "
        f"{size:.1f} MB) with {args.workers} workers: {seconds:.2f} s (target < 15 s)"
    )
    return 0 if seconds < 15 else 1


def build_round(players: int):
    from arbiter import worlds

    world = worlds.build_event(
        players,
        accounts=False,  # names only: 2,000 accounts would be set-up time, not printing
        name="Print Benchmark",
        organiser="bench-organiser",
        judge=None,
    )
    return world.event


WORLD_NAMES = [
    "Ada Lovelace",
    "Αλέξανδρος",
    "Дмитрий",
    "山田太郎",
    "王秀英",
    "김민준",
    "محمد",
    "דוד",
    "สมชาย",
    "अर्जुन",
    "Zoë 🐉🎲",
]


def name_in_every_script(event) -> None:
    """Each player renamed to one of WORLD_NAMES in turn, numbered to keep names apart."""
    players = list(event.registrations.order_by("pk"))
    for i, player in enumerate(players):
        player.name = f"{WORLD_NAMES[i % len(WORLD_NAMES)]} {i + 1}"
    type(players[0]).objects.bulk_update(players, ["name"])


def _user(name: str):
    from django.contrib.auth.models import User

    return User.objects.get_or_create(username=name)[0]


def start_worker(queue: str, index: int) -> subprocess.Popen:
    return subprocess.Popen(
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
            f"{queue}-small,{queue}",  # as deploy/ runs every worker
            "--hostname",
            f"bench{index}@%h",
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
    )


def wait_for_workers(app, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        if len(replies) >= count:
            return
    raise SystemExit(f"only {len(replies)} of {count} workers answered")


def time_print(event):
    from printing import jobs

    started = time.perf_counter()
    job, _ = jobs.request_print(event, "match_slips", 1, _user("bench-organiser"))
    while True:
        job.refresh_from_db()
        if not job.is_active:
            break
        time.sleep(0.05)
    seconds = time.perf_counter() - started
    if job.status != job.Status.DONE:
        raise SystemExit(f"the job failed: {job.error}")
    return seconds, job


if __name__ == "__main__":
    raise SystemExit(main())
