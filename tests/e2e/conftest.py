"""Browser tests: Playwright driving the machine's Chromium (never a downloaded browser)."""

import asyncio
import os
import shutil
import socket
import threading
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from decks.cardpool import load_demo_pools
from tests.conftest import PASSWORD

CHROMIUM = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(config, items):
    if os.path.exists(CHROMIUM):
        return
    if os.environ.get("CI") == "true":
        raise pytest.UsageError(f"Chromium not found at {CHROMIUM}: CI must install it.")
    skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def allow_orm_beside_playwright():
    """Playwright's sync API runs an event loop in the test thread; the ORM calls the
    tests make beside it (and the test database set-up) are still synchronous.
    Set before Playwright starts, and only in sessions that run browser tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def registration(make_world):
    """pat, registered for "Deck Open" (demo card pool loaded), not checked in: the
    decklist editor's browser tests."""
    load_demo_pools()
    world = make_world(["pat"], name="Deck Open", judge=None, checked_in=False, paired=False)
    return world.registrations[0]


def log_page_in(page, site: str, username: str, password: str = PASSWORD) -> None:
    """Through the login form, as a person would, landing on the home page."""
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{site}/")


@pytest.fixture
def log_in(page, live_server):
    def as_user(username: str, password: str):
        log_page_in(page, live_server.url, username, password)

    return as_user


PHONE = {"width": 390, "height": 844}


def press_and_wait(page, control) -> None:
    """Press a form's button and wait for the page its answer leads to. A form marked
    ``data-resend`` is sent by fetch (static/js/resend.js), and the page moves on once the
    answer is in, not at the press: the wait Playwright makes after a click misses it."""
    with page.expect_navigation():
        control.click()


@pytest.fixture
def phone(browser, live_server):
    """``phone(username)``: a browser of its own at a phone's size (390 x 844), logged in."""
    contexts = []

    def logged_in(username: str):
        context = browser.new_context(viewport=PHONE)
        contexts.append(context)
        page = context.new_page()
        log_page_in(page, live_server.url, username)
        return page

    yield logged_in
    for context in contexts:
        context.close()


class AsgiServer:
    """Where ``asgi_server`` listens: ``url`` for pages, ``ws_url`` for sockets."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"

    def __str__(self) -> str:
        return self.url


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _shared_connections():
    """The test's own connections to an in-memory SQLite database, which another thread
    can only reach by sharing them (as Django's live server does); none otherwise."""
    from django.db import connections

    return {
        conn.alias: conn
        for conn in connections.all()
        if conn.vendor == "sqlite" and conn.is_in_memory_db()
    }


def _asgi_app(shared: dict):
    """The site's ASGI application with its static files, each connection's database work
    in one thread that uses the test's connections."""
    from asgiref.sync import ThreadSensitiveContext, sync_to_async
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application
    from django.db import connections

    from arbiter.asgi import application

    router = {
        "http": ASGIStaticFilesHandler(get_asgi_application()),
        "websocket": application.application_mapping["websocket"],
    }

    def share() -> None:
        for alias, conn in shared.items():
            connections[alias] = conn

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            return
        async with ThreadSensitiveContext():  # Django's and Channels' sync work: one thread
            await sync_to_async(share)()
            await router[scope["type"]](scope, receive, send)

    return app


@pytest.fixture
def asgi_server(transactional_db, monkeypatch):
    """A server that speaks HTTP and WebSocket (uvicorn, in a thread) on the test database.

    pytest-django's ``live_server`` is WSGI: it serves no socket. With the in-memory
    channel layer only this process's sockets hear a notice, so a change the test makes
    itself (a service called in the test) is handed to the server's loop to deliver.
    """
    import uvicorn

    from live import notify

    shared = _shared_connections()
    for conn in shared.values():
        conn.inc_thread_sharing()
    port = _free_port()
    config = uvicorn.Config(
        _asgi_app(shared), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    loops: list[asyncio.AbstractEventLoop] = []

    def run() -> None:
        loop = asyncio.new_event_loop()
        loops.append(loop)
        loop.run_until_complete(server.serve())

    thread = threading.Thread(target=run, name="asgi_server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the ASGI test server did not start")
        time.sleep(0.02)

    test_thread = threading.get_ident()
    deliver = notify.deliver

    def deliver_from_the_test(batch):
        if threading.get_ident() != test_thread:
            return deliver(batch)
        layer = notify.get_channel_layer()
        sending = asyncio.run_coroutine_threadsafe(notify._send_all(layer, batch), loops[0])
        return sending.result(timeout=5)

    monkeypatch.setattr(notify, "deliver", deliver_from_the_test)
    yield AsgiServer(port)
    server.should_exit = True
    thread.join(timeout=10)
    for conn in shared.values():
        conn.dec_thread_sharing()


def wait_for_true(page, expression: str, timeout: float = 10) -> None:
    """Wait until ``expression`` is true in the page. Not ``page.wait_for_function``: past
    its first check it polls by evaluating a string, which the site's CSP forbids."""
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def preview_of_game(game: int):
    """For ``page.expect_response``: the answer to the penalty form's preview of a penalty in
    game ``game``, the one htmx posts 300 ms after the game number is typed (the previews of
    the earlier choices, without a game, do not count)."""

    def answers(response) -> bool:
        request = response.request
        if request.method != "POST" or not urlsplit(request.url).path.endswith("/preview/"):
            return False
        return parse_qs(request.post_data or "").get("game") == [str(game)]

    return answers
