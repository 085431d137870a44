"""What a request pays for its database connection behind PgBouncer, with and without a pool.

Run (PostgreSQL on 127.0.0.1:5432, Debian's pgbouncer installed):
    .venv/bin/python benchmarks/pgbouncer_connect.py [--queries 300]

Starts PgBouncer from deploy/pgbouncer/pgbouncer.ini (as the two-node topology test does:
transaction mode, SCRAM password check) in front of the ``postgres`` database and times,
per query: a new connection through PgBouncer then ``SELECT 1`` (a request without
DB_POOL_SIZE), a new connection straight to PostgreSQL then ``SELECT 1`` (for comparison;
loopback trust, no password exchange), and ``SELECT 1`` on a kept connection through
PgBouncer (a request with the pool). Wall time and this process's CPU per query.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    count = parser.parse_args().queries
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
