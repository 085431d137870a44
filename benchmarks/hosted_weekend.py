"""A hosted weekend: N events of 16 players on one site, every organiser and player at once.

Run (PostgreSQL on 127.0.0.1:5432 and redis-server installed):
    .venv/bin/python benchmarks/hosted_weekend.py [--events 300] [--spread 60] [--json out.json]
    .venv/bin/python benchmarks/hosted_weekend.py --events 100 --env DB_POOL_SIZE=2
    .venv/bin/python benchmarks/hosted_weekend.py --logs logs/   # keep gunicorn's and Celery's logs

Starts the production topology of ``tests/integration/topology.py`` with the deploy
defaults of this checkout: gunicorn with ``deploy/gunicorn.conf.py`` and nothing else set
(``WEB_CONCURRENCY`` 2 x CPUs + 1, ``GUNICORN_THREADS`` 1, ``GUNICORN_MAX_REQUESTS`` 1000,
the production PostgreSQL pool), the two Celery workers compose runs (``worker`` with 2 processes on
both queues, ``worker-small`` with 1), a private Redis and a fresh PostgreSQL database.
``--workers``, ``--threads`` and ``--env KEY=VALUE`` change that for experiments.

Untimed set-up, in one ``manage.py shell``: an organiser per event and 16 players each,
every player checked in, an API token for everyone and a signed-in session for every
player (the cookie their phone holds). Then, timed, over HTTP only:

1. **Pair at once**: every organiser pairs and starts round 1 at the same moment.
2. **Reports spread**: at each table the first player reports (``POST
   /api/v1/matches/<id>/report/``) at a moment spread uniformly over ``--spread`` seconds
   and the second confirms a few seconds after the answer; latency counts from the
   planned moment, so a queue in the server (or in the client) shows.
3. **Pair round 2 at once**: every organiser closes round 1, pairs and starts round 2.
4. **GET baseline**: ``--concurrency`` connections do what a player's phone reads (their
   My match page and the event's pairings, with their session) for ``--get-seconds``.
5. **Reports all at once**: the same connections report and confirm every round-2 table
   as fast as the server answers; its throughput over the GET baseline's (goal 0.8).

Every write carries an ``Idempotency-Key`` (round actions are checked against the
round's state instead). A request that got no answer (reset, closed, timed out) or a 5xx
is counted, then sent again with the same key after a pause, as a phone would; nothing
is retried silently. At the end SQL counts the matches not confirmed. The client is one
asyncio process with a plain HTTP/1.1 keep-alive client (a connection idle for 4 s is
not reused: gunicorn lets go of it at 5); its CPU time is printed beside the server's.

Exits 1 if any phase had a transport error, a 5xx or a failed step, a match is left
unconfirmed, or reports all at once reached less than ``--goal`` of the GET throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.integration.topology import Topology, throwaway_topology  # noqa: E402

PLAYERS_PER_EVENT = 16
# A connection idle this long is not used again: gunicorn's keepalive (5 s) closes it, and
# a request sent as it closes would get no answer through no fault of the server.
REUSE_IDLE_SECONDS = 4.0
# (first player's words, what they report): agreed results, confirmed by the second player.
SCORES = ["2-0", "2-1", "1-2", "0-2", "1-1-1"]
CLOCK_TICK = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


# -- the HTTP client ----------------------------------------------------------------------


class TransportError(Exception):
    """No answer: the connection was refused, reset or closed, or the answer took too long."""

    def __init__(self, kind: str, reused: bool):
        super().__init__(kind)
        self.kind = kind
        self.reused = reused  # on a kept-alive connection (else a fresh one)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    idle_since: float = 0.0
    used: int = 0

    def reusable(self) -> bool:
        idle = time.monotonic() - self.idle_since
        return not self.reader.at_eof() and idle < REUSE_IDLE_SECONDS

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


class Pool:
    """Up to ``size`` kept-alive HTTP/1.1 connections to one server, one request each at a
    time; a request waits for a free one (that wait counts in its latency)."""

    def __init__(self, host: str, port: int, size: int, timeout: float):
        self.host, self.port, self.timeout = host, port, timeout
        self.slots: asyncio.Queue[Connection | None] = asyncio.Queue()
        for _ in range(size):
            self.slots.put_nowait(None)

    async def send(
        self, method: str, path: str, headers: dict[str, str], body: bytes | None = None
    ) -> Answer:
        conn = await self.slots.get()
        if conn is not None and not conn.reusable():
            conn.close()
            conn = None
        reused = conn is not None
        try:
            if conn is None:
                conn = await self._open()
            answer = await asyncio.wait_for(
                self._exchange(conn, method, path, headers, body), self.timeout
            )
        except (TimeoutError, OSError, EOFError, ValueError) as exc:
            if conn is not None:
                conn.close()
            self.slots.put_nowait(None)
            raise TransportError(type(exc).__name__, reused) from exc
        if answer.headers.get("connection", "").lower() == "close":
            conn.close()
            self.slots.put_nowait(None)
        else:
            conn.idle_since = time.monotonic()
            conn.used += 1
            self.slots.put_nowait(conn)
        return answer

    async def close(self) -> None:
        while not self.slots.empty():
            conn = self.slots.get_nowait()
            if conn is not None:
                conn.close()

    async def _open(self) -> Connection:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, limit=2**20), self.timeout
        )
        return Connection(reader, writer)

    async def _exchange(
        self, conn: Connection, method: str, path: str, headers: dict[str, str], body: bytes | None
    ) -> Answer:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        conn.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        await conn.writer.drain()
        status_line = await conn.reader.readline()
        if not status_line:
            raise EOFError("closed before an answer")
        status = int(status_line.split(b" ", 2)[1])
        answer_headers: dict[str, str] = {}
        while True:
            line = await conn.reader.readline()
            if not line:
                raise EOFError("closed in the headers")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("latin-1").partition(":")
            answer_headers[name.strip().lower()] = value.strip()
        return Answer(status, answer_headers, await self._body(conn.reader, answer_headers))

    @staticmethod
    async def _body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
        if "content-length" in headers:
            return await reader.readexactly(int(headers["content-length"]))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    await reader.readline()
                    return b"".join(parts)
                parts.append(await reader.readexactly(size))
                await reader.readline()
        return await reader.read()  # until the server closes


# -- what a phase counts ----------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (share in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(share * len(ordered))))
    return ordered[rank - 1]


@dataclass
class Phase:
    """Every request of one phase: answers, latencies, and everything that went wrong."""

    name: str
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    attempts: int = 0
    transport_errors: int = 0
    transport_on_reused: int = 0
    transport_kinds: Counter = field(default_factory=Counter)
    server_errors: int = 0
    failures: list[str] = field(default_factory=list)
    failed_steps: int = 0
    window: float = 0.0
    offered_rps: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    lost_at: list[float] = field(default_factory=list)  # when each transport error came

    def answered(self, latency: float, status: int) -> None:
        self.latencies.append(latency)
        self.statuses[status] += 1

    def lost(self, error: TransportError) -> None:
        self.transport_errors += 1
        if len(self.lost_at) < 5000:
            self.lost_at.append(round(time.time(), 2))
        self.transport_on_reused += error.reused
        self.transport_kinds[error.kind] += 1

    def fail(self, why: str) -> None:
        self.failed_steps += 1
        if len(self.failures) < 10:
            self.failures.append(why)

    @property
    def served_rps(self) -> float:
        return round(len(self.latencies) / self.window, 1) if self.window else 0.0

    def summary(self) -> dict[str, Any]:
        lat = self.latencies or [0.0]
        return {
            "phase": self.name,
            "requests": self.attempts,
            "answered": len(self.latencies),
            "window_s": round(self.window, 2),
            "served_rps": self.served_rps,
            "offered_rps": self.offered_rps,
            "p50_ms": round(percentile(lat, 0.50) * 1000, 1),
            "p95_ms": round(percentile(lat, 0.95) * 1000, 1),
            "p99_ms": round(percentile(lat, 0.99) * 1000, 1),
            "max_ms": round(max(lat) * 1000, 1),
            "transport_errors": self.transport_errors,
            "transport_on_reused": self.transport_on_reused,
            "transport_kinds": dict(self.transport_kinds),
            "http_5xx": self.server_errors,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "failed_steps": self.failed_steps,
            "failures": self.failures,
            "cpu_s": self.cpu,
            "lost_at": self.lost_at,
            **self.extra,
        }


async def call(
    phase: Phase,
    pool: Pool,
    method: str,
    path: str,
    headers: dict[str, str],
    body: Any = None,
    *,
    since: float | None = None,
    attempts: int = 8,
) -> tuple[Answer | None, bool]:
    """One request as a phone sends it: every lost answer and 5xx is counted, then the
    same request (same headers, so the same Idempotency-Key) goes again after a pause.
    Returns the final answer (None if none came) and whether an attempt went wrong.
    Latency runs from ``since`` (the planned moment) to the final answer."""
    began = time.perf_counter() if since is None else since
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        headers = {**headers, "Content-Type": "application/json"}
    troubled = False
    for attempt in range(attempts):
        phase.attempts += 1
        try:
            answer = await pool.send(method, path, headers, data)
        except TransportError as exc:
            phase.lost(exc)
            troubled = True
            await asyncio.sleep(min(0.5 * 2**attempt, 5.0))
            continue
        if answer.status >= 500:
            phase.server_errors += 1
            phase.statuses[answer.status] += 1
            troubled = True
            await asyncio.sleep(min(0.5 * 2**attempt, 5.0))
            continue
        phase.answered(time.perf_counter() - began, answer.status)
        return answer, troubled
    phase.fail(f"{method} {path}: no answer after {attempts} attempts")
    return None, troubled


# -- the seeded site ------------------------------------------------------------------------


def seed_in_django(events: int, out: str) -> None:
    """Inside the site's Django (``manage.py shell``): organisers, players, tokens, sessions
    and ``events`` events of 16 checked-in players; what the clients need goes to ``out``."""
    from datetime import timedelta

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from accounts import tokens
    from accounts.models import ApiToken
    from arbiter import worlds

    prefix = f"hw{uuid.uuid4().hex[:5]}"
    hashed = make_password("hosted-weekend-1")
    names = [f"{prefix}-o{e:04d}" for e in range(events)]
    names += [f"{prefix}-e{e:04d}-p{p:02d}" for e in range(events) for p in range(16)]
    User.objects.bulk_create([User(username=n, password=hashed) for n in names])
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    keys = {n: tokens.new_key() for n in names}
    ApiToken.objects.bulk_create(
        ApiToken(user=users[n], digest=tokens.digest(keys[n]), prefix=keys[n][:8]) for n in names
    )
    store, sessions, expires = SessionStore(), {}, timezone.now() + timedelta(days=2)
    rows = []
    for name in names[events:]:
        user, key = users[name], uuid.uuid4().hex
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        sessions[name] = key
    Session.objects.bulk_create(rows, batch_size=1000)
    plan = []
    for e in range(events):
        organiser = users[names[e]]
        players = [users[f"{prefix}-e{e:04d}-p{p:02d}"] for p in range(16)]
        world = worlds.build_event(
            players,
            name=f"Weekend {e + 1}",
            organiser=organiser,
            judge=None,
            paired=False,
            swiss_rounds=3,
            seed=e + 1,
        )
        plan.append(
            {
                "event": world.event.pk,
                "organiser_token": keys[organiser.username],
                "players": {
                    str(r.pk): {
                        "token": keys[r.user.username],
                        "session": sessions[r.user.username],
                    }
                    for r in world.registrations
                },
            }
        )
    Path(out).write_text(json.dumps(plan))


@dataclass
class Event:
    id: int
    organiser: dict[str, str]  # headers
    players: dict[int, dict[str, str]]  # registration -> {"token", "session"}
    tables: dict[int, list[dict]] = field(default_factory=dict)  # round -> its matches


def seed(site: Topology, events: int) -> list[Event]:
    out = site.workdir / "seeded.json"
    site.django(
        "from benchmarks.hosted_weekend import seed_in_django\n"
        f"seed_in_django({events}, {str(out)!r})\n"
    )
    return [
        Event(
            item["event"],
            {"Authorization": f"Token {item['organiser_token']}"},
            {int(reg): who for reg, who in item["players"].items()},
        )
        for item in json.loads(out.read_text())
    ]


# -- the organisers --------------------------------------------------------------------------


async def round_step(
    phase: Phase, pool: Pool, event: Event, path: str, done: Callable[[list[dict]], bool]
) -> Answer | None:
    """A round action (not keyed): after a lost answer, a refusal may mean the first
    attempt did it, so the event's rounds say whether it is done."""
    answer, troubled = await call(phase, pool, "POST", path, event.organiser)
    if answer is not None and answer.status in (200, 201):
        return answer
    if answer is not None and troubled and answer.status == 400:
        rounds, _ = await call(
            phase, pool, "GET", f"/api/v1/events/{event.id}/rounds/", event.organiser
        )
        if rounds is not None and rounds.status == 200 and done(rounds.json()):
            return rounds
    text = "no answer" if answer is None else f"{answer.status} {answer.body[:200]!r}"
    phase.fail(f"event {event.id} {path}: {text}")
    return None


