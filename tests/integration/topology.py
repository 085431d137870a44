"""The production topology as processes on loopback, for the integration suite.

One ``Topology`` is one deployment: its own PostgreSQL database (copied from a
migrated template), its own ``redis-server`` on a free port (so a test may stop it; the
broker, the cache and the channel layer each in a database of their own), gunicorn serving
HTTP and WebSockets with ``deploy/gunicorn.conf.py`` (uvicorn workers), and real
``celery worker`` processes. Tests talk to it only over HTTP (``SiteClient``) and read its database
with plain SQL (``Topology.sql``), as an operator would.

PostgreSQL must be reachable (``ARBITER_TEST_PG_ADMIN_URL``, default
``postgres://postgres@127.0.0.1:5432/postgres``); ``redis-server`` must be installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get(
    "ARBITER_TEST_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
START_HELP = (
    "The topology suite needs PostgreSQL and redis-server. On Debian: "
    "`apt-get install -y postgresql redis-server`, then "
    "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` and "
    "`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save ''` "
    "(scripts/test does this with ARBITER_INSTALL_SERVICES=1)."
)
PASSWORD = "topology-pass-1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


def missing_services() -> str | None:
    """Why the topology cannot start here, or None when it can."""
    parts = urlsplit(PG_ADMIN_URL)
    if not port_open(parts.port or 5432, parts.hostname or "127.0.0.1"):
        return f"PostgreSQL is not reachable at {PG_ADMIN_URL}. {START_HELP}"
    if shutil.which("redis-server") is None:
        return f"redis-server is not installed. {START_HELP}"
    return None


def database_url(name: str, admin_url: str | None = None) -> str:
    parts = urlsplit(admin_url or PG_ADMIN_URL)
    return urlunsplit(parts._replace(path=f"/{name}"))


def admin_sql(statement: str, admin_url: str | None = None) -> None:
    with psycopg.connect(admin_url or PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(statement)


def run_manage(
    args: Any, env: dict[str, str], *, check: bool = True, timeout: float = 600
) -> subprocess.CompletedProcess:
    """``manage.py`` under ``env``; with ``check``, a failure raises with its stderr."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check and done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-4000:]}")
    return done


