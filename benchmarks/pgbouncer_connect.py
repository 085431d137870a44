"""What a request pays for its database connection behind PgBouncer, with and without a pool;
and what it sees while PostgreSQL restarts behind PgBouncer.

Run (PostgreSQL on 127.0.0.1:5432, Debian's pgbouncer installed):
    .venv/bin/python benchmarks/pgbouncer_connect.py [--queries 300]
    .venv/bin/python benchmarks/pgbouncer_connect.py --restart

Starts PgBouncer from deploy/pgbouncer/pgbouncer.ini (as the two-node topology test does:
transaction mode, SCRAM password check) in front of the ``postgres`` database and times,
per query: a new connection through PgBouncer then ``SELECT 1`` (a request without
DB_POOL_SIZE), a new connection straight to PostgreSQL then ``SELECT 1`` (for comparison;
loopback trust, no password exchange), and ``SELECT 1`` on a kept connection through
PgBouncer (a request with the pool). Wall time and this process's CPU per query.

``--restart``: a private PostgreSQL cluster (tests/integration/private_pg.py) behind PgBouncer
is stopped; timed: how long a query on a kept connection, then one on a new connection,
takes to fail; then, once the cluster is started again, until a new connection answers.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.integration.balancer import PgBouncer
from tests.integration.private_pg import PrivateCluster
from tests.integration.topology import PG_ADMIN_URL, database_url


def timed(run: Callable[[], None], count: int) -> tuple[float, float]:
    """(wall ms, CPU ms) per call of ``run``."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        run()
    return (
        (time.perf_counter() - wall) / count * 1000,
        (time.process_time() - cpu) / count * 1000,
    )


def new_connection(url: str) -> Callable[[], None]:
    def run() -> None:
        with psycopg.connect(url, prepare_threshold=None) as conn:
            conn.execute("SELECT 1").fetchone()

    return run


def failing_after(run: Callable[[], None]) -> tuple[float, str]:
    """Seconds until ``run`` raised, and its error's first line."""
    started = time.monotonic()
    try:
        run()
    except psycopg.Error as error:
        return time.monotonic() - started, str(error).strip().splitlines()[0]
    raise AssertionError("a query answered while PostgreSQL was down")


def restart() -> None:
    cluster = PrivateCluster().init()
    bouncer = None
    try:
        bouncer = PgBouncer(cluster.admin_url).start()
        url = bouncer.url("postgres")
        kept = psycopg.connect(url, prepare_threshold=None, autocommit=True)
        kept.execute("SELECT 1")
        cluster.stop()
        for what, run in (
            ("kept connection", lambda: kept.execute("SELECT 1")),
            ("new connection", new_connection(url)),
        ):
            seconds, error = failing_after(run)
            print(f"PostgreSQL down, {what}: failed after {seconds:.1f} s ({error})")
        cluster.start()
        back = time.monotonic()
        while time.monotonic() - back < 60:
            try:
                new_connection(url)()
                break
            except psycopg.Error:
                time.sleep(0.1)
        print(f"PostgreSQL back: a new connection answered {time.monotonic() - back:.1f} s later")
    finally:
        if bouncer is not None:
            bouncer.stop()
        cluster.destroy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--restart", action="store_true", help="PostgreSQL restarted instead")
    arguments = parser.parse_args()
    if arguments.restart:
        restart()
        return
    count = arguments.queries
    bouncer = PgBouncer(PG_ADMIN_URL).start()
    try:
        through = bouncer.url("postgres")
        with psycopg.connect(through, prepare_threshold=None) as kept:
            rows = [
                ("new connection through PgBouncer", timed(new_connection(through), count)),
                (
                    "new connection to PostgreSQL",
                    timed(new_connection(database_url("postgres")), count),
                ),
                (
                    "kept connection through PgBouncer",
                    timed(lambda: kept.execute("SELECT 1").fetchone(), count),
                ),
            ]
        for what, (wall, cpu) in rows:
            print(f"{what:36} {wall:6.2f} ms wall {cpu:6.2f} ms CPU per query")
    finally:
        bouncer.stop()


if __name__ == "__main__":
    main()
