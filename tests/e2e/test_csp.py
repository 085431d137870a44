"""The Content Security Policy holds on every main page: no inline script or style, nothing
from elsewhere. A violation fails the test, whether Chromium reports it on the console or
as a ``securitypolicyviolation`` event."""

import pytest

from arbiter.worlds import demo_decklist
from decks import services as deck_services
from decks.cardpool import load_demo_pools
from tests.conftest import PASSWORD
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Runs before any page script and is not subject to the page's policy (Playwright injects it).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` (${e.sourceFile || ""}:${e.lineNumber || ""})`);
});
"""


@pytest.fixture
def hall(make_world):
    """A running 8-player Iacta event with the demo pool; olive organises, jude judges,
    p01 has a decklist."""
    load_demo_pools()
    world = make_world(8, name="Policy Open", paired=False)
    first = world.registrations[0]
    deck_services.save_decklist(first, demo_decklist(0), submit=False, actor=first.user)
    rounds.start_round(rounds.pair_next_round(world.event, world.organiser), world.organiser)
    return world.event


class Watcher:
    """Collects CSP reports from the console and from the page's violation events."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def visit(self, url: str) -> list[str]:
        """Load the page, let its scripts and htmx requests run; every violation seen."""
        before = len(self.console)
        response = self.page.goto(url)
        assert response is not None and response.status == 200, (url, response and response.status)
        assert "default-src 'self'" in response.headers.get("content-security-policy", "")
        self.page.wait_for_load_state("networkidle")
        # A fixed wait is the point: a window in which no violation may appear while the
        # page's scripts run (round clocks tick, htmx "load" triggers swap); no event says
        # "there will be no violation", only the time it was given.
        self.page.wait_for_timeout(300)
        events = self.page.evaluate("window.__cspViolations || []")
        return [f"{url}: {v}" for v in [*events, *self.console[before:]]]


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_main_pages_break_no_rule_of_the_policy(page, browser, live_server, hall):
    base, event = live_server.url, hall.pk
    watcher = Watcher(page)
    violations = []
    for path in ("/", "/events/", f"/events/{event}/", "/rules/", "/api/docs/"):
        violations += watcher.visit(base + path)
    log_in(page, base, "olive")
    for path in (
        f"/events/{event}/manage/",
        f"/events/{event}/pairings/",
        f"/events/{event}/standings/",
        f"/events/{event}/projector/",
        f"/events/{event}/judge/",
        f"/events/{event}/penalties/new/",
        f"/events/{event}/search-timer/",
        "/judge/rule/",
        f"/events/{event}/print/",
        "/accounts/token/",
        "/api/docs/",
    ):
        violations += watcher.visit(base + path)

    player_context = browser.new_context()
    try:
        player_page = player_context.new_page()
        player = Watcher(player_page)
        log_in(player_page, base, "p01")
        for path in (f"/events/{event}/deck/", f"/events/{event}/my-match/"):
            violations += player.visit(base + path)
    finally:
        player_context.close()
    assert violations == []


def test_the_api_docs_page_shows_the_operations_offline(page, live_server, hall):
    """Swagger UI comes from this server (drf-spectacular-sidecar), not a CDN."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    watcher = Watcher(page)
    assert watcher.visit(f"{live_server.url}/api/docs/") == []
    page.locator("text=/api/v1/events/").first.wait_for(timeout=15000)
    assert all(url.startswith(live_server.url) for url in requested), requested
