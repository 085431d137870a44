"""2,000 live sockets follow one event; the organiser pairs the round: how soon has every
socket heard the ``pairings`` notice (live-updates.md)?

Run (PostgreSQL on 127.0.0.1:5432 and redis-server installed, for the production stack):
    .venv/bin/python benchmarks/live_fanout.py [--stack production|venue|both]
        [--clients 2000] [--players 2000] [--load-processes 2] [--web-workers 3] [--json out.json]

Stacks:
  production  as deploy/ runs it: gunicorn with deploy/gunicorn.conf.py (uvicorn workers),
              channels-redis on a private redis-server, PostgreSQL
              (tests/integration/topology.py's throw-away deployment);
  venue       one ASGI process with the production settings on a SQLite file in WAL
              mode and the in-memory channel layer (daphne, as ``runserver`` serves).

Untimed set-up: accounts, an event with ``--players`` checked in, ``--clients`` anonymous
WebSockets on ``/ws/events/<id>/`` opened by ``--load-processes`` load processes (asyncio
and websockets; on this machine they share the 2 cores with the server). Sockets closed
before the pairing are counted, with their close codes.

Timed: the organiser pairs round 1 over the API. For each socket, the time from the
pairing's commit until it has the notice. The commit's time is the notice's own ``at``,
stamped by the server inside the pairing's transaction once the matches are written, a
few milliseconds before the commit: so the figures can only overstate the delay. (The
HTTP response is no measure of the commit: it leaves after the commit's notices have been
handed to the channel layer, so sockets often hear the notice before the organiser's
request returns; its time is printed too.) Prints p50/p99/max and how many sockets got
the notice; exits 1 unless every socket got it within ``--goal`` seconds (2).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.integration.topology import (  # noqa: E402 (needs ROOT on the path)
    Process,
    Topology,
    free_port,
    run_manage,
    throwaway_topology,
    wait_until,
)

CONNECT_AT_ONCE = 64  # handshakes in flight per load process while the sockets open
SETTLE_SECONDS = 2.0  # quiet time between the last socket opening and the pairing
COLLECT_SECONDS = 20.0  # how long after the pairing a socket may still hear it


# -- the load processes --------------------------------------------------------------------


async def _follow(url: str, clients: int, conn) -> None:
    """Open ``clients`` sockets, say so, then note when each hears ``pairings``."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    opened, failed = 0, Counter()
    heard: list[tuple[float, str]] = []
    first: list[tuple[float, str, str]] = []  # (when, at, type) of each socket's first notice
    closed_before, closed_after = Counter(), Counter()
    paired = asyncio.Event()
    stop = asyncio.Event()
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def one() -> None:
        nonlocal opened
        try:
            async with gate:
                socket = await connect(
                    url, open_timeout=120, ping_interval=None, compression=None, max_queue=None
                )
        except Exception as exc:  # counted by kind, reported
            failed[type(exc).__name__] += 1
            return
        opened += 1
        since = time.monotonic()
        got_first = False
        try:
            while True:
                recv = asyncio.ensure_future(socket.recv())
                stopping = asyncio.ensure_future(stop.wait())
                done, _ = await asyncio.wait({recv, stopping}, return_when="FIRST_COMPLETED")
                if recv not in done:
                    recv.cancel()
                    break
                stopping.cancel()
                body = json.loads(recv.result())
                if not got_first:
                    got_first = True
                    first.append((time.time(), body["at"], body["type"]))
                if body.get("type") == "pairings":
                    heard.append((time.time(), body["at"]))
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else "no close frame"
            code = f"{code} after {time.monotonic() - since:.0f} s open"
            (closed_after if paired.is_set() else closed_before)[code] += 1
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(socket.close(), 5)

    loop = asyncio.get_running_loop()
    tasks = [asyncio.ensure_future(one()) for _ in range(clients)]
    while opened + sum(failed.values()) < clients:
        await asyncio.sleep(0.05)
    conn.send({"opened": opened, "failed": dict(failed)})
    await loop.run_in_executor(None, conn.recv)  # "paired"
    paired.set()
    await loop.run_in_executor(None, conn.recv)  # "stop"
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    conn.send(
        {
            "heard": heard,
            "first": first,
            "closed_before": dict(closed_before),
            "closed_after": dict(closed_after),
        }
    )


