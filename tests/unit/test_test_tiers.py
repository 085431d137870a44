"""The services pass of scripts/test runs only what uses the database, and an empty run
still fails unless everything selected was left to the first pass."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE = "tests/unit/rules_engine/test_registry.py"
USES_THE_DATABASE = "tests/arbiter/test_demo.py"


def pytest_run(*args: str, services_pass: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_TEST_PASS"}
    if services_pass:
        env["ARBITER_TEST_PASS"] = "services"
    # Collection only, without the plugins these files do not use: each run is a cold start.
    quiet = [f"-pno:{name}" for name in ("cacheprovider", "playwright", "anyio", "schemathesis")]
    command = [sys.executable, "-m", "pytest", "-q", "--collect-only", *quiet, *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


def test_the_services_pass_keeps_only_the_tests_that_use_the_database():
    run = pytest_run(PURE, USES_THE_DATABASE, services_pass=True)
    assert run.returncode == 0, run.stdout + run.stderr
    kept = [line for line in run.stdout.splitlines() if "::" in line]
    assert kept and all(line.startswith(USES_THE_DATABASE) for line in kept)
    assert "deselected" in run.stdout


def test_only_pure_tests_selected_pass_but_nothing_selected_still_fails():
    pure_only = pytest_run(PURE, services_pass=True)
    assert pure_only.returncode == 0, pure_only.stdout + pure_only.stderr
    assert "selected tests are pure; the first pass ran them" in pure_only.stdout
    nothing = pytest_run(PURE, "-k", "no_such_test", services_pass=True)
    assert nothing.returncode == 5, nothing.stdout + nothing.stderr
