"""The services pass of scripts/test runs only what uses the database, the database tests
and the topology in two parts, and an empty run still fails unless everything selected
was left to another pass or part: end to end, a real pytest collecting real test files.

tests/unit/test_test_tiers.py checks each decision of tests/tiers.py without a pytest
process; this checks what it cannot: that the real files carry the markers and fixtures
the tiers read, and that tests/conftest.py's hooks reach pytest (its "deselected" count,
exit code 5, the order). Each run is a cold start of pytest, so these live outside the
unit tier and run once, in the first pass (they use no service: the second deselects them).
"""

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = "tests/unit/rules_engine/test_registry.py"
USES_THE_DATABASE = "tests/arbiter/test_demo.py"
BROWSER = "tests/e2e/test_csp.py"
TOPOLOGY = "tests/integration/test_load.py"
# The browser test first on the command line: the first pass's run of all four also shows
# it moved last, so the order test reuses that run instead of starting pytest again.
ALL = (BROWSER, PURE, USES_THE_DATABASE, TOPOLOGY)


@cache
def pytest_run(*args: str, test_pass: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_TEST_PASS"}
    if test_pass:
        env["ARBITER_TEST_PASS"] = test_pass
    # Collection only, without the plugins these files do not use: each run is a cold start.
    quiet = [f"-pno:{name}" for name in ("cacheprovider", "anyio", "schemathesis")]
    command = [sys.executable, "-m", "pytest", "-q", "--collect-only", *quiet, *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


def kept(run: subprocess.CompletedProcess) -> set[str]:
    return {line.split("::")[0] for line in run.stdout.splitlines() if "::" in line}


@pytest.mark.parametrize(
    ("test_pass", "runs"),
    [
        (None, {PURE, USES_THE_DATABASE, BROWSER, TOPOLOGY}),
        ("services", {USES_THE_DATABASE, TOPOLOGY}),
        ("services-db", {USES_THE_DATABASE}),
        ("services-topology", {TOPOLOGY}),
    ],
)
def test_each_pass_keeps_its_own_tests(test_pass, runs):
    run = pytest_run(*ALL, test_pass=test_pass)
    assert run.returncode == 0, run.stdout + run.stderr
    assert kept(run) == runs
    assert ("deselected" in run.stdout) == (test_pass is not None)


def test_a_selection_left_to_another_part_passes_but_nothing_selected_still_fails():
    pure_only = pytest_run(PURE, test_pass="services")
    assert pure_only.returncode == 0, pure_only.stdout + pure_only.stderr
    assert "selected tests run in another pass or part" in pure_only.stdout
    topology_only = pytest_run(TOPOLOGY, test_pass="services-db")
    assert topology_only.returncode == 0, topology_only.stdout + topology_only.stderr
    nothing = pytest_run(PURE, "-k", "no_such_test", test_pass="services")
    assert nothing.returncode == 5, nothing.stdout + nothing.stderr


def test_the_first_pass_runs_browser_tests_after_every_other_test():
    """Named first on the command line, a browser test still runs last: a socket test
    after it would meet Playwright's event loop in the same thread."""
    run = pytest_run(*ALL, test_pass=None)
    assert run.returncode == 0, run.stdout + run.stderr
    files = [line.split("::")[0] for line in run.stdout.splitlines() if "::" in line]
    assert files and files[-1] == BROWSER and files.index(BROWSER) > files.index(PURE)
    assert files.index(BROWSER) > files.index(USES_THE_DATABASE)
