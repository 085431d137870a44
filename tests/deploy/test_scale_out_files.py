"""deploy/'s files for a grown site: PgBouncer (ini, image, compose override, systemd drop-in)
and the HAProxy load balancer. What they promise is checked here without running them; the
two-node topology test (tests/integration/test_two_nodes.py) runs them."""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.deploy.test_deploy_files import DEPLOY, ENV_EXAMPLE, compose_command
from tests.integration.balancer import HAProxy, program

PGBOUNCER = DEPLOY / "pgbouncer"
OVERRIDE = DEPLOY / "docker-compose.pgbouncer.yml"
HAPROXY_CFG = DEPLOY / "haproxy" / "haproxy.cfg"
THROUGH_PGBOUNCER = ("web", "worker", "worker-small", "beat")


def pgbouncer_ini() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(
        interpolation=None, comment_prefixes=(";",), inline_comment_prefixes=None
    )
    parser.optionxform = str
    parser.read_string((PGBOUNCER / "pgbouncer.ini").read_text())
    return parser


def drop_in(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read_string((DEPLOY / "systemd" / f"{name}.service.d" / "arbiter.conf").read_text())
    return parser


@pytest.fixture(scope="module")
def with_pgbouncer() -> dict:
    """Compose's configuration with the override, as `docker compose config` prints it."""
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/")}
    files = ["-f", str(DEPLOY / "docker-compose.yml"), "-f", str(OVERRIDE)]
    result = subprocess.run(
        [*compose_command(), *files, "--env-file", str(ENV_EXAMPLE), "config", "--format", "json"],
        capture_output=True,
        text=True,
        env=clean,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["services"]


def test_pgbouncer_pools_per_transaction_within_postgresqls_limit():
    ini = pgbouncer_ini()
    bouncer = ini["pgbouncer"]
    assert bouncer["pool_mode"] == "transaction"
    assert bouncer["auth_type"] == "scram-sha-256"
    # What PostgreSQL sees stays below its default 100 connections, 3 kept for superusers,
    # with room for migrate, backups and psql.
    to_postgres = int(bouncer["default_pool_size"]) + int(bouncer["reserve_pool_size"])
    assert to_postgres <= int(bouncer["max_db_connections"]) <= 100 - 3 - 10
    # A request waits for a server connection no longer than for PostgreSQL without
    # PgBouncer (connect_timeout 5 s), not PgBouncer's default 2 minutes, and PostgreSQL
    # back from a restart is logged in to within seconds.
    assert int(bouncer["query_wait_timeout"]) <= 5
    assert int(bouncer["server_login_retry"]) <= 2
    # Beside PostgreSQL: the databases are on this machine.
    assert ini["databases"]["*"] == "host=127.0.0.1 port=5432"


def test_pgbouncer_has_a_descriptor_for_every_client_it_accepts(with_pgbouncer):
    bouncer = pgbouncer_ini()["pgbouncer"]
    needed = int(bouncer["max_client_conn"]) + int(bouncer["max_db_connections"])
    assert int(drop_in("pgbouncer")["Service"]["LimitNOFILE"]) > needed
    assert with_pgbouncer["pgbouncer"]["ulimits"]["nofile"]["soft"] > needed


def test_compose_override_sends_the_app_through_pgbouncer_and_migrate_direct(with_pgbouncer):
    services = with_pgbouncer
    port = pgbouncer_ini()["pgbouncer"]["listen_port"]
    for name in THROUGH_PGBOUNCER:
        environment = services[name]["environment"]
        url = urlsplit(environment["DATABASE_URL"])
        assert (url.hostname, str(url.port)) == ("db", port), name
        assert environment["DB_PGBOUNCER"] == "true", name
        assert services[name]["depends_on"]["pgbouncer"]["condition"] == "service_healthy"
        # Everything else of the main file is kept (the merge adds, it does not replace).
        assert services[name]["depends_on"]["migrate"]["condition"].startswith("service_")
        assert environment["REDIS_URL"] == "redis://redis:6379/2"
    assert urlsplit(services["migrate"]["environment"]["DATABASE_URL"]).port == 5432
    assert "DB_PGBOUNCER" not in services["migrate"]["environment"]


def test_compose_pgbouncer_runs_the_shipped_ini_beside_postgresql(with_pgbouncer):
    pgbouncer = with_pgbouncer["pgbouncer"]
    # The db container's network: 127.0.0.1:5432 in pgbouncer.ini is PostgreSQL there too.
    assert pgbouncer["network_mode"] == "service:db"
    mounts = {v["target"]: v for v in pgbouncer["volumes"]}
    ini = mounts["/etc/pgbouncer/pgbouncer.ini"]
    assert Path(ini["source"]) == PGBOUNCER / "pgbouncer.ini" and ini["read_only"]
    assert Path(pgbouncer["build"]["context"]) == PGBOUNCER
    assert pgbouncer["environment"]["POSTGRES_PASSWORD"] == "CHANGE-ME-db-password"
    assert str(pgbouncer_ini()["pgbouncer"]["listen_port"]) in " ".join(
        pgbouncer["healthcheck"]["test"]
    )


def test_the_pgbouncer_image_is_debians_package_writing_the_ini_userlist():
    dockerfile = (PGBOUNCER / "Dockerfile").read_text()
    assert re.search(r"^FROM debian:bookworm", dockerfile, re.M)  # the tests' PgBouncer 1.18
    assert "apt-get install -y --no-install-recommends pgbouncer" in dockerfile
    assert re.search(r"^USER postgres$", dockerfile, re.M)  # PgBouncer refuses root
    entrypoint = (PGBOUNCER / "docker-entrypoint.sh").read_text()
    auth_file = pgbouncer_ini()["pgbouncer"]["auth_file"]
    assert f">{auth_file}" in entrypoint and "umask 077" in entrypoint
    assert "exec pgbouncer /etc/pgbouncer/pgbouncer.ini" in entrypoint
    assert os.access(PGBOUNCER / "docker-entrypoint.sh", os.X_OK)


def test_the_balancer_sets_forwarded_headers_checks_health_and_retries_elsewhere():
    cfg = HAPROXY_CFG.read_text()
    assert "http-request set-header X-Forwarded-Proto https" in cfg
    assert re.search(r"^\s+option forwardfor$", cfg, re.M)
    assert "uri /healthz" in cfg and "hdr X-Forwarded-Proto https" in cfg
    assert re.search(r"^\s+retries [1-9]$", cfg, re.M)
    assert re.search(r"^\s+option redispatch 1$", cfg, re.M)
    # A socket is pinged every 20 s (live-updates.md): the tunnel's idle limit is above it.
    tunnel = re.search(r"timeout tunnel (\d+)(h|m|s)", cfg)
    assert tunnel and int(tunnel[1]) * {"h": 3600, "m": 60, "s": 1}[tunnel[2]] > 20
    assert len(re.findall(r"^\s+server web\d+ ", cfg, re.M)) >= 2
    limit = int(drop_in("haproxy")["Service"]["LimitNOFILE"])
    assert limit >= 100_000  # two descriptors per connection, a socket per phone


@pytest.mark.skipif(not program("haproxy"), reason="haproxy not installed")
def test_haproxy_accepts_the_shipped_config(tmp_path):
    """HAProxy's own parser, with only addresses and the certificate's path changed."""
    text = HAProxy(tmp_path, {"web1": 8001, "web2": 8002}).config()
    (tmp_path / "haproxy.cfg").write_text(text)
    result = subprocess.run(
        [program("haproxy") or "haproxy", "-c", "-f", str(tmp_path / "haproxy.cfg")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "[WARNING]" not in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
@pytest.mark.parametrize("name", ["pgbouncer", "haproxy"])
def test_systemd_reads_the_drop_ins(tmp_path, name):
    """A unit like Debian's with the drop-in beside it: systemd's parser finds nothing wrong."""
    unit = tmp_path / f"{name}.service"
    unit.write_text(f"[Unit]\nDescription={name}\n[Service]\nExecStart=/bin/true\n")
    (tmp_path / f"{name}.service.d").mkdir()
    shutil.copy(
        DEPLOY / "systemd" / f"{name}.service.d" / "arbiter.conf", tmp_path / f"{name}.service.d"
    )
    result = subprocess.run(
        ["systemd-analyze", "verify", f"./{name}.service"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), (
        result.stdout + result.stderr
    )