def _round_is(number: int, statuses: tuple[str, ...]) -> Callable[[list[dict]], bool]:
    return lambda rounds: any(r["number"] == number and r["status"] in statuses for r in rounds)


async def organise(phase: Phase, pool: Pool, event: Event, number: int) -> float | None:
    """Close the previous round, pair and start round ``number``; seconds it took."""
    began = time.perf_counter()
    base = f"/api/v1/events/{event.id}/rounds/"
    if number > 1:
        closed = _round_is(number - 1, ("closed",))
        if await round_step(phase, pool, event, f"{base}{number - 1}/close/", closed) is None:
            return None
    paired = _round_is(number, ("paired", "running"))
    if await round_step(phase, pool, event, base, paired) is None:
        return None
    if (
        await round_step(
            phase, pool, event, f"{base}{number}/start/", _round_is(number, ("running",))
        )
        is None
    ):
        return None
    detail, _ = await call(phase, pool, "GET", f"{base}{number}/", event.organiser)
    if detail is None or detail.status != 200:
        phase.fail(f"event {event.id}: round {number} could not be read")
        return None
    event.tables[number] = [m for m in detail.json()["matches"] if not m["bye"]]
    return time.perf_counter() - began


async def pair_at_once(events: list[Event], number: int, timeout: float) -> Phase:
    phase = Phase(f"pair round {number} at once")
    pool = Pool("127.0.0.1", PORT[0], len(events), timeout)
    began = time.perf_counter()
    took = await asyncio.gather(*(organise(phase, pool, e, number) for e in events))
    phase.window = time.perf_counter() - began
    await pool.close()
    done = [t for t in took if t is not None]
    phase.extra["events_paired"] = len(done)
    phase.extra["all_paired_s"] = round(max(done), 2) if done else None
    phase.extra["median_event_s"] = round(percentile(done, 0.5), 2) if done else None
    return phase


