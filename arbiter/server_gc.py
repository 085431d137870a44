"""The garbage collector as a web server process wants it.

Python's cyclic collector runs a young collection every 700 new objects by default, and
a full one ever more often as a process holds more. A big page (the standings of 2,000
players) builds a few hundred thousand short-lived objects: with the defaults a third of
its time went to collections that found almost nothing (issue 18: 90 ms cold standings
became 150-250 ms, at random). So each server process, once its code is loaded, sets
what it has so far aside (``gc.freeze``: the start-up objects are never scanned again)
and collects the young generation every ``YOUNG_OBJECTS`` objects instead. Memory
grows by at most that many young objects between collections (a few megabytes).
"""

from __future__ import annotations

import gc

YOUNG_OBJECTS = 50_000
# How many young collections between middle ones, and middle between full ones
# (Python's defaults are 10 and 10; a full collection also waits until a quarter of the
# long-lived objects are new).
MIDDLE_EVERY, FULL_EVERY = 20, 100


def settle() -> None:
    """Freeze what the process has loaded and collect young objects less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, MIDDLE_EVERY, FULL_EVERY)
