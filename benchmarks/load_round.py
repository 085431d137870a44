"""Every player of a 512-player round reports their result over HTTP within one minute.

Run (PostgreSQL on 127.0.0.1:5432 and redis-server installed):
    .venv/bin/python benchmarks/load_round.py [--players 512] [--spread 0] [--json out.json]
    .venv/bin/python benchmarks/load_round.py --url http://host:8000 --database-url postgres://…

By default it starts its own production topology on loopback with
``tests/integration/topology.py`` (a migrated PostgreSQL database, a private Redis,
gunicorn, one Celery worker). With ``--url`` it targets a running site instead, seeding
through ``manage.py`` against ``--database-url`` (the site's database) with the same code.

Untimed set-up: N accounts with API tokens, an event, N registrations checked in; then
the organiser pairs and starts round 1 over the API. Timed window, pure HTTP: both
players of every match report at the same moment (or arriving uniformly over
``--spread`` seconds), each with their own token. Normally both report the same result,
which the site takes as report + confirmation; at ``--conflicts`` tables both claim the
win, which must be held for a judge (disputed, not final). Afterwards SQL checks that
every other match is confirmed exactly once with the reported score, that the result
log holds exactly one row per report, and the judge console lists the disputed tables.

Prints p50/p95/p99/max latency, throughput and wall time; exits 1 if a report failed,
took the window past ``--limit`` seconds (60), got a 5xx, or integrity does not hold.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import math
import os
import random
import re
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.integration.topology import (  # noqa: E402 (needs ROOT on the path)
    PASSWORD,
    Topology,
    run_manage,
    throwaway_topology,
)

# Sizing for a 2-core machine: requests mostly wait on PostgreSQL (each report locks the
# event row), so a few threads per process keep both cores busy without a pile of idle
# database connections: 4 x 4 = 16 connections.
WEB_WORKERS = 4
WEB_THREADS = 4
# (score the first player reports, the same result in the second player's words)
AGREED = [("2-0", "0-2"), ("2-1", "1-2"), ("1-2", "2-1"), ("0-2", "2-0"), ("1-1", "1-1")]
AGREED += [("1-1-1", "1-1-1")]


class Site(Protocol):
    """What the load test needs of a deployment: its address, Django and SQL."""

    base_url: str

    def django(self, code: str) -> str: ...

    def sql(self, query: str, *params: Any) -> list[tuple]: ...

    def create_users(self, usernames: list[str]) -> dict[str, str]: ...


class ExistingSite:
    """A running site (``--url``) whose database this machine can reach."""

    create_users = Topology.create_users  # only needs django(): the same seeding code

    def __init__(self, base_url: str, database_url: str):
        self.base_url = base_url.rstrip("/")
        self.database_url = database_url

    def django(self, code: str) -> str:
        env = {**os.environ, "DATABASE_URL": self.database_url}
        env.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
        return run_manage(["shell", "-c", code], env).stdout

    def sql(self, query: str, *params: Any) -> list[tuple]:
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            return conn.execute(query, params).fetchall()


@dataclass
class Plan:
    """The seeded round: who plays whom, and what each player will report."""

    event_id: int
    organiser_token: str
    organiser: str
    reports: list[dict] = field(default_factory=list)  # {match, token, score, player}
    expected: dict[int, dict] = field(default_factory=dict)  # match id -> what must be stored


@dataclass
class Report:
    players: int
    matches: int
    conflicts: int
    spread: float
    requests: int = 0
    ok: int = 0
    status_counts: dict[str, int] = field(default_factory=dict)
    server_errors: int = 0
    transport_errors: int = 0
    window_seconds: float = 0.0
    throughput_rps: float = 0.0
    latency_ms: dict[str, float] = field(default_factory=dict)
    load_average: list[float] = field(default_factory=list)
    web: str = ""
    integrity_failures: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    server_log: list[str] = field(default_factory=list)  # gunicorn's errors, if any
    # The same number of authenticated GETs of the event's API resource, same arrivals,
    # same server, right after the reports: what the site serves when nothing is written.
    baseline_throughput_rps: float = 0.0
    baseline_latency_ms: dict[str, float] = field(default_factory=dict)
    baseline_failures: int = 0

    @property
    def report_to_read_ratio(self) -> float:
        """Report throughput as a share of the GET baseline (goal: at least 0.5)."""
        if not self.baseline_throughput_rps:
            return 0.0
        return round(self.throughput_rps / self.baseline_throughput_rps, 2)

    @property
    def passed(self) -> bool:
        return not self.failures and not self.integrity_failures


# -- set-up (untimed) ----------------------------------------------------------------------


def seed(site: Site, players: int, conflicts: int, rng: random.Random) -> Plan:
    """Accounts, an event with everyone checked in, round 1 paired and started over HTTP."""
    prefix = f"load{uuid.uuid4().hex[:6]}"
    names = [f"{prefix}-p{i:04d}" for i in range(1, players + 1)]
    tokens = site.create_users([f"{prefix}-olive", *names])
    organiser = f"{prefix}-olive"
    code = (
        "from django.contrib.auth.models import User\n"
        "from arbiter import worlds\n"
        f"olive = User.objects.get(username={organiser!r})\n"
        f"users = list(User.objects.filter(username__in={names!r}).order_by('username'))\n"
        "world = worlds.build_event(users, name='Load Open', organiser=olive, judge=None, "
        "paired=False, swiss_rounds=9, seed=20261129)\n"
        "print(world.event.pk)\n"
    )
    event_id = int(site.django(code).strip().splitlines()[-1])
    headers = {"Authorization": f"Token {tokens[organiser]}"}
    with httpx.Client(base_url=site.base_url, headers=headers, timeout=120) as http:
        paired = http.post(f"/api/v1/events/{event_id}/rounds/")
        if paired.status_code != 201:
            raise RuntimeError(f"pairing round 1 failed: {paired.status_code} {paired.text}")
        started = http.post(f"/api/v1/events/{event_id}/rounds/1/start/")
        if started.status_code != 200:
            raise RuntimeError(f"starting round 1 failed: {started.status_code} {started.text}")
    plan = Plan(event_id, tokens[organiser], organiser)
    tables = [m for m in paired.json()["matches"] if not m["bye"]]
    step = max(1, len(tables) // max(1, conflicts))
    conflicting = {m["id"] for m in tables[::step][:conflicts]}
    for match in tables:
        first, second = match["players"]
        if match["id"] in conflicting:  # both claim the win
            words, stored = ("2-0", "2-0"), {"status": "disputed", "games": None}
        else:
            words = rng.choice(AGREED)
            stored = {"status": "confirmed", "games": _games(words[0])}
        stored.update(players=(first["registration"], second["registration"]))
        plan.expected[match["id"]] = stored
        for player, score in zip((first, second), words, strict=True):
            token = tokens[player["name"]]
            plan.reports.append(
                {"match": match["id"], "token": token, "score": score, "player": player["name"]}
            )
    return plan


def _games(first_players_words: str) -> tuple[int, int, int]:
    """(first player's wins, second player's wins, draws) from the first player's report."""
    parts = [int(p) for p in first_players_words.split("-")] + [0]
    return parts[0], parts[1], parts[2]


