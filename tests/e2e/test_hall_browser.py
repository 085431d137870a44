"""The hall display on a 1920 x 1080 screen, with 120 players: every name on the page
shown fits the screen in large type, the pages turn by themselves, a failed refresh
leaves the last pairings up and the pages turning, and the policy holds.

With ``ARBITER_SCREENSHOTS=docs`` the run keeps the screen as the hall saw it
(``docs/hall-display-1920x1080.png``).
"""

import asyncio
import os
import threading
import time

import pytest

from tests.conftest import play_out
from tests.e2e.conftest import _asgi_app, _free_port, _shared_connections
from tests.e2e.test_csp import Watcher
from tournaments.clock import extensions as clock
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("ARBITER_SCREENSHOTS", "")
SCREEN = {"width": 1920, "height": 1080}
GIVEN = [
    "Ada",
    "Alan",
    "Barbara",
    "Claude",
    "Dorothy",
    "Edsger",
    "Frances",
    "Grace",
    "John",
    "Katherine",
    "Margaret",
    "Niklaus",
]
FAMILY = [
    "Allen",
    "Backus",
    "Hopper",
    "Johnson",
    "Knuth",
    "Liskov",
    "Lovelace",
    "Shannon",
    "Turing",
    "Wirth",
]
NAMES = [f"{g} {f}" for f in FAMILY for g in GIVEN]


@pytest.fixture
def screen(browser):
    context = browser.new_context(viewport=SCREEN)
    yield context.new_page()
    context.close()


@pytest.fixture
def world(make_world):
    """120 players, round 1 started; table 3 has 5 minutes more."""
    world = make_world(NAMES, name="Harbour Open", started=True)
    clock.grant_extension(world.table(3), 5, "judge call at the table", world.judge)
    return world


def shown_page(screen):
    return screen.locator("[data-hall-page]:visible")


def px(locator, prop: str) -> float:
    return float(locator.evaluate(f"e => getComputedStyle(e).{prop}").removesuffix("px"))


