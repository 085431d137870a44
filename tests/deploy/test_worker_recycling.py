"""No request is lost to a worker's restart (issue 31, point 1).

gunicorn recycles each worker after ``GUNICORN_MAX_REQUESTS`` requests and replaces every
worker on a rolling restart (HUP). Browsers and API clients keep their connection open
between requests; a stopping worker used to close those idle connections at once, and a
request already on its way got no answer (``RemoteDisconnected``, ``ConnectionResetError``:
140 of 800 in the reproduction). Now a stopping worker answers what reaches it with
``Connection: close`` and lets idle connections go at their keep-alive timeout, so the
client opens its next connection to a worker that is staying.
"""

from __future__ import annotations

import http.client
import signal
import subprocess
import threading
import urllib.request
from pathlib import Path

from tests.deploy.test_deploy_files import (
    DEPLOY,
    ROOT,
    VENV_BIN,
    free_port,
    healthz_request,
    production_env,
)
from tests.waiting import wait_until

CLIENTS = 16
REQUESTS_EACH = 50
HEADERS = {"Host": "arbiter.example.org", "X-Forwarded-Proto": "https"}


def start_gunicorn(tmp_path: Path, **settings: str) -> tuple[subprocess.Popen, int, Path]:
    port = free_port()
    env = production_env(tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", **settings)
    log_path = tmp_path / "gunicorn.log"
    log = log_path.open("w")
    master = subprocess.Popen(
        [str(VENV_BIN / "gunicorn"), "-c", str(DEPLOY / "gunicorn.conf.py")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
    )
    log.close()

    def serving() -> bool:
        assert master.poll() is None, "gunicorn exited: " + log_path.read_text()[-2000:]
        try:
            with urllib.request.urlopen(healthz_request(port), timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    wait_until(serving, 90, "gunicorn to start and serve", interval=0.3)
    return master, port, log_path


def keep_alive_client(port: int, answers: list[int], errors: list[str]) -> None:
    """One browser-like client: one connection kept open, reopened only when the server
    says it closes it (``Connection: close``) or when it fails."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(REQUESTS_EACH):
        try:
            connection.request("GET", "/healthz", headers=HEADERS)
            response = connection.getresponse()
            response.read()
            answers.append(response.status)
        except (http.client.HTTPException, OSError) as failure:
            errors.append(type(failure).__name__)
            connection.close()
    connection.close()


def burst(port: int, during=None) -> tuple[list[int], list[str]]:
    """Every client's requests at once; ``during(answers)`` runs while they are under way."""
    answers: list[int] = []
    errors: list[str] = []
    clients = [
        threading.Thread(target=keep_alive_client, args=(port, answers, errors))
        for _ in range(CLIENTS)
    ]
    for client in clients:
        client.start()
    if during is not None:
        during(answers)
    for client in clients:
        client.join(timeout=300)
    return answers, errors


def boots(log_path: Path) -> int:
    return log_path.read_text().count("Booting worker")


def test_recycled_workers_answer_every_request_on_kept_connections(tmp_path):
    master, port, log_path = start_gunicorn(
        tmp_path,
        WEB_CONCURRENCY="2",
        GUNICORN_MAX_REQUESTS="40",
        GUNICORN_MAX_REQUESTS_JITTER="0",
    )
    try:
        booted = boots(log_path)
        answers, errors = burst(port)
        assert boots(log_path) - booted >= 5, "the workers were recycled during the burst"
        assert errors == [], f"{len(errors)} requests got no answer: {sorted(set(errors))}"
        assert answers == [200] * (CLIENTS * REQUESTS_EACH)
    finally:
        master.send_signal(signal.SIGINT)
        master.wait(timeout=30)


def test_a_rolling_restart_answers_every_request_on_kept_connections(tmp_path):
    master, port, log_path = start_gunicorn(tmp_path, WEB_CONCURRENCY="2")
    try:
        booted = boots(log_path)

        def rolling_restart(answers: list[int]) -> None:  # a deploy: the old workers drained
            wait_until(lambda: len(answers) >= 100, 60, "the burst to be under way")
            master.send_signal(signal.SIGHUP)

        answers, errors = burst(port, during=rolling_restart)
        wait_until(lambda: boots(log_path) - booted >= 2, 30, "the new workers to boot")
        assert errors == [], f"{len(errors)} requests got no answer: {sorted(set(errors))}"
        assert answers == [200] * (CLIENTS * REQUESTS_EACH)
    finally:
        master.send_signal(signal.SIGINT)
        master.wait(timeout=30)


def test_a_draining_worker_is_heard_until_it_has_answered_everything(tmp_path):
    """gunicorn kills a worker it has not heard from for GUNICORN_TIMEOUT seconds. uvicorn
    spoke only from its serving loop, which ends when the worker starts to drain, so a
    worker still answering its queued requests (or waiting on kept-alive connections) was
    killed mid-drain (WORKER TIMEOUT) and its requests got no answer: 84 in the hosted
    weekend benchmark at 300 events. Here the drain lasts past the timeout (the kept-alive
    connection may stay 15 s; gunicorn's patience is 4 s) and a request sent on that
    connection 6 s into the drain must still be answered."""
    master, port, log_path = start_gunicorn(
        tmp_path,
        WEB_CONCURRENCY="1",
        GUNICORN_MAX_REQUESTS="20",
        GUNICORN_MAX_REQUESTS_JITTER="0",
        GUNICORN_TIMEOUT="4",
        GUNICORN_KEEPALIVE="15",
    )
    kept = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        kept.request("GET", "/healthz", headers=HEADERS)
        first = kept.getresponse()
        first.read()
        assert first.status == 200 and first.getheader("Connection") != "close"

        def draining() -> bool:
            if "Maximum request limit" in log_path.read_text():
                return True
            with urllib.request.urlopen(healthz_request(port), timeout=30) as response:
                response.read()
            return False

        wait_until(draining, 60, "the worker to reach its request limit", interval=0.05)
        threading.Event().wait(6)  # past gunicorn's 4 s, within the connection's 15 s
        kept.request("GET", "/healthz", headers=HEADERS)
        late = kept.getresponse()
        late.read()
        assert late.status == 200
        assert late.getheader("Connection") == "close"
        assert "WORKER TIMEOUT" not in log_path.read_text()
    finally:
        kept.close()
        master.send_signal(signal.SIGINT)
        master.wait(timeout=30)