# -- the timed window --------------------------------------------------------------------


async def _one_report(
    http: httpx.AsyncClient, report: dict, delay: float, latencies: list, outcomes: list
) -> None:
    await asyncio.sleep(delay)
    started = time.perf_counter()
    try:
        response = await http.post(
            f"/api/v1/matches/{report['match']}/report/",
            json={"score": report["score"]},
            headers={"Authorization": f"Token {report['token']}"},
        )
    except httpx.HTTPError as exc:
        outcomes.append((report, None, f"{type(exc).__name__}: {exc}"))
        return
    latencies.append(time.perf_counter() - started)
    outcomes.append((report, response.status_code, response.text[:300]))


async def warm_up(http: httpx.AsyncClient, plan: Plan, requests: int = 64) -> None:
    """Players read the event before they report: every web thread has served a request
    and holds its imports and caches, as on a site that has been up for a while."""
    answers = await asyncio.gather(
        *(http.get(f"/api/v1/events/{plan.event_id}/") for _ in range(requests))
    )
    bad = [a.status_code for a in answers if a.status_code != 200]
    if bad:
        raise RuntimeError(f"the warm-up requests failed: {bad[:5]}")


async def _one_read(
    http: httpx.AsyncClient, path: str, token: str, delay: float, latencies: list, codes: list
) -> None:
    await asyncio.sleep(delay)
    started = time.perf_counter()
    try:
        response = await http.get(path, headers={"Authorization": f"Token {token}"})
    except httpx.HTTPError:
        codes.append(None)
        return
    latencies.append(time.perf_counter() - started)
    codes.append(response.status_code)


