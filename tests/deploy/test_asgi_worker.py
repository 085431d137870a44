"""The worker's bound on requests inside Django: PostgreSQL sees at most `threads` web
connections per process however many requests arrive at once; sockets are not held up."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import threading
import urllib.request
from pathlib import Path

from arbiter.asgi_worker import BoundedHTTP
from tests.deploy.test_deploy_files import (
    DEPLOY,
    ROOT,
    VENV_BIN,
    free_port,
    healthz_request,
    production_env,
)
from tests.waiting import wait_until


def run_on_its_own_loop(main) -> None:
    """``asyncio.run`` on a thread of its own: a browser test earlier in this process may
    leave its event loop running on the main thread."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if failures:
        raise failures[0]


class CountingApp:
    """An ASGI app that records how many HTTP requests are inside it at once."""

    def __init__(self) -> None:
        self.inside = 0
        self.most = 0
        self.served: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.inside += 1
        self.most = max(self.most, self.inside)
        # The request's work: a fixed time inside, so that the others arrive meanwhile.
        await asyncio.sleep(0.01)
        self.inside -= 1
        self.served.append(scope["type"])


def test_at_most_the_limit_of_requests_are_inside_at_once_and_all_are_served():
    app = CountingApp()
    bounded = BoundedHTTP(app, limit=3)

    async def main() -> None:
        await asyncio.gather(*(bounded({"type": "http"}, None, None) for _ in range(40)))

    run_on_its_own_loop(main)
    assert app.most == 3
    assert app.served == ["http"] * 40


def test_a_websocket_does_not_wait_for_a_request_slot():
    gate = asyncio.Event()
    holding = asyncio.Event()
    opened: list[str] = []

    async def app(scope, receive, send) -> None:
        if scope["type"] == "http":
            holding.set()
            await gate.wait()  # the only slot, held until the socket has opened
        opened.append(scope["type"])

    bounded = BoundedHTTP(app, limit=1)

    async def main() -> None:
        request = asyncio.create_task(bounded({"type": "http"}, None, None))
        await asyncio.wait_for(holding.wait(), timeout=2)  # the request has the slot
        await asyncio.wait_for(bounded({"type": "websocket"}, None, None), timeout=2)
        gate.set()
        await request

    run_on_its_own_loop(main)
    assert opened == ["websocket", "http"]


def test_gunicorns_quick_shutdown_stops_its_uvicorn_workers(tmp_path):
    """SIGINT to gunicorn (a test's stop, Ctrl-C): every worker is gone within seconds, none
    left serving after gunicorn itself has gone."""
    port = free_port()
    env = production_env(tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="2")
    conf = str(DEPLOY / "gunicorn.conf.py")
    log = (tmp_path / "gunicorn.log").open("w")
    master = subprocess.Popen(
        [str(VENV_BIN / "gunicorn"), "-c", conf], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    served = 0

    def both_serving() -> bool:  # both workers up and serving (each has loaded Django)
        nonlocal served
        assert master.poll() is None, "gunicorn exited"
        try:
            with urllib.request.urlopen(healthz_request(port), timeout=5) as response:
                served += response.status == 200
        except OSError:
            return False
        return served >= 4

    try:
        wait_until(both_serving, 60, "gunicorn to start and serve", interval=0.3)
        children = Path(f"/proc/{master.pid}/task/{master.pid}/children")
        workers = [int(pid) for pid in children.read_text().split()]
        assert len(workers) == 2
        master.send_signal(signal.SIGINT)
        master.wait(timeout=10)
        wait_until(
            lambda: not [pid for pid in workers if Path(f"/proc/{pid}").exists()],
            0.5,
            lambda: f"the workers to be gone with gunicorn: {workers}",
            interval=0.05,
        )
    finally:
        if master.poll() is None:
            master.kill()
        log.close()
