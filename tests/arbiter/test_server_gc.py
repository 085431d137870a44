"""Each web server process loads ``arbiter.asgi`` and then tunes its garbage collector:
start-up objects frozen, young objects collected every 50,000 instead of 700."""

import gc
import importlib

from arbiter import server_gc


def test_loading_the_server_application_settles_the_collector():
    gc.set_threshold(700, 10, 10)  # Python's defaults, as a fresh process has them
    importlib.reload(importlib.import_module("arbiter.asgi"))
    assert gc.get_threshold() == (server_gc.YOUNG_OBJECTS, 20, 100)
    assert gc.get_freeze_count() > 0  # what the server loaded is no longer scanned


def test_a_collection_still_finds_new_garbage_after_settling():
    server_gc.settle()

    class Node:
        pass

    loop = Node()
    loop.me = loop  # a cycle only the cyclic collector frees
    del loop
    assert gc.collect() >= 1