async def read_everything(
    base_url: str, plan: Plan, spread: float, limit: float, rng: random.Random
) -> tuple[float, list[float], list]:
    """The baseline: each player reads the event over the API once, as they reported."""
    latencies: list[float] = []
    codes: list = []
    path = f"/api/v1/events/{plan.event_id}/"

    def read(http: httpx.AsyncClient, report: dict, delay: float):
        return _one_read(http, path, report["token"], delay, latencies, codes)

    window = await _every_player_once(base_url, plan, spread, limit, rng, read)
    return window, latencies, codes


async def _every_player_once(
    base_url: str, plan: Plan, spread: float, limit: float, rng: random.Random, request
) -> float:
    """One request per player (``request(http, report, delay)``), one connection each,
    arriving at once or over ``spread`` seconds; the window's seconds."""
    players = len(plan.reports)
    limits = httpx.Limits(max_connections=players, max_keepalive_connections=players)
    timeout = httpx.Timeout(limit + 30, connect=limit)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout) as http:
        delays = [rng.uniform(0, spread) if spread else 0.0 for _ in plan.reports]
        began = time.perf_counter()
        await asyncio.gather(
            *(
                request(http, report, delay)
                for report, delay in zip(plan.reports, delays, strict=True)
            )
        )
        return time.perf_counter() - began


def latency_summary(latencies: list[float]) -> dict[str, float]:
    """p50/p95/p99/max in milliseconds."""
    return {
        name: round(percentile(latencies, share) * 1000, 1)
        for name, share in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
    }


async def report_everything(
    base_url: str, plan: Plan, spread: float, limit: float, rng: random.Random
) -> tuple[float, list[float], list]:
    """Every player reports once; returns (window seconds, latencies, outcomes)."""
    latencies: list[float] = []
    outcomes: list = []
    timeout = httpx.Timeout(limit + 30, connect=limit)
    async with httpx.AsyncClient(base_url=base_url, timeout=timeout) as http:
        await warm_up(http, plan)  # its own connections: the players' phones connect afresh

    def report(http: httpx.AsyncClient, item: dict, delay: float):
        return _one_report(http, item, delay, latencies, outcomes)

    window = await _every_player_once(base_url, plan, spread, limit, rng, report)
    return window, latencies, outcomes


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (share in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(share * len(ordered))))
    return ordered[rank - 1]


# -- after the window: integrity ------------------------------------------------------------


def check_integrity(site: Site, plan: Plan) -> list[str]:
    """Everything the players rely on, read back with SQL; an empty list when it holds."""
    problems: list[str] = []
    rows = site.sql(
        "SELECT m.id, m.status, m.games, m.player_a_id, m.player_b_id, m.is_bye "
        "FROM tournaments_match m JOIN tournaments_round r ON r.id = m.round_id "
        "WHERE r.event_id = %s AND r.number = 1",
        plan.event_id,
    )
    seats = [p for row in rows for p in (row[3], row[4]) if p is not None]
    if len(seats) != len(set(seats)):
        problems.append("a player is seated at two tables")
    tables = {row[0]: row for row in rows if not row[5]}
    if set(tables) != set(plan.expected):
        problems.append(f"{len(tables)} matches stored, {len(plan.expected)} paired")
    for match_id, expected in plan.expected.items():
        row = tables.get(match_id)
        if row is None:
            continue
        _, status, games, a, b, _ = row
        if status != expected["status"]:
            problems.append(f"match {match_id}: {status}, expected {expected['status']}")
        if expected["games"] is not None:
            stored = (games.count(a), games.count(b), games.count(None))
            if stored != expected["games"]:
                problems.append(f"match {match_id}: stored {stored}, reported {expected['games']}")
    problems += _check_result_log(site, plan)
    return problems


def _check_result_log(site: Site, plan: Plan) -> list[str]:
    """One ResultChange row per report: report then confirm (or dispute), nothing else."""
    rows = site.sql(
        "SELECT c.match_id, array_agg(c.action ORDER BY c.id) FROM tournaments_resultchange c "
        "JOIN tournaments_match m ON m.id = c.match_id "
        "JOIN tournaments_round r ON r.id = m.round_id "
        "WHERE r.event_id = %s GROUP BY c.match_id",
        plan.event_id,
    )
    logged = dict(rows)
    problems = []
    for match_id, expected in plan.expected.items():
        second = "dispute" if expected["status"] == "disputed" else "confirm"
        if logged.get(match_id) != ["report", second]:
            problems.append(f"match {match_id}: result log {logged.get(match_id)}")
    total = sum(len(actions) for actions in logged.values())
    if total != len(plan.reports):
        problems.append(f"{total} result-log rows for {len(plan.reports)} reports")
    events = site.sql(
        "SELECT action, count(*) FROM tournaments_eventlog WHERE event_id = %s GROUP BY action",
        plan.event_id,
    )
    if dict(events) != {"check_in": 1, "pair": 1, "start": 1}:
        problems.append(f"event log {dict(events)}, expected one check-in, pair and start")
    return problems


