"""Venue mode as an organiser starts it: ``scripts/venue`` bound to every interface.

It serves a page, its static files and the live socket (checked over loopback, and over
the LAN address when the machine has one); closing a round through the site tells the
socket and writes the snapshot and the database backup into the venue folder. Needs no PostgreSQL or
Redis (venue mode uses neither), so it runs in the first pass of ``scripts/test``.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from arbiter import venue
from tests.arbiter.test_venue import clean_environ, not_owner_only
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "venue"
# Round 1 of a four-player event, paired and played out, and the organiser's API key.
SET_UP = """
import json
from accounts.tokens import issue_token
from arbiter import worlds
from tournaments.results import services as results
world = worlds.build_event(4, name="Venue Open", organiser="olive", judge=None, password="pw")
for match in world.round.matches.filter(is_bye=False):
    results.enter_result(match, results.Score.parse("2-0"), world.organiser)
print(json.dumps({"event": world.event.pk, "token": issue_token(world.organiser).key}))
"""
START_SECONDS = 300
# A permissive umask, as many laptops have: the venue's files must be owner-only anyway.
UMASK = 0o002


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_venue(folder: Path, port: int, *args: str, timeout: int = 600) -> str:
    done = subprocess.run(
        [str(SCRIPT), "--dir", str(folder), "--port", str(port), *args],
        cwd=ROOT,
        env=venue_environ(),
        capture_output=True,
        text=True,
        timeout=timeout,
        umask=UMASK,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def venue_environ() -> dict[str, str]:
    """The test run's environment without what a venue started here must not inherit."""
    return clean_environ(PYTHONUNBUFFERED="1")


def get(url: str, **headers: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def wait_until_serving(port: int, server: subprocess.Popen, log: Path) -> None:
    def serving() -> bool:
        if server.poll() is not None:
            pytest.fail(f"venue mode stopped (exit {server.returncode}):\n{log.read_text()}")
        try:
            return get(f"http://127.0.0.1:{port}/healthz")[0] == 200
        except OSError:
            return False

    wait_until(serving, START_SECONDS, lambda: f"venue mode to answer:\n{log.read_text()}", 0.5)


@pytest.fixture
def venue_folder(tmp_path) -> Path:
    return tmp_path / "venue"


def test_venue_mode_serves_the_hall_and_backs_up_after_a_round(venue_folder, tmp_path):
    port = free_port()
    prepared = run_venue(venue_folder, port, "--prepare-only")
    assert "Collecting static files" in prepared
    assert f":{port}" in prepared  # the address phones open is printed (and its QR code)
    assert not not_owner_only(venue_folder)  # 0700 folders, 0600 files, whatever the umask
    made = json.loads(run_venue(venue_folder, port, "shell", "-c", SET_UP).splitlines()[-1])
    event, token = made["event"], made["token"]

    log = tmp_path / "venue.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [str(SCRIPT), "--bind", "0.0.0.0", "--port", str(port), "--dir", str(venue_folder)],
            cwd=ROOT,
            env=venue_environ(),
            stdout=output,
            stderr=subprocess.STDOUT,
            umask=UMASK,
        )
    try:
        wait_until_serving(port, server, log)
        started = log.read_text()
        assert f"Listening on TCP address 0.0.0.0:{port}" in started
        assert "Collecting static files" not in started  # nothing changed since prepare

        base = f"http://127.0.0.1:{port}"
        status, page = get(f"{base}/events/{event}/")
        assert status == 200 and "Venue Open" in page
        script = re.search(r'src="(/static/[^"]+\.js)"', page).group(1)
        assert get(f"{base}{script}")[0] == 200  # static files served, by hashed name
        lan = venue.lan_address()
        if lan != venue.LOOPBACK:  # the address a phone on the network would open
            assert get(f"http://{lan}:{port}/events/{event}/")[0] == 200

        with connect(f"ws://127.0.0.1:{port}/ws/events/{event}/", origin=base) as live:
            live.send(json.dumps({"type": "ping"}))
            assert json.loads(live.recv(timeout=10)) == {"type": "pong"}

            close = urllib.request.Request(
                f"{base}/api/v1/events/{event}/rounds/1/close/",
                method="POST",
                headers={"Authorization": f"Token {token}"},
            )
            with urllib.request.urlopen(close, timeout=30) as response:
                assert json.loads(response.read())["status"] == "closed"
            # The follower is told, over the same in-memory layer (one server process).
            notices = [json.loads(live.recv(timeout=10)) for _ in range(2)]
            [told] = [notice for notice in notices if notice["type"] == "round"]
            assert (told["event"], told["round"], told["status"]) == (event, 1, "closed")

        backups = venue_folder / "backups"
        [snapshot] = backups.glob(f"*-event-{event}-round-1.arbiter-event.json")
        document = json.loads(snapshot.read_text())
        assert document["format"] == "arbiter-event/1"
        assert document["event"]["name"] == "Venue Open"
        assert [p.suffix for p in backups.glob(f"*-event-{event}-round-1.sqlite3")] == [".sqlite3"]
        assert not not_owner_only(venue_folder)  # the backups and the WAL included
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert (venue_folder / "arbiter.sqlite3").is_file()
    assert not not_owner_only(venue_folder)