# -- the players -----------------------------------------------------------------------------


WITH_KEYS = [True]  # --without-keys: an experiment measuring what the key costs


def _player_headers(player: dict[str, str]) -> dict[str, str]:
    headers = {"Authorization": f"Token {player['token']}"}
    if WITH_KEYS[0]:
        headers["Idempotency-Key"] = uuid.uuid4().hex
    return headers


async def play_table(
    phase: Phase,
    pool: Pool,
    event: Event,
    match: dict,
    rng: random.Random,
    at: float | None = None,
    pause: float = 0.0,
) -> None:
    """The first player reports, the second confirms: ``at`` is the report's planned moment
    (loop time; None = now), ``pause`` the seconds the second player takes to look."""
    loop = asyncio.get_running_loop()
    first, second = (event.players[p["registration"]] for p in match["players"])
    path = f"/api/v1/matches/{match['id']}/"
    if at is not None:
        await asyncio.sleep(max(0.0, at - loop.time()))
    since = time.perf_counter()
    body = {"score": rng.choice(SCORES)}
    answer, _ = await call(
        phase, pool, "POST", path + "report/", _player_headers(first), body, since=since
    )
    if answer is None or answer.status != 200:
        phase.fail(f"report of match {match['id']}: {_said(answer)}")
        return
    if pause:
        await asyncio.sleep(rng.uniform(0.5, pause))
    headers = _player_headers(second)
    answer, _ = await call(phase, pool, "POST", path + "confirm/", headers)
    if answer is None or answer.status != 200:
        phase.fail(f"confirm of match {match['id']}: {_said(answer)}")