def check_judge_sees_disputes(site: Site, plan: Plan) -> list[str]:
    """The disputed tables are in the round API and on the judge console, not final."""
    problems = []
    disputed = {m for m, e in plan.expected.items() if e["status"] == "disputed"}
    with httpx.Client(base_url=site.base_url, timeout=60) as http:
        headers = {"Authorization": f"Token {plan.organiser_token}"}
        matches = http.get(f"/api/v1/events/{plan.event_id}/rounds/1/", headers=headers).json()[
            "matches"
        ]
        shown = {m["id"] for m in matches if m["status"] == "disputed"}
        if shown != disputed:
            problems.append(f"the round API shows {len(shown)} disputed of {len(disputed)}")
        tables = {m["table"] for m in matches if m["id"] in disputed}
        http.get("/accounts/login/")
        http.post(
            "/accounts/login/",
            data={
                "username": plan.organiser,
                "password": PASSWORD,
                "csrfmiddlewaretoken": http.cookies.get("csrftoken", ""),
            },
            headers={"Referer": site.base_url + "/accounts/login/"},
        )
        console = http.get(f"/events/{plan.event_id}/judge/").text
        listed = {int(t) for t in re.findall(r"judge/tables/\d+/\">Table (\d+)</a>", console)}
        if not tables <= listed:
            problems.append(f"judge console lists tables {sorted(listed)}, not {sorted(tables)}")
    return problems


# -- the whole run ---------------------------------------------------------------------------