@dataclass
class Process:
    """A child process in its own process group, its output kept in a log file."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen | None = None

    def start(self) -> Process:
        handle = self.log.open("ab")
        self.popen = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=self.env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        handle.close()
        return self

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def signal_group(self, sig: int) -> None:
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)

    def stop(self, timeout: float = 20) -> None:
        """Ask politely (SIGTERM to the whole group), then SIGKILL."""
        if self.popen is None:
            return
        self.signal_group(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        # Children of a dead parent (prefork workers) may outlive it; end them too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)

    def kill(self) -> None:
        """The power cut: SIGKILL to every process of the group, no clean-up."""
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)


class RedisServer:
    """A private redis-server on a free loopback port, stoppable and restartable."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.workdir = workdir
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        argv = [
            shutil.which("redis-server") or "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.workdir),
        ]
        self.process = Process("redis", argv, dict(os.environ), self.workdir / "redis.log")
        self.process.start()
        wait_until(lambda: port_open(self.port), 15, f"redis-server on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            wait_until(lambda: not port_open(self.port), 10, "redis-server to stop")


@dataclass
class Topology:
    """One deployment of Arbiter on loopback; see the module docstring."""

    workdir: Path
    static_root: Path
    template_db: str
    db_name: str = field(default_factory=lambda: f"arbiter_topo_{uuid.uuid4().hex[:10]}")
    web_port: int = field(default_factory=free_port)
    processes: dict[str, Process] = field(default_factory=dict)
    # Another PostgreSQL server than PG_ADMIN_URL's (e.g. a private cluster a test restarts).
    pg_admin_url: str | None = None
    # Extra environment for every process started after it is set (e.g. a short
    # CELERY_VISIBILITY_TIMEOUT for a test that kills a worker).
    extra_env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.redis = RedisServer(self.workdir)
        self.media_root = self.workdir / "media"
        self.media_root.mkdir(parents=True, exist_ok=True)

    # -- lifecycle ---------------------------------------------------------------
    def create(self) -> Topology:
        admin_sql(
            f'CREATE DATABASE "{self.db_name}" TEMPLATE "{self.template_db}"', self.pg_admin_url
        )
        self.redis.start()
        return self

    def destroy(self) -> None:
        for process in list(self.processes.values()):
            process.stop(timeout=10)
        self.redis.stop()
        with contextlib.suppress(psycopg.Error):
            admin_sql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)', self.pg_admin_url)

    @property
    def env(self) -> dict[str, str]:
        """Production settings, but plain HTTP on loopback (no TLS redirect, no secure cookies)."""
        base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
        return {
            **base,
            "DJANGO_SETTINGS_MODULE": "arbiter.settings",
            "DEBUG": "false",
            "SECRET_KEY": "topology-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SITE_URL": self.base_url,
            "DATABASE_URL": database_url(self.db_name, self.pg_admin_url),
            "CELERY_BROKER_URL": f"{self.redis.url}/0",
            "CACHE_URL": f"{self.redis.url}/1",
            "REDIS_URL": f"{self.redis.url}/2",  # the channel layer: live notices
            "CELERY_QUEUE": "arbiter",
            "MEDIA_ROOT": str(self.media_root),
            "STATIC_ROOT": str(self.static_root),
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }

    @property
    def base_url(self) -> str:
        return self.url_at()

    def url_at(self, port: int | None = None, scheme: str = "http") -> str:
        """The site's address at ``port`` (the first web's by default); ``ws`` for sockets."""
        return f"{scheme}://127.0.0.1:{port or self.web_port}"

    def start_web(
        self,
        workers: int | None = 2,
        threads: int | None = 4,
        *,
        name: str = "web",
        port: int | None = None,
    ) -> Process:
        """gunicorn as deployed; ``name`` and ``port`` start another one beside it (a
        second web machine behind the same load balancer, sharing database and Redis).

        ``workers`` or ``threads`` None leaves them to deploy/gunicorn.conf.py's defaults
        (or to WEB_CONCURRENCY / GUNICORN_THREADS in the environment), as a site runs."""
        port = port or self.web_port
        env = {**self.env, "GUNICORN_BIND": f"127.0.0.1:{port}"}
        if workers is not None:
            env["WEB_CONCURRENCY"] = str(workers)
        if threads is not None:
            env["GUNICORN_THREADS"] = str(threads)
        argv = [sys.executable, "-m", "gunicorn", "arbiter.asgi:application"]
        conf = ROOT / "deploy" / "gunicorn.conf.py"
        if conf.exists():
            argv[3:3] = ["-c", str(conf)]
        else:  # the flags deploy/gunicorn.conf.py sets from the same variables
            argv += ["--bind", env["GUNICORN_BIND"], "--workers", str(workers or 2)]
            argv += ["--threads", str(threads or 4)]
            argv += ["--worker-class", "arbiter.asgi_worker.ArbiterWorker"]
        process = self._spawn(name, argv, env)
        wait_until(
            lambda: self._answers("/healthz", port) or self._died(process),
            60,
            f"gunicorn ({name}) to answer /healthz",
        )
        self._check_alive(process)
        return process

    def start_worker(
        self, name: str = "worker", concurrency: int = 2, queues: str = "arbiter-small,arbiter"
    ) -> Process:
        """A real ``celery worker``; returns once it has said it is ready.

        It takes both queues, the small one first, as deploy/ runs every worker;
        ``queues="arbiter-small"`` is deploy's worker for small jobs only.
        """
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "arbiter",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            str(concurrency),
            "--hostname",
            f"{name}-{uuid.uuid4().hex[:6]}@%h",
            "--queues",
            queues,
            "--without-gossip",
            "--without-mingle",
        ]
        process = self._spawn(name, argv, self.env)
        wait_until(
            lambda: re.search(r"\bready\b", process.output()) or self._died(process),
            60,
            f"celery worker {name} to be ready",
        )
        self._check_alive(process)
        return process

    def start_beat(self) -> Process:
        """``celery beat`` sending the periodic tasks (its schedule file in the workdir)."""
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "arbiter",
            "beat",
            "--loglevel",
            "INFO",
            "--schedule",
            str(self.workdir / "celerybeat-schedule"),
        ]
        process = self._spawn("beat", argv, self.env)
        wait_until(
            lambda: "Starting..." in process.output() or self._died(process),
            60,
            "celery beat to start",
        )
        self._check_alive(process)
        return process

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return run_manage(args, self.env, check=check)

    def django(self, code: str) -> str:
        """Run Python inside the deployment's Django (``manage.py shell -c``); its stdout."""
        return self.manage("shell", "-c", code).stdout

    def create_users(self, usernames: list[str]) -> dict[str, str]:
        """Accounts with password ``PASSWORD`` and an API token each; {username: token}.

        One password hash serves every account (the salt is inside it), so seeding
        512 players costs one PBKDF2 run, not 512.
        """
        code = (
            "import json, sys\n"
            "from django.contrib.auth.hashers import make_password\n"
            "from django.contrib.auth.models import User\n"
            "from accounts import tokens\n"
            "from accounts.models import ApiToken\n"
            f"names = {usernames!r}\n"
            f"hashed = make_password({PASSWORD!r})\n"
            "User.objects.bulk_create([User(username=n, password=hashed) for n in names])\n"
            "users = User.objects.filter(username__in=names)\n"
            "keys = {u.username: tokens.new_key() for u in users}\n"
            "ApiToken.objects.bulk_create([ApiToken(user=u, digest=tokens.digest(keys[u.username]),"
            " prefix=keys[u.username][:8]) for u in users])\n"
            "print(json.dumps(keys))\n"
        )
        return json.loads(self.django(code).strip().splitlines()[-1])

    def sql(self, query: str, *params: Any) -> list[tuple]:
        url = database_url(self.db_name, self.pg_admin_url)
        with psycopg.connect(url, autocommit=True) as conn:
            return conn.execute(query, params).fetchall()

    def client(self, **kwargs: Any) -> SiteClient:
        return SiteClient(self.base_url, **kwargs)

    # -- internals -----------------------------------------------------------------
    def _spawn(self, name: str, argv: list[str], env: dict[str, str]) -> Process:
        old = self.processes.get(name)
        if old is not None and old.alive:
            raise RuntimeError(f"{name} is already running")
        process = Process(name, argv, env, self.workdir / f"{name}.log").start()
        self.processes[name] = process
        return process

    def _answers(self, path: str, port: int | None = None) -> bool:
        try:
            return httpx.get(self.url_at(port) + path, timeout=2).status_code < 600
        except httpx.HTTPError:
            return False

    @staticmethod
    def _died(process: Process) -> bool:
        return not process.alive

    @staticmethod
    def _check_alive(process: Process) -> None:
        if not process.alive:
            raise RuntimeError(f"{process.name} exited:\n{process.output()[-4000:]}")