def _said(answer: Answer | None) -> str:
    return "no answer" if answer is None else f"{answer.status} {answer.body[:200]!r}"


async def reports_spread(
    events: list[Event], spread: float, connections: int, timeout: float, rng: random.Random
) -> Phase:
    """Round 1's tables report over ``spread`` seconds; the confirmation 0.5 to 5 s later."""
    phase = Phase(f"reports spread over {spread:g} s")
    pool = Pool("127.0.0.1", PORT[0], connections, timeout)
    tables = [(e, m) for e in events for m in e.tables.get(1, [])]
    phase.offered_rps = round(2 * len(tables) / spread, 1) if spread else None
    start = asyncio.get_running_loop().time()
    began = time.perf_counter()
    await asyncio.gather(
        *(
            play_table(phase, pool, e, m, rng, at=start + rng.uniform(0, spread), pause=5.0)
            for e, m in tables
        )
    )
    phase.window = time.perf_counter() - began
    await pool.close()
    return phase


async def reports_at_once(
    events: list[Event], connections: int, timeout: float, rng: random.Random
) -> Phase:
    """Round 2's tables, as fast as the server answers, over ``connections`` connections."""
    phase = Phase("reports all at once")
    pool = Pool("127.0.0.1", PORT[0], connections, timeout)
    queue = [(e, m) for e in events for m in e.tables.get(2, [])]
    rng.shuffle(queue)
    work = iter(queue)

    async def client() -> None:
        for event, match in work:
            await play_table(phase, pool, event, match, rng)

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(connections)))
    phase.window = time.perf_counter() - began
    await pool.close()
    return phase