def test_the_hall_screen_shows_large_names_that_fit_and_pages_by_itself(
    screen, live_server, world, settings
):
    """In venue mode: the code carries the laptop's address on the hall's network."""
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    assert len(NAMES) == 120
    watcher = Watcher(screen)
    url = f"{live_server.url}/events/{world.event.pk}/hall/?seconds=3"
    assert watcher.visit(url) == []

    pages = screen.locator("[data-hall-page]")
    assert pages.count() == 5  # 120 names, 26 a page
    first = shown_page(screen)
    assert first.count() == 1
    rows = first.locator(".hall-row:not(.hall-row-head)")
    assert rows.count() == 26
    names = rows.locator(".hall-name").all_inner_texts()
    assert names[:2] == ["Ada Allen", "Ada Backus"]  # alphabetical
    for index in (0, 12, 13, 25):  # the ends of both columns are on the screen
        box = rows.nth(index).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN["height"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= SCREEN["width"]
    name, table = rows.nth(0).locator(".hall-name"), rows.nth(0).locator(".hall-table")
    assert name.is_visible() and table.is_visible()
    assert px(name, "fontSize") >= 40 and px(table, "fontSize") >= 48  # read from 5 m
    assert table.inner_text().strip().isdigit()
    assert screen.locator(".hall-clock").is_visible()
    assert "Table 3 +5" in screen.locator(".hall-extensions").inner_text()
    qr = screen.locator(".hall-qr svg")
    assert qr.is_visible() and qr.bounding_box()["height"] >= 110
    caption = screen.locator(".hall-qr figcaption").inner_text()
    assert caption == f"http://192.168.1.20:8000/events/{world.event.pk}/my-match/"
    marker = screen.locator("[data-live-updated]")
    assert "Updated" in marker.inner_text() and px(marker, "fontSize") < 20  # unobtrusive
    assert screen.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
    if SHOTS:
        screen.screenshot(path=os.path.join(SHOTS, "hall-display-1920x1080.png"))

    # The page turns by itself: the second page's names replace the first's.
    pages.nth(1).wait_for(state="visible", timeout=8000)
    assert pages.nth(0).is_hidden()
    second = shown_page(screen).locator(".hall-row:not(.hall-row-head) .hall-name")
    assert second.first.inner_text() not in names

    # The server away: a refresh that fails leaves the pairings up, and they keep turning.
    screen.route("**/hall/fragment/**", lambda route: route.abort())
    screen.evaluate("window.arbiterLive.refreshAll()")
    pages.nth(2).wait_for(state="visible", timeout=8000)
    assert shown_page(screen).locator(".hall-row:not(.hall-row-head)").count() == 26

    # Back: a refresh brings the change in, and the screen stays on the page it was on.
    screen.unroute("**/hall/fragment/**")
    clock.grant_extension(world.table(7), 4, "deck check", world.judge)
    screen.evaluate("window.arbiterLive.refreshAll()")
    screen.locator(".hall-extensions", has_text="Table 7 +4").wait_for(timeout=8000)
    assert screen.locator("[data-hall-page]").count() == 5


def test_the_hall_screen_follows_the_event_over_its_socket(browser, asgi_server, make_world):
    """Nobody touches the screen: the round is paired, started and closed, and each
    change is on it within seconds, without a reload."""
    world = make_world(
        NAMES[:10], name="Harbour Open", swiss_rounds=2, rounds_played=0, paired=False
    )
    organiser = world.organiser
    context = browser.new_context(viewport=SCREEN)
    try:
        screen = context.new_page()
        screen.goto(f"{asgi_server.url}/events/{world.event.pk}/hall/")
        screen.locator("html[data-live-state=live]").wait_for(timeout=10000)
        assert "Welcome" in screen.locator(".hall-body").inner_text()
        screen.evaluate("window.__sameDocument = true")  # gone if the page reloads

        round_ = rounds.pair_next_round(world.event, organiser)
        table = round_.matches.select_related("player_a__user").get(table=1)
        name = screen.locator(".hall-name").get_by_text(table.player_a.display_name, exact=True)
        row = screen.locator(".hall-row").filter(has=name)
        row.locator(".hall-table").get_by_text("1", exact=True).wait_for(timeout=5000)
        assert screen.locator(".hall-status", has_text="Find your table").is_visible()

        rounds.start_round(round_, organiser)
        screen.locator(".hall-clock").wait_for(timeout=5000)

        play_out(round_, organiser)
        rounds.close_round(round_, organiser)
        screen.locator(".hall-subtitle", has_text="Standings after round 1").wait_for(timeout=5000)
        assert screen.evaluate("window.__sameDocument") is True
        assert "live" in screen.locator("[data-live-updated]").inner_text()
    finally:
        context.close()


class Restartable:
    """The site's ASGI application on one port, stopped and started again as a server
    restart does (the ``asgi_server`` fixture's server, which runs once)."""

    def __init__(self, shared: dict, port: int) -> None:
        self.shared, self.port = shared, port
        self.url = f"http://127.0.0.1:{port}"
        self.server = self.thread = None

    def start(self) -> None:
        import uvicorn

        config = uvicorn.Config(
            _asgi_app(self.shared),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=lambda: asyncio.new_event_loop().run_until_complete(self.server.serve()),
            daemon=True,
        )
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def restartable(transactional_db, monkeypatch):
    from live import notify

    shared = _shared_connections()
    for conn in shared.values():
        conn.inc_thread_sharing()
    # Changes the test makes are seen by fetching: the screen is not told (no socket hears
    # a notice sent from the test's thread here), so what it shows came from reconnecting.
    monkeypatch.setattr(notify, "deliver", lambda batch: None)
    server = Restartable(shared, _free_port())
    server.start()
    yield server
    if server.thread.is_alive():
        server.stop()
    for conn in shared.values():
        conn.dec_thread_sharing()


def test_the_hall_screen_comes_back_by_itself_after_a_server_restart(
    browser, restartable, make_world
):
    world = make_world(NAMES[:10], name="Harbour Open", swiss_rounds=2, started=True)
    context = browser.new_context(viewport=SCREEN)
    try:
        screen = context.new_page()
        screen.goto(f"{restartable.url}/events/{world.event.pk}/hall/")
        screen.locator("html[data-live-state=live]").wait_for(timeout=10000)
        names = screen.locator(".hall-row:not(.hall-row-head) .hall-name").all_inner_texts()
        assert len(names) == 10

        restartable.stop()
        screen.locator("html[data-live-state=reconnecting]").wait_for(timeout=10000)
        marker = screen.locator("[data-live-updated]")
        assert "reconnecting" in marker.inner_text() and px(marker, "fontSize") < 20
        shown = screen.locator(".hall-row:not(.hall-row-head) .hall-name").all_inner_texts()
        assert shown == names  # the last pairings stay up
        play_out(world.round, world.organiser)
        rounds.close_round(world.round, world.organiser)  # while the server is away

        restartable.start()
        screen.locator("html[data-live-state=live]").wait_for(timeout=40000)
        screen.locator(".hall-subtitle", has_text="Standings after round 1").wait_for(timeout=5000)
    finally:
        context.close()
