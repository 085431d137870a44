"""Waiting on a condition, not on the clock: a test that sleeps "long enough" is slow when
the machine is idle and flaky when it is busy. ``wait_until`` polls until the thing has
happened and, when it never does, fails naming what did not happen."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class WaitedTooLong(TimeoutError, AssertionError):
    """A condition never came true: a test failure (AssertionError) that callers written
    against the older TimeoutError of tests/integration/topology.py still catch."""


def wait_until(
    predicate: Callable[[], T],
    timeout: float,
    what: str | Callable[[], str],
    interval: float = 0.2,
) -> T:
    """Poll ``predicate()`` every ``interval`` seconds until it is truthy, and return that
    value; past ``timeout`` seconds fail naming ``what`` never happened (a callable ``what``
    is asked then, so the message can show the state at the end). The predicate may raise
    to stop waiting at once (a server that exited will never answer)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise WaitedTooLong(f"timed out after {timeout:g} s waiting for {said}")
        time.sleep(interval)