def _load_process(url: str, clients: int, conn) -> None:
    asyncio.run(_follow(url, clients, conn))


# -- the stacks ----------------------------------------------------------------------------


class VenueSite:
    """Venue mode: one ASGI process, the production settings, SQLite in WAL mode."""

    create_users = Topology.create_users  # only needs django(): the same seeding code

    def __init__(self, workdir: Path, server: str = "venue"):
        self.workdir = workdir
        self.server = server
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.process: Process | None = None

    @property
    def env(self) -> dict[str, str]:
        drop = ("PYTEST", "DJANGO_", "REDIS_URL", "CELERY_BROKER_URL", "CACHE_URL", "DATABASE")
        base = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
        return {
            **base,
            "DJANGO_SETTINGS_MODULE": "arbiter.settings",
            "DEBUG": "false",
            "SECRET_KEY": "venue-bench-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": f"sqlite:///{self.workdir / 'venue.sqlite3'}",
            "MEDIA_ROOT": str(self.workdir / "media"),
            "STATIC_ROOT": str(self.workdir / "static"),
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "PYTHONUNBUFFERED": "1",
        }

    @property
    def venue_args(self) -> list[str]:
        return ["venue", "--dir", str(self.workdir / "venue")]

    def django(self, code: str) -> str:
        if self.server == "venue":  # the venue's own environment, as `scripts/venue shell`
            return run_manage([*self.venue_args, "shell", "-c", code], self._plain_env()).stdout
        return run_manage(["shell", "-c", code], self.env).stdout

    def _plain_env(self) -> dict[str, str]:
        drop = ("PYTEST", "DJANGO_", "REDIS_URL", "CELERY_BROKER_URL", "CACHE_URL", "DATABASE")
        return {k: v for k, v in os.environ.items() if not k.startswith(drop)}

    def start(self) -> None:
        env = self.env
        if self.server == "venue":  # migrates, collects static files, then serves
            env = self._plain_env()
            argv = [sys.executable, str(ROOT / "manage.py"), *self.venue_args]
            argv += ["--bind", "127.0.0.1", "--port", str(self.port)]
        elif self.server == "daphne":
            run_manage(["migrate", "--noinput"], self.env)
            daphne = shutil.which("daphne", path=str(Path(sys.executable).parent)) or "daphne"
            argv = [daphne, "-b", "127.0.0.1", "-p", str(self.port), "arbiter.asgi:application"]
        else:  # one uvicorn worker under gunicorn, as deploy/ runs it (one process)
            run_manage(["migrate", "--noinput"], self.env)
            conf = str(ROOT / "deploy" / "gunicorn.conf.py")
            argv = [sys.executable, "-m", "gunicorn", "-c", conf, "arbiter.asgi:application"]
            env.update(GUNICORN_BIND=f"127.0.0.1:{self.port}", WEB_CONCURRENCY="1")
            env.update(GUNICORN_THREADS="4")
        log = self.workdir / f"{self.server}.log"
        self.process = Process("venue", argv, env, log).start()

        def answers() -> bool:
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(self.base_url + "/healthz", timeout=2).status_code == 200
            if not self.process.alive:
                raise RuntimeError(f"{self.server} exited:\n{self.process.output()[-4000:]}")
            return False

        wait_until(answers, 120, f"{self.server} to answer /healthz")

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()


@contextlib.contextmanager
def production_stack(web_workers: int, web_threads: int):
    with throwaway_topology("arbiter-fanout-") as site:
        site.start_web(workers=web_workers, threads=web_threads)
        yield site, f"gunicorn {web_workers} uvicorn workers x {web_threads} threads, Redis, PG"


@contextlib.contextmanager
def venue_stack(server: str):
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-fanout-venue-"))
    site = VenueSite(workdir, server)
    try:
        site.start()
        yield site, f"{server}, 1 process, in-memory layer, SQLite WAL"
    finally:
        site.stop()
        shutil.rmtree(workdir, ignore_errors=True)


