"""The test tiers of scripts/test: which pass, or part of a pass, runs a test. Plain functions
of a test's path, markers and fixtures, so tests/unit/test_test_tiers.py can check every
decision without starting pytest again; tests/conftest.py wires them into the hooks.

scripts/test's second pass (PostgreSQL, Redis, real workers) sets ARBITER_TEST_PASS: it runs
only the tests whose outcome can depend on those services; the rest ran in the first pass. It
runs in two parts: the database tests side by side ("services-db"), then the production
topology alone ("services-topology"), whose processes need the machine to themselves.
"services" is both at once. Browser tests run in the first pass only: what they check is the
page in Chromium, and the same pages on PostgreSQL are the HTTP tests' work."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

import pytest

UNIT = Path(__file__).resolve().parent / "unit"  # pure tests: no database, cache or broker
# A test that asks for one of these (directly or through its fixtures) uses the database
# or Celery, so it runs in both passes.
SERVICE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_setup", "live_server", "eager_tasks"}
)
SERVICE_MARKERS = ("django_db", "integration", "services")


class Collected(Protocol):
    """What the decision reads of a collected test (a ``pytest.Item``, or a stand-in)."""

    nodeid: str

    @property
    def path(self) -> Path: ...

    def get_closest_marker(self, name: str) -> pytest.Mark | None: ...


T = TypeVar("T", bound=Collected)


def is_services_pass(test_pass: str) -> bool:
    return test_pass.startswith("services")


def is_unit(item: Collected) -> bool:
    return Path(item.path).is_relative_to(UNIT)


def uses_services(item: Collected) -> bool:
    """A service marker, or a service fixture asked for directly or through other fixtures
    (pytest lists the whole closure in ``fixturenames``)."""
    if any(item.get_closest_marker(name) for name in SERVICE_MARKERS):
        return True
    return bool(SERVICE_FIXTURES.intersection(getattr(item, "fixturenames", ())))


def impure_unit_tests(items: Iterable[Collected]) -> list[str]:
    """The tests under tests/unit that use a service: each one is a mistake in the tiers."""
    return [item.nodeid for item in items if is_unit(item) and uses_services(item)]


def in_pass(item: Collected, test_pass: str) -> bool:
    """Whether the run named by ``test_pass`` ("" for the first pass) runs the test."""
    if not is_services_pass(test_pass):
        return True
    if is_unit(item) or item.get_closest_marker("e2e") or not uses_services(item):
        return False
    topology = item.get_closest_marker("integration") is not None
    if test_pass == "services-db":
        return not topology
    if test_pass == "services-topology":
        return topology
    return True


def split(items: Sequence[T], test_pass: str) -> tuple[list[T], list[T]]:
    """The tests this run keeps and those it leaves to another pass or part, in order."""
    keep: list[T] = []
    left_out: list[T] = []
    for item in items:
        (keep if in_pass(item, test_pass) else left_out).append(item)
    return keep, left_out


def browser_tests_last(items: list[Collected]) -> None:
    """Browser tests after every other test, in each worker too (xdist hands tests out in
    collection order): Playwright's sync API leaves an event loop running in the test
    thread for the rest of the session, and there every later ``async_to_sync`` (the
    channel layer, the socket tests) fails with "cannot use AsyncToSync in the same
    thread as an async event loop". The sort is stable: other tests keep their order."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


def exit_status(exitstatus: int, left_out: int) -> int:
    """A services run whose whole selection another pass or part runs (``-k swiss``, pure
    tests) is no failure; a selection of no test at all still is (exit code 5)."""
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and left_out:
        return pytest.ExitCode.OK
    return exitstatus


def left_out_notice(test_pass: str, left_out: int) -> str:
    """What the run prints when ``exit_status`` turns its empty selection into a pass."""
    return (
        f"services pass ({test_pass}): all {left_out} selected tests run in another pass or part."
    )