async def get_baseline(
    events: list[Event], seconds: float, connections: int, timeout: float
) -> Phase:
    """What phones read, at full concurrency: each player's My match page and the event's
    pairings, with their own session, for ``seconds``."""
    phase = Phase("GET baseline")
    pool = Pool("127.0.0.1", PORT[0], connections, timeout)
    people = [(e, p) for e in events for p in e.players.values()]
    pages = ("/events/{}/my-match/", "/events/{}/pairings/")
    counter = iter(range(10**9))
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        while time.perf_counter() < deadline:
            n = next(counter)
            event, player = people[(n // 2) % len(people)]
            path = pages[n % 2].format(event.id)
            headers = {"Cookie": f"sessionid={player['session']}"}
            answer, _ = await call(phase, pool, "GET", path, headers)
            if answer is None or answer.status != 200:
                phase.fail(f"GET {path}: {_said(answer)}")

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(connections)))
    phase.window = time.perf_counter() - began
    await pool.close()
    return phase


async def warm_up(events: list[Event], timeout: float, requests: int = 60) -> None:
    """Untimed: every web process has served pages and the API before the weekend starts,
    as on a site that has been up a while (its imports and caches loaded)."""
    phase = Phase("warm-up")
    pool = Pool("127.0.0.1", PORT[0], 8, timeout)
    people = [(e, p) for e in events for p in e.players.values()]
    paths = ["/events/{}/my-match/", "/events/{}/pairings/", "/api/v1/events/{}/"]

    async def one(n: int) -> None:
        event, player = people[n % len(people)]
        headers = {"Cookie": f"sessionid={player['session']}"}
        await call(phase, pool, "GET", paths[n % 3].format(event.id), headers)

    await asyncio.gather(*(one(n) for n in range(requests)))
    await pool.close()


PORT = [0]  # the web's port, set once the site is up


# -- the server's side: CPU, memory, connections ---------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # [state, ppid, ...]


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def _tree(root: int, tree: dict[int, list[int]]) -> list[int]:
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += tree.get(pid, [])
    return found


def tree_cpu_seconds(root: int, tree: dict[int, list[int]]) -> float:
    """CPU of a process and its descendants, the ones that ended included (their time is
    in their parent's cutime/cstime once reaped: gunicorn's recycled workers, PostgreSQL's
    per-connection backends)."""
    total = 0
    for pid in _tree(root, tree):
        fields = _stat(pid)
        if fields is not None:
            total += sum(int(x) for x in fields[11:15])
    return total / CLOCK_TICK


