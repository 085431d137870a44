"""TRUSTED_PROXIES through the real stack: gunicorn with deploy/gunicorn.conf.py and the
site on a migrated SQLite file, requests over a socket from 127.0.0.1 (plain HTTP, DEBUG
on, so that no collected static files are needed).

With 127.0.0.1 listed the connection is our proxy, and each X-Forwarded-For client has its
own password-reset limit; with only another address listed the same connection is a
direct client, and the made-up header is ignored: the limit holds.
"""

from __future__ import annotations

import http.client
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.test_deploy_files import DEPLOY, ROOT, VENV_BIN, free_port, production_env
from tests.waiting import wait_until

HOST = "arbiter.example.org"
RESETS_PER_ADDRESS = 5  # PASSWORD_RESET_ADDRESS_LIMIT's default


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    tmp_path = tmp_path_factory.mktemp("proxies")
    env = production_env(tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    return tmp_path


def start(tmp_path: Path, trusted: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = production_env(
        tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", TRUSTED_PROXIES=trusted
    )
    env["DEBUG"] = "true"
    log = (tmp_path / f"gunicorn-{port}.log").open("w")
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

    def answers() -> bool:
        try:
            if request(port, "GET", "/healthz")[0] == 200:
                return True
        except OSError:
            pass
        assert process.poll() is None, (tmp_path / f"gunicorn-{port}.log").read_text()
        return False

    wait_until(answers, 60, "gunicorn to answer /healthz", interval=0.3)
    return process, port


def stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def request(port: int, method: str, path: str, body: str = "", **headers: str):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        sent = {"Host": HOST, **headers}
        if body:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body or None, headers=sent)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


def ask_for_reset(port: int, forwarded_for: str) -> int:
    """One password-reset request for an address no account uses; its status code."""
    _, headers, page = request(port, "GET", "/accounts/password_reset/")
    cookie = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    status, _, _ = request(
        port,
        "POST",
        "/accounts/password_reset/",
        f"csrfmiddlewaretoken={token}&email=nobody%40example.org",
        Cookie=f"csrftoken={cookie}",
        **{"X-Forwarded-For": forwarded_for},
    )
    return status


def test_through_a_trusted_proxy_each_forwarded_client_is_counted(migrated):
    process, port = start(migrated, "127.0.0.1,::1")
    try:
        for n in range(RESETS_PER_ADDRESS):
            assert ask_for_reset(port, f"192.0.2.{n}, 203.0.113.5") == 302
        assert ask_for_reset(port, "203.0.113.5") == 429
        assert ask_for_reset(port, "203.0.113.6") == 302  # another client of the proxy
    finally:
        stop(process)


def test_from_an_untrusted_address_x_forwarded_for_is_ignored(migrated):
    process, port = start(migrated, "192.0.2.254")  # the proxy is elsewhere: we are direct
    try:
        for n in range(RESETS_PER_ADDRESS):
            assert ask_for_reset(port, f"203.0.113.{n}") == 302
        assert ask_for_reset(port, "203.0.113.99") == 429
    finally:
        stop(process)