class SiteClient:
    """An HTTP client that behaves like a browser for forms and like a tool for the API."""

    def __init__(
        self, base_url: str, token: str | None = None, timeout: float = 30, verify: bool = True
    ):
        """``verify=False``: a load balancer's self-signed certificate (the two-node test)."""
        headers = {"Authorization": f"Token {token}"} if token else {}
        self.http = httpx.Client(base_url=base_url, headers=headers, timeout=timeout, verify=verify)

    def close(self) -> None:
        self.http.close()

    @property
    def csrf(self) -> str:
        token = self.http.cookies.get("csrftoken")
        if token is None:
            self.http.get("/accounts/login/")
            token = self.http.cookies.get("csrftoken")
        return token or ""

    def login(self, username: str, password: str = PASSWORD) -> SiteClient:
        response = self.form("/accounts/login/", {"username": username, "password": password})
        if "sessionid" not in self.http.cookies:
            raise AssertionError(f"log-in as {username} failed: {response.status_code}")
        return self

    def form(self, path: str, data: dict[str, Any], files: Any = None) -> httpx.Response:
        """POST a form as the browser would (CSRF token in the body, Referer set)."""
        body = {"csrfmiddlewaretoken": self.csrf, **data}
        headers = {"Referer": str(self.http.base_url) + path}
        return self.http.post(path, data=body, files=files, headers=headers)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.get(path, **kwargs)

    def api(self, method: str, path: str, json: Any = None) -> httpx.Response:
        headers = {"X-CSRFToken": self.csrf, "Referer": str(self.http.base_url) + path}
        return self.http.request(method, path, json=json, headers=headers)


def migrated_template(static_root: Path, admin_url: str | None = None) -> Iterator[str]:
    """A migrated database to copy per topology, and collected static files.

    ``admin_url`` names another PostgreSQL server than ``PG_ADMIN_URL``'s.
    """
    name = f"arbiter_topo_template_{uuid.uuid4().hex[:8]}"
    admin_sql(f'CREATE DATABASE "{name}"', admin_url)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))},
        "DATABASE_URL": database_url(name, admin_url),
        "DEBUG": "false",
        "SECRET_KEY": "topology-" + "x" * 50,
        "STATIC_ROOT": str(static_root),
        "DJANGO_SETTINGS_MODULE": "arbiter.settings",
    }
    env.pop("CELERY_BROKER_URL", None)
    env.pop("CACHE_URL", None)
    try:
        for args in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            run_manage(args, env)
        yield name
    finally:
        with contextlib.suppress(psycopg.Error):
            admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', admin_url)


@contextlib.contextmanager
def throwaway_topology(prefix: str, extra_env: dict[str, str] | None = None) -> Iterator[Topology]:
    """A created topology in a temporary directory, destroyed after: the benchmarks' site.

    Exits with the reason when PostgreSQL or Redis is missing, as a command line should.
    """
    why = missing_services()
    if why:
        raise SystemExit(why)
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    static = workdir / "static"
    template = migrated_template(static)
    site = None
    try:
        site = Topology(workdir=workdir / "site", static_root=static, template_db=next(template))
        site.extra_env.update(extra_env or {})
        site.create()
        yield site
    finally:
        if site is not None:
            site.destroy()
        template.close()
