"""scripts/dev says where it serves: the address it logs is the one it hands runserver,
ARBITER_ADDR's when set (a port, host:port or [IPv6]:port), not always port 8000.

Its last step (``serve_dev`` in scripts/lib.sh) is run here as the script runs it, with
``echo`` standing in for Python, so no server starts."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def serve_dev(addr: str | None) -> tuple[str, str]:
    """(the URL scripts/dev logs, the address it runs runserver on) for ARBITER_ADDR."""
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_ADDR"}
    if addr is not None:
        env["ARBITER_ADDR"] = addr
    answer = subprocess.run(
        ["bash", "-c", "set -euo pipefail; source scripts/lib.sh; PY=echo; serve_dev"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    logged = re.search(r"serving Arbiter at (\S+)", answer.stdout)
    served = re.search(r"manage\.py runserver (\S+)", answer.stdout)
    assert logged and served, answer.stdout
    return logged.group(1), served.group(1)


@pytest.mark.parametrize(
    ("addr", "logged", "served"),
    [
        (None, "http://127.0.0.1:8000/", "127.0.0.1:8000"),
        ("", "http://127.0.0.1:8000/", "127.0.0.1:8000"),
        ("8102", "http://127.0.0.1:8102/", "127.0.0.1:8102"),
        ("127.0.0.1:8102", "http://127.0.0.1:8102/", "127.0.0.1:8102"),
        ("localhost:9000", "http://localhost:9000/", "localhost:9000"),
        ("0.0.0.0:8102", "http://127.0.0.1:8102/", "0.0.0.0:8102"),
        ("[::1]:8102", "http://[::1]:8102/", "[::1]:8102"),
        ("[::]:8102", "http://[::1]:8102/", "[::]:8102"),
    ],
)
def test_the_logged_address_is_the_served_one(addr, logged, served):
    assert serve_dev(addr) == (logged, served)


def test_scripts_dev_serves_through_that_step():
    """scripts/dev ends with serve_dev and names no address of its own to serve on."""
    commands = [
        line.split("#")[0].strip()
        for line in (ROOT / "scripts" / "dev").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert commands[-1] == "serve_dev"
    assert not any("runserver" in command or "8000" in command for command in commands)
