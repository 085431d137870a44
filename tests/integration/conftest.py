"""Fixtures that start Arbiter's production topology on loopback (see topology.py).

The topology runs in scripts/test's second pass, where PostgreSQL and Redis are
required; in the first pass (the embedded default) it is skipped with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.integration import private_pg
from tests.integration.topology import (
    Topology,
    database_url,
    migrated_template,
    missing_services,
)


def _why_not() -> str | None:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        return "the topology suite runs in scripts/test's second pass (PostgreSQL + Redis)"
    missing = missing_services()
    if missing and os.environ.get("ARBITER_REQUIRE_SERVICES") == "1":
        pytest.fail(missing)
    return missing


@pytest.fixture(scope="session")
def topology_template(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    reason = _why_not()
    if reason:
        pytest.skip(reason)
    static_root = tmp_path_factory.mktemp("static")
    for name in migrated_template(static_root):
        yield name, static_root


@pytest.fixture
def make_topology(topology_template, tmp_path) -> Iterator[Callable[[], Topology]]:
    """Make deployments (each with its own database and Redis); all torn down after."""
    made: list[Topology] = []
    template, static_root = topology_template

    def make() -> Topology:
        topology = Topology(
            workdir=tmp_path / f"site{len(made)}", static_root=static_root, template_db=template
        )
        made.append(topology)
        return topology.create()

    yield make
    for topology in made:
        topology.destroy()


@pytest.fixture
def topology(make_topology) -> Topology:
    """A running deployment: gunicorn (2 processes) and one celery worker."""
    site = make_topology()
    site.start_web()
    site.start_worker()
    return site


@pytest.fixture
def private_cluster(topology_template) -> private_pg.PrivateCluster:
    reason = private_pg.why_not()
    if reason:
        pytest.skip(f"cannot run a private PostgreSQL cluster to restart: {reason}")
    cluster = private_pg.PrivateCluster().init()
    yield cluster
    cluster.destroy()


@pytest.fixture
def pg_site(private_cluster, topology_template, tmp_path) -> Topology:
    """A deployment on the private cluster (its template copied from the shared one)."""
    template, static_root = topology_template
    private_cluster.copy_database(database_url(template), "arbiter_template")
    site = Topology(
        workdir=tmp_path / "pg-site",
        static_root=static_root,
        template_db="arbiter_template",
        pg_admin_url=private_cluster.admin_url,
    )
    site.create()
    yield site
    site.destroy()