def run_in_own_loop(coroutine: Any) -> Any:
    """``asyncio.run`` on a thread of its own: the caller's thread may already run a loop
    (pytest-playwright's, when the browser tests ran earlier in the same session)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def run_load(
    site: Site,
    players: int = 512,
    spread: float = 0.0,
    conflicts: int = 8,
    limit: float = 60.0,
    seed_value: int = 9,
) -> Report:
    """Seed, run the timed window, check integrity; the figures and any failures."""
    if players < 4 or players % 2:
        raise ValueError("--players must be an even number, at least 4")
    rng = random.Random(seed_value)
    plan = seed(site, players, conflicts, rng)
    report = Report(players, len(plan.expected), min(conflicts, len(plan.expected)), spread)
    report.web = site.base_url
    window, latencies, outcomes = run_in_own_loop(
        report_everything(site.base_url, plan, spread, limit, rng)
    )
    report.load_average = [round(x, 2) for x in os.getloadavg()]
    report.requests = len(outcomes)
    report.window_seconds = round(window, 3)
    report.throughput_rps = round(len(outcomes) / window, 1) if window else 0.0
    if latencies:
        report.latency_ms = latency_summary(latencies)
    _judge_outcomes(report, plan, outcomes, limit, window)
    report.integrity_failures = check_integrity(site, plan) + check_judge_sees_disputes(site, plan)
    read_window, read_latencies, codes = run_in_own_loop(
        read_everything(site.base_url, plan, spread, limit, rng)
    )
    report.baseline_throughput_rps = round(len(codes) / read_window, 1) if read_window else 0.0
    if read_latencies:
        report.baseline_latency_ms = latency_summary(read_latencies)
    report.baseline_failures = sum(1 for code in codes if code != 200)
    return report


def _judge_outcomes(report: Report, plan: Plan, outcomes: list, limit: float, window: float):
    for item, code, text in outcomes:
        key = str(code) if code is not None else "error"
        report.status_counts[key] = report.status_counts.get(key, 0) + 1
        if code is None:
            report.transport_errors += 1
        elif code >= 500:
            report.server_errors += 1
        if code == 200:
            report.ok += 1
        elif len(report.failures) < 10:
            report.failures.append(f"{item['player']} on match {item['match']}: {code} {text}")
    if report.requests != len(plan.reports):
        report.failures.append(f"{report.requests} answers for {len(plan.reports)} reports")
    if report.ok != len(plan.reports):
        report.failures.append(f"only {report.ok} of {len(plan.reports)} reports succeeded")
    if window > limit:
        report.failures.append(f"the reports took {window:.1f} s, over the {limit:.0f} s limit")


def start_site(site: Topology, workers: int = WEB_WORKERS, threads: int = WEB_THREADS) -> None:
    """gunicorn and one Celery worker, sized for the 2-core machine (see WEB_WORKERS)."""
    site.start_web(workers=workers, threads=threads)
    site.start_worker(concurrency=1)


@contextlib.contextmanager
def own_topology(workers: int, threads: int):
    """A throw-away topology: migrated template, database, Redis, gunicorn, a worker."""
    with throwaway_topology("arbiter-load-") as site:
        start_site(site, workers, threads)
        yield site


def print_report(report: Report) -> None:
    lat = report.latency_ms
    print(
        f"players {report.players}  matches {report.matches}  conflicts {report.conflicts}  "
        f"spread {report.spread:g} s  web {report.web}"
    )
    print(
        f"requests {report.requests}  ok {report.ok}  5xx {report.server_errors}  "
        f"transport errors {report.transport_errors}  statuses {report.status_counts}"
    )
    if lat:
        print(f"latency ms  p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  max {lat['max']}")
    print(
        f"window {report.window_seconds:.2f} s  throughput {report.throughput_rps} req/s  "
        f"load average {report.load_average}"
    )
    base = report.baseline_latency_ms
    if base:
        print(
            f"baseline GETs  throughput {report.baseline_throughput_rps} req/s  p50 {base['p50']}"
            f"  p99 {base['p99']} ms  failed {report.baseline_failures}  reports/GETs "
            f"{report.report_to_read_ratio} (goal: at least 0.5)"
        )
    for problem in report.failures + report.integrity_failures:
        print(f"FAIL: {problem}")
    if not report.passed:
        for line in report.server_log:
            print(f"gunicorn: {line}")
    print("PASS" if report.passed else "FAILED")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument(
        "--spread", type=float, default=0.0, help="arrivals spread over this many seconds"
    )
    parser.add_argument("--conflicts", type=int, default=8, help="tables whose reports disagree")
    parser.add_argument(
        "--limit",
        type=float,
        help="seconds every report must fit (default 60, or the spread + 10 s beyond 50 s)",
    )
    parser.add_argument("--url", help="a running site instead of a topology of its own")
    parser.add_argument("--database-url", help="with --url: the site's database, for seeding")
    parser.add_argument("--web-workers", type=int, default=WEB_WORKERS)
    parser.add_argument("--web-threads", type=int, default=WEB_THREADS)
    parser.add_argument(
        "--db-conn-max-age",
        type=int,
        help="DB_CONN_MAX_AGE for the topology's gunicorn (default: the site's default, 0)",
    )
    parser.add_argument(
        "--db-pool-size",
        type=int,
        help="DB_POOL_SIZE for the topology's gunicorn: a connection pool per process "
        "(default: the site's production default, GUNICORN_THREADS + 1; 0 turns it off)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.players < 4 or args.players % 2:
        parser.error("--players must be an even number, at least 4")
    if args.url and not args.database_url:
        parser.error("--url needs --database-url (seeding and the integrity check read it)")
    options = {"players": args.players, "spread": args.spread, "conflicts": args.conflicts}
    # Arrivals spread over a minute end at the minute: the last report needs a moment more.
    options["limit"] = args.limit if args.limit is not None else max(60.0, args.spread + 10)
    if args.db_conn_max_age is not None:  # the topology passes the environment on
        os.environ["DB_CONN_MAX_AGE"] = str(args.db_conn_max_age)
    if args.db_pool_size is not None:
        os.environ["DB_POOL_SIZE"] = str(args.db_pool_size)
    try:
        if args.url:
            report = run_load(ExistingSite(args.url, args.database_url), **options)
            report.web = args.url
        else:
            with own_topology(args.web_workers, args.web_threads) as site:
                report = run_load(site, **options)
                age = os.environ.get("DB_CONN_MAX_AGE", "0")
                default = "0" if age != "0" else f"{args.web_threads + 1} (default)"
                pool = os.environ.get("DB_POOL_SIZE", default)  # kept connections: no pool
                report.web = (
                    f"gunicorn {args.web_workers}x{args.web_threads}, conn age {age}, pool {pool}"
                )
    except ValueError as exc:
        parser.error(str(exc))
    print_report(report)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    **asdict(report),
                    "report_to_read_ratio": report.report_to_read_ratio,
                    "passed": report.passed,
                },
                indent=2,
            )
        )
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
