"""A PostgreSQL restart with the connection pool on, as production runs by default (issue 31).

gunicorn with the project's config and the production settings (DEBUG off: the pool is on
without being asked for), a private PostgreSQL cluster stopped (fast shutdown, as an
operator's restart) for about 10 s and started again, and two clients reading an event
page five times a second each, a third the API. Every answer must be a 200 or the "database
is unavailable" 503 (no 500, no connection dropped), the first 503 must come within 5 s
of the stop (connect_timeout, the bound without a pool), no answer may take longer than
the pool's next connection attempt allows (made every second: 2.5 s, plus 1 s of slack for
the shared machine), and the pages must be 200s again within 5 s of PostgreSQL accepting
connections.

Measured on this 2-core machine shared with other test runs: with the pool of
arbiter/postgresql/pool.py (three runs), the first 503 within 0.1 s of the stop, the
slowest answer during the outage 0.8-1.4 s, a report posted during it a 503 in 0.8-0.9 s,
the first 200 0.9-1.1 s after PostgreSQL was back. With psycopg_pool's own ConnectionPool
and the same settings: the first 503 5.0 s after the stop, every answer during the outage
5.0-5.1 s (each request waited the pool's whole timeout), the report 5.0 s; its first 200
came 0.4 s after the return only because a retry happened to fall then (the second test
shows a 20 s outage leaving it without a connection).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import httpx
import psycopg
import pytest

from arbiter.postgresql.pool import RETRY_SECONDS, PromptPool
from tests.integration.test_faults import ORGANISER, assert_database_down, seed

pytestmark = pytest.mark.integration

OUTAGE = 10  # seconds PostgreSQL stays down
POLL_EVERY = 0.2
WAIT_BOUND = 5  # the most a request may wait for its 503 (connect_timeout without a pool)
# What the pool promises (arbiter/postgresql/pool.py): a request waits at most for its next
# connection attempt, made every second, not for the whole WAIT_BOUND.
PROMPT = RETRY_SECONDS + 1.5
SLACK = 1.0  # polling and scheduling on a shared machine


@dataclass
class Answer:
    started: float
    ended: float
    status: int | str  # the HTTP status, or the transport error's name
    text: str = ""

    @property
    def took(self) -> float:
        return self.ended - self.started


class Poller(threading.Thread):
    """GETs ``path`` every POLL_EVERY seconds until stopped, noting every answer."""

    def __init__(self, client: httpx.Client, path: str) -> None:
        super().__init__(daemon=True)
        self.client, self.path = client, path
        self.answers: list[Answer] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                response = self.client.get(self.path)
                status, text = response.status_code, response.text
            except httpx.HTTPError as error:
                status, text = type(error).__name__, str(error)
            self.answers.append(Answer(started, time.monotonic(), status, text))
            self.stopping.wait(max(0.0, POLL_EVERY - (time.monotonic() - started)))

    def stop(self) -> list[Answer]:
        self.stopping.set()
        self.join(timeout=30)
        return self.answers


def test_a_postgresql_restart_with_the_pool_gives_prompt_503s_then_200s(pg_site, private_cluster):
    site = pg_site
    seeded = seed(site, 8)
    event, match = seeded["event"], seeded["match"]
    site.extra_env["GUNICORN_THREADS"] = "4"  # as start_web sets it: the pool's size follows
    pooled = site.django(
        "from django.db import connection as c; "
        "print(c.settings_dict['ENGINE'], c.settings_dict['OPTIONS'].get('pool'))"
    )
    assert "arbiter.postgresql {'min_size': 0, 'max_size': 5" in pooled, pooled
    site.start_web(workers=2, threads=4)
    organiser = site.client().login(ORGANISER)
    tool = site.client(token=seeded["tokens"][seeded["names"][0]])
    page = f"/events/{event}/"
    pollers = [
        Poller(organiser.http, page),
        Poller(httpx.Client(base_url=site.base_url, timeout=30), page),
        Poller(tool.http, f"/api/v1/events/{event}/"),
    ]
    for poller in pollers:
        poller.start()
    time.sleep(3)

    stopped_at = time.monotonic()
    private_cluster.stop("fast")
    time.sleep(OUTAGE / 2)
    posted_at = time.monotonic()
    posted = tool.api("POST", f"/api/v1/matches/{match}/report/", {"score": "2-0"})
    post_took = time.monotonic() - posted_at
    time.sleep(OUTAGE / 2)
    private_cluster.start()  # returns once PostgreSQL accepts connections
    back_at = time.monotonic()
    time.sleep(8)
    answers = sorted((a for p in pollers for a in p.stop()), key=lambda a: a.started)

    # A write during the outage is the API's 503, not a 500, and is not applied.
    assert_database_down(posted, api=True)
    assert post_took < PROMPT + SLACK, f"the report waited {post_took:.1f} s"

    odd = [(round(a.started - stopped_at, 1), a.status, a.text[:200]) for a in answers
           if a.status not in (200, 503)]  # fmt: skip
    assert not odd, f"answers other than 200 and 503 (s after the stop): {odd}"
    before = [a for a in answers if a.ended < stopped_at]
    assert before and all(a.status == 200 for a in before)
    for answer in answers:
        if answer.status == 503:
            assert "database is unavailable" in answer.text.lower(), answer.text[:300]

    first_503 = min(a.ended for a in answers if a.status == 503) - stopped_at
    slowest = max(a.took for a in answers if stopped_at <= a.started < back_at)
    first_200 = min(a.ended for a in answers if a.status == 200 and a.started >= back_at)
    late_503s = [round(a.started - back_at, 1) for a in answers
                 if a.status == 503 and a.started > back_at + WAIT_BOUND]  # fmt: skip
    figures = (
        f"first 503 {first_503:.1f} s after the stop, slowest answer during the outage "
        f"{slowest:.1f} s, first 200 {first_200 - back_at:.1f} s after PostgreSQL was back, "
        f"the report {post_took:.1f} s; {len(answers)} answers"
    )
    print(figures)
    assert first_503 <= WAIT_BOUND + SLACK, figures
    assert slowest <= WAIT_BOUND + SLACK, figures
    assert first_200 - back_at <= WAIT_BOUND, figures
    # Stricter than without a pool's bound: psycopg_pool alone kept every request for its
    # whole timeout (first 503 5.0 s after the stop, every answer 5.0-5.1 s).
    assert slowest <= PROMPT + SLACK, figures
    assert not late_503s, f"503s after the pool should have recovered: {late_503s}; {figures}"
    assert site.sql("SELECT status FROM tournaments_match WHERE id = %s", match) != [
        ("reported",)
    ], "the report made during the outage was applied"

    # Everything works again, the write included.
    reported = tool.api("POST", f"/api/v1/matches/{match}/report/", {"score": "2-0"})
    assert reported.status_code == 200 and reported.json()["status"] == "reported"


def test_the_pool_fails_at_once_and_has_a_connection_within_a_second_of_postgresql_returning(
    private_cluster,
):
    """The pool alone, one connection. psycopg_pool by itself made each request wait its
    whole timeout (5.0 s) while PostgreSQL was down, and retried the lost connection 1, 3,
    7, 15 and 31 s after its first failure (+-10%): after a 20 s outage the next try
    came some 10 s after PostgreSQL was back, and a request meanwhile was a 503."""
    pool = PromptPool(
        private_cluster.admin_url,
        kwargs={"connect_timeout": 5, "autocommit": True},
        min_size=1,
        max_size=1,
        timeout=WAIT_BOUND,
        check=PromptPool.check_connection,
        open=True,
    )
    try:
        pool.wait(timeout=30)
        with pool.connection() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        stopped_at = time.monotonic()
        private_cluster.stop("fast")
        for _ in range(3):  # the dead connection, then attempts that are refused
            started = time.monotonic()
            with pytest.raises(psycopg.OperationalError):
                pool.getconn()
            took = time.monotonic() - started
            assert took <= PROMPT, f"a refused connection took {took:.1f} s to be told"
        time.sleep(max(0.0, stopped_at + 2 * OUTAGE - time.monotonic()))
        private_cluster.start()
        back_at = time.monotonic()
        conn = pool.getconn(timeout=PROMPT)  # the pool's next attempt, not its back-off
        reconnected = time.monotonic() - back_at
        assert conn.execute("SELECT 1").fetchone() == (1,)
        pool.putconn(conn)
        print(f"pool: a connection {reconnected:.1f} s after PostgreSQL was back")
    finally:
        pool.close()
