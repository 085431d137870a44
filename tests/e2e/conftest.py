"""Browser tests: Playwright driving the machine's Chromium (never a downloaded browser)."""

import os
import shutil

import pytest

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