def machine_busy_seconds() -> float:
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(parts[:8]) - parts[3] - parts[4]) / CLOCK_TICK


class ServerWatch:
    """CPU per part at each phase's ends; RSS, PostgreSQL connections and Redis memory
    sampled twice a second in a thread of its own."""

    def __init__(self, site: Topology):
        self.site = site
        self.roots = {
            "web": site.processes["web"].popen.pid,
            "celery": site.processes["worker"].popen.pid,
            "celery small": site.processes["worker-small"].popen.pid,
            "redis": site.redis.process.popen.pid,
        }
        backend = site.sql("SELECT pg_backend_pid()")[0][0]
        self.roots["postgres (whole server)"] = int(_stat(backend)[1])
        self.peak: dict[str, Any] = {"pg_connections": 0, "rss_mb": {}, "redis_used_mb": 0.0}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def cpu(self) -> dict[str, float]:
        tree = _children()
        now = {name: tree_cpu_seconds(pid, tree) for name, pid in self.roots.items()}
        # Time our database's backends spent running statements (PostgreSQL 14+): the
        # whole server's CPU above also holds whatever else runs on it.
        active = self.site.sql(
            "SELECT active_time FROM pg_stat_database WHERE datname = %s", self.site.db_name
        )[0][0]
        now["postgres active (this db)"] = (active or 0.0) / 1000
        now["client"] = time.process_time()
        now["machine"] = machine_busy_seconds()
        return now

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _sample(self) -> None:
        import redis

        db = self.site.db_name
        url = self.site.env["DATABASE_URL"]
        cache = redis.Redis.from_url(self.site.redis.url)
        with psycopg.connect(url, autocommit=True) as conn:
            while not self._stop.wait(0.5):
                count = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (db,)
                ).fetchone()[0]
                self.peak["pg_connections"] = max(self.peak["pg_connections"], count - 1)
                self._sample_rss()
                with contextlib.suppress(Exception):
                    used = cache.info("memory")["used_memory"] / 2**20
                    self.peak["redis_used_mb"] = round(max(self.peak["redis_used_mb"], used), 2)

    def _sample_rss(self) -> None:
        tree = _children()
        for name in ("web", "celery", "celery small"):
            root = self.roots[name]
            for role, pids in (("master", [root]), ("worker", tree.get(root, []))):
                for pid in pids:
                    fields = _stat(pid)
                    if fields is None:
                        continue
                    mb = int(fields[21]) * PAGE_BYTES / 2**20
                    key = f"{name} {role}"
                    self.peak["rss_mb"][key] = round(max(self.peak["rss_mb"].get(key, 0), mb), 1)