# -- one run -------------------------------------------------------------------------------


@dataclass
class Result:
    stack: str
    server: str
    clients: int
    players: int
    load_processes: int
    opened: int = 0
    failed_to_open: dict[str, int] = field(default_factory=dict)
    closed_before_pairing: dict[str, int] = field(default_factory=dict)
    closed_after_pairing: dict[str, int] = field(default_factory=dict)
    heard: int = 0
    seconds_from_commit: dict[str, float] = field(default_factory=dict)
    seconds_from_response: dict[str, float] = field(default_factory=dict)
    # Each socket's first notice of the change (the pairings, sent before the round's)
    first_notice_from_its_at: dict[str, float] = field(default_factory=dict)
    server_log_warnings: list[str] = field(default_factory=list)
    pairing_request_seconds: float = 0.0
    connect_seconds: float = 0.0
    goal_seconds: float = 2.0

    @property
    def passed(self) -> bool:
        within = self.seconds_from_commit.get("max", float("inf")) <= self.goal_seconds
        return self.heard == self.clients and within


def seed(site: Any, players: int) -> tuple[int, str]:
    """An organiser with a token and an event with ``players`` checked in, not yet paired."""
    prefix = f"fan{uuid.uuid4().hex[:6]}"
    names = [f"{prefix}-p{i:04d}" for i in range(1, players + 1)]
    tokens = site.create_users([f"{prefix}-olive", *names])
    code = (
        "from django.contrib.auth.models import User\n"
        "from arbiter import worlds\n"
        f"olive = User.objects.get(username='{prefix}-olive')\n"
        f"users = list(User.objects.filter(username__in={names!r}).order_by('username'))\n"
        "world = worlds.build_event(users, name='Fan-out Open', organiser=olive, judge=None, "
        "paired=False, swiss_rounds=11, seed=20261202)\n"
        "print(world.event.pk)\n"
    )
    return int(site.django(code).strip().splitlines()[-1]), tokens[f"{prefix}-olive"]


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def rank(share: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, int(share * len(ordered) + 0.999999) - 1))]

    return {
        "p50": round(rank(0.50), 3),
        "p99": round(rank(0.99), 3),
        "max": round(ordered[-1], 3),
    }


def run(stack: str, args: argparse.Namespace) -> Result:
    starter = (
        production_stack(args.web_workers, args.web_threads) if stack == "production" else None
    )
    with starter or venue_stack(args.venue_server) as (site, server):
        result = Result(stack, server, args.clients, args.players, args.load_processes)
        result.goal_seconds = args.goal
        event_id, organiser_token = seed(site, args.players)
        url = site.base_url.replace("http://", "ws://") + f"/ws/events/{event_id}/"
        shares = [
            args.clients // args.load_processes + (i < args.clients % args.load_processes)
            for i in range(args.load_processes)
        ]
        context = multiprocessing.get_context("spawn")
        pipes, workers = [], []
        began = time.monotonic()
        for share in shares:
            parent, child = context.Pipe()
            worker = context.Process(target=_load_process, args=(url, share, child))
            worker.start()
            pipes.append(parent)
            workers.append(worker)
        try:
            for pipe in pipes:
                opened = pipe.recv()
                result.opened += opened["opened"]
                for kind, count in opened["failed"].items():
                    result.failed_to_open[kind] = result.failed_to_open.get(kind, 0) + count
            result.connect_seconds = round(time.monotonic() - began, 1)
            time.sleep(SETTLE_SECONDS)
            headers = {"Authorization": f"Token {organiser_token}"}
            with httpx.Client(base_url=site.base_url, headers=headers, timeout=120) as http:
                for pipe in pipes:
                    pipe.send("paired")
                sent = time.time()
                response = http.post(f"/api/v1/events/{event_id}/rounds/")
                answered = time.time()
            if response.status_code != 201:
                raise RuntimeError(f"pairing failed: {response.status_code} {response.text[:500]}")
            result.pairing_request_seconds = round(answered - sent, 3)
            time.sleep(COLLECT_SECONDS)
            for pipe in pipes:
                pipe.send("stop")
            heard: list[tuple[float, str]] = []
            first: list[tuple[float, str, str]] = []
            for pipe in pipes:
                done = pipe.recv()
                heard += done["heard"]
                first += done["first"]
                for name in ("closed_before", "closed_after"):
                    target = getattr(result, f"{name}_pairing")
                    for code, count in done[name].items():
                        target[code] = target.get(code, 0) + count
        finally:
            for worker in workers:
                worker.join(timeout=30)
                if worker.is_alive():
                    worker.kill()
            result.server_log_warnings = server_warnings(site, args.keep_logs)
        result.heard = len(heard)
        result.seconds_from_commit = summary(
            [when - datetime.fromisoformat(at).timestamp() for when, at in heard]
        )
        result.seconds_from_response = summary([when - answered for when, _ in heard])
        result.first_notice_from_its_at = summary(
            [when - datetime.fromisoformat(at).timestamp() for when, at, _ in first]
        )
        return result


def server_warnings(site: Any, keep: Path | None) -> list[str]:
    """The server's log lines that are not routine (errors, warnings), first 20; with
    ``keep``, the whole logs are copied there."""
    workdir = site.workdir
    logs = sorted(workdir.glob("*.log"))
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        for log in logs:
            shutil.copy(log, keep / log.name)
    lines = []
    for log in logs:
        for line in log.read_text(errors="replace").splitlines():
            if any(word in line for word in ("Traceback", "ERROR", "WARNING", "Error")):
                lines.append(f"{log.name}: {line[:200]}")
    return lines[:20]


def print_result(result: Result) -> None:
    commit, response = result.seconds_from_commit, result.seconds_from_response
    print(f"{result.stack}: {result.server}")
    print(
        f"  sockets {result.clients} ({result.load_processes} load processes), opened "
        f"{result.opened} in {result.connect_seconds} s, failed {result.failed_to_open or 0}, "
        f"closed before the pairing {result.closed_before_pairing or 0}"
    )
    print(
        f"  players {result.players}, pairing request {result.pairing_request_seconds} s; "
        f"heard 'pairings' {result.heard}/{result.clients}"
    )
    if commit:
        print(
            f"  from the commit: p50 {commit['p50']} s  p99 {commit['p99']} s  "
            f"max {commit['max']} s   (from the HTTP response: p50 {response['p50']} s, "
            f"max {response['max']} s)"
        )
    if result.first_notice_from_its_at:
        first = result.first_notice_from_its_at
        print(
            f"  each socket's first notice, from its at: p50 {first['p50']} s  max {first['max']} s"
        )
    for line in result.server_log_warnings:
        print(f"  server: {line}")
    print("  " + ("PASS" if result.passed else f"FAIL (goal: all within {result.goal_seconds} s)"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=("production", "venue", "both"), default="both")
    parser.add_argument("--clients", type=int, default=2000, help="WebSockets following")
    parser.add_argument("--players", type=int, default=2000, help="players in the event")
    parser.add_argument("--load-processes", type=int, default=2)
    parser.add_argument("--web-workers", type=int, default=3, help="production: processes")
    parser.add_argument("--web-threads", type=int, default=4, help="production: threads")
    parser.add_argument(
        "--venue-server",
        choices=("venue", "daphne", "uvicorn"),
        default="venue",
        help="venue: `manage.py venue` itself (scripts/venue; the default), or with the same "
        "settings daphne alone or one uvicorn worker under gunicorn",
    )
    parser.add_argument("--goal", type=float, default=2.0, help="seconds every socket must fit")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep-logs", type=Path, help="copy the servers' logs to this folder")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.players < 2 or args.load_processes < 1:
        parser.error("--clients and --load-processes must be at least 1, --players at least 2")
    stacks = ["production", "venue"] if args.stack == "both" else [args.stack]
    results = []
    for stack in stacks:
        result = run(stack, args)
        print_result(result)
        results.append(result)
    if args.json:
        payload = [{**asdict(r), "passed": r.passed} for r in results]
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