async def timed(watch: ServerWatch, run: Awaitable[Phase]) -> Phase:
    before = watch.cpu()
    phase = await run
    after = watch.cpu()
    phase.cpu = {name: round(after[name] - before[name], 2) for name in before}
    phase.extra["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return phase


# -- the run ------------------------------------------------------------------------------------


@dataclass
class Options:
    events: int
    spread: float
    concurrency: int
    spread_connections: int
    get_seconds: float
    timeout: float
    goal: float
    seed: int
    logs: Path | None = None  # where to keep the servers' logs


async def weekend(site: Topology, events: list[Event], options: Options) -> list[Phase]:
    rng = random.Random(options.seed)
    watch = ServerWatch(site)
    watch.start()
    timeout, c = options.timeout, options.concurrency
    try:
        await warm_up(events, timeout)
        phases = [await timed(watch, pair_at_once(events, 1, timeout))]
        phases.append(
            await timed(
                watch,
                reports_spread(events, options.spread, options.spread_connections, timeout, rng),
            )
        )
        phases.append(await timed(watch, pair_at_once(events, 2, timeout)))
        phases.append(await timed(watch, get_baseline(events, options.get_seconds, c, timeout)))
        phases.append(await timed(watch, reports_at_once(events, c, timeout, rng)))
    finally:
        watch.stop()
    phases[-1].extra["peaks"] = watch.peak
    return phases


def unconfirmed(site: Topology, events: list[Event]) -> dict[str, int]:
    rows = site.sql(
        "SELECT r.number, m.status, count(*) FROM tournaments_match m "
        "JOIN tournaments_round r ON r.id = m.round_id "
        "WHERE r.event_id = ANY(%s) AND NOT m.is_bye GROUP BY r.number, m.status",
        [e.id for e in events],
    )
    counts: dict[str, int] = {}
    for number, status, count in rows:
        counts[f"round {number} {status}"] = count
    return counts


def worker_boots(site: Topology) -> int:
    return site.processes["web"].output().count("Booting worker")


def server_log_errors(site: Topology) -> list[str]:
    """gunicorn's and uvicorn's own lines above INFO (worker timeouts, cancelled tasks)."""
    lines = site.processes["web"].output().splitlines()
    worse = ("[WARNING]", "[ERROR]", "[CRITICAL]", "Traceback")
    return [line for line in lines if any(level in line for level in worse)][:50]


def keep_logs(site: Topology, into: Path | None) -> None:
    """The servers' logs, for reading after the topology is gone."""
    if into is None:
        return
    into.mkdir(parents=True, exist_ok=True)
    for name, process in site.processes.items():
        (into / f"{name}.log").write_text(process.output())


def print_table(phases: list[Phase], result: dict[str, Any]) -> None:
    head = (
        f"{'phase':28} {'requests':>8} {'req/s':>7} {'offered':>7} {'p50 ms':>8} "
        f"{'p95 ms':>8} {'p99 ms':>8} {'transport':>9} {'5xx':>4} {'failed':>6} "
        f"{'client CPU':>10} {'web CPU':>8} {'PG CPU':>7} {'machine':>8}"
    )
    print(head)
    print("-" * len(head))
    for phase in phases:
        s = phase.summary()
        cpu = s["cpu_s"]
        print(
            f"{s['phase']:28} {s['requests']:>8} {s['served_rps']:>7} "
            f"{s['offered_rps'] if s['offered_rps'] is not None else '-':>7} "
            f"{s['p50_ms']:>8} {s['p95_ms']:>8} {s['p99_ms']:>8} {s['transport_errors']:>9} "
            f"{s['http_5xx']:>4} {s['failed_steps']:>6} {cpu['client']:>9.1f}s "
            f"{cpu['web']:>7.1f}s {cpu['postgres (whole server)']:>6.1f}s {cpu['machine']:>7.1f}s"
        )
        if "all_paired_s" in s:
            print(
                f"{'':28} {s['events_paired']} events paired and started, the last after "
                f"{s['all_paired_s']} s (median {s['median_event_s']} s)"
            )
        for why in s["failures"][:5]:
            print(f"{'':28} FAIL {why}")
    print(
        f"reports all at once / GET baseline: {result['ratio']} (goal {result['goal']}; "
        f"per CPU second of web + PostgreSQL: {result['ratio_per_cpu']}); "
        f"unconfirmed matches: {result['unconfirmed']}; web worker boots: {result['boots']}"
    )
    print(f"matches by round and status: {result['matches']}")
    print(f"peaks: {json.dumps(result['peaks'])}")
    print(f"load average at the start {result['load_start']}, at the end {result['load_end']}")
    for line in result["server_errors"]:
        print(f"gunicorn: {line}")
    print("PASS" if result["passed"] else "FAILED")


@contextlib.contextmanager
def own_site(workers: int | None, threads: int | None, env: dict[str, str]) -> Iterator[Topology]:
    """The production topology on loopback, with this checkout's deploy defaults."""
    with throwaway_topology("arbiter-weekend-", extra_env=env) as site:
        site.start_web(workers=workers, threads=threads)
        site.start_worker("worker", concurrency=int(env.get("CELERY_CONCURRENCY", 2)))
        small = int(env.get("CELERY_SMALL_CONCURRENCY", 1))
        site.start_worker("worker-small", concurrency=small, queues="arbiter-small")
        yield site


def run(options: Options, workers: int | None, threads: int | None, env: dict[str, str]) -> dict:
    load_start = [round(x, 2) for x in os.getloadavg()]
    with own_site(workers, threads, env) as site:
        PORT[0] = site.web_port
        began = time.perf_counter()
        events = seed(site, options.events)
        seeded = round(time.perf_counter() - began, 1)
        phases = asyncio.run(weekend(site, events, options))
        matches = unconfirmed(site, events)
        boots, errors = worker_boots(site), server_log_errors(site)
        keep_logs(site, options.logs)
        web_env = site.processes["web"].env
    at_once, baseline = phases[-1], phases[-2]
    ratio = round(at_once.served_rps / baseline.served_rps, 2) if baseline.served_rps else 0.0
    left = sum(n for key, n in matches.items() if not key.endswith("confirmed"))
    expected = options.events * (PLAYERS_PER_EVENT // 2) * 2  # tables of two rounds
    left += max(0, expected - sum(matches.values()))
    troubles = sum(p.transport_errors + p.server_errors + p.failed_steps for p in phases)
    result = {
        "events": options.events,
        "players": options.events * PLAYERS_PER_EVENT,
        "seed_s": seeded,
        "web": {
            key: web_env.get(key, "(default)")
            for key in (
                "WEB_CONCURRENCY",
                "GUNICORN_THREADS",
                "GUNICORN_MAX_REQUESTS",
                "DB_POOL_SIZE",
                "DB_CONN_MAX_AGE",
            )
        },
        "env": env,
        "cores": os.cpu_count(),
        "phases": [p.summary() for p in phases],
        "ratio": ratio,
        # The same ratio per CPU second of the web and its database's statements: what the
        # server can do per core, less moved by other work sharing the machine.
        "ratio_per_cpu": round(per_cpu(at_once) / per_cpu(baseline), 2)
        if per_cpu(baseline)
        else 0.0,
        "goal": options.goal,
        "unconfirmed": left,
        "matches": matches,
        "boots": boots,
        "peaks": at_once.extra.pop("peaks", {}),
        "server_errors": errors,
        "load_start": load_start,
        "load_end": [round(x, 2) for x in os.getloadavg()],
    }
    result["passed"] = not troubles and not left and ratio >= options.goal
    print_table(phases, result)
    return result


def per_cpu(phase: Phase) -> float:
    """Answers per CPU second of the web processes and this database's statements."""
    spent = phase.cpu.get("web", 0.0) + phase.cpu.get("postgres active (this db)", 0.0)
    return len(phase.latencies) / spent if spent else 0.0


def parse_env(pairs: list[str], parser: argparse.ArgumentParser) -> dict[str, str]:
    env = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            parser.error(f"--env takes KEY=VALUE, not {pair!r}")
        env[key.strip()] = value
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=300, help="events of 16 players")
    parser.add_argument("--spread", type=float, default=60.0, help="round 1's reports over this")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=64,
        help="connections for the GET baseline and reports all at once",
    )
    parser.add_argument(
        "--spread-connections",
        type=int,
        default=1024,
        help="connections the spread reports may use",
    )
    parser.add_argument("--get-seconds", type=float, default=30.0, help="the GET baseline's length")
    parser.add_argument("--workers", type=int, help="WEB_CONCURRENCY (default: the config's)")
    parser.add_argument("--threads", type=int, help="GUNICORN_THREADS (default: the config's)")
    parser.add_argument(
        "--env", action="append", default=[], metavar="KEY=VALUE", help="for every server process"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds to wait for an answer (a browser waits 300)",
    )
    parser.add_argument("--goal", type=float, default=0.8, help="reports at once / GETs")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--logs", type=Path, help="keep the servers' logs in this directory")
    parser.add_argument(
        "--without-keys",
        action="store_true",
        help="an experiment: writes without Idempotency-Key (a retry is then not safe)",
    )
    args = parser.parse_args(argv)
    for name in ("events", "concurrency", "spread_connections"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.spread < 0 or args.get_seconds <= 0:
        parser.error("--spread must be 0 or more and --get-seconds more than 0")
    options = Options(
        args.events,
        args.spread,
        args.concurrency,
        args.spread_connections,
        args.get_seconds,
        args.timeout,
        args.goal,
        args.seed,
        args.logs,
    )
    WITH_KEYS[0] = not args.without_keys
    result = run(options, args.workers, args.threads, parse_env(args.env, parser))
    result["idempotency_keys"] = WITH_KEYS[0]
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
