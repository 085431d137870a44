"""My match on a 390 x 844 phone: the seat fits, a new pairing shows as a banner when the
live region refreshes, a tapped score asks before it reports, the opponent's open page shows
the report to confirm without a reload, and the last copy stays readable offline."""

import base64
import json
import os

import pytest

from push.management.commands.push_keys import new_keys
from push.models import PushSubscription
from tests.conftest import play_out
from tests.e2e.conftest import PHONE, log_page_in, press_and_wait, wait_for_true
from tests.push.pushservice import Browser
from tournaments.models import Match
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("ARBITER_SCREENSHOTS", "")

# Before any page script: vibrations are recorded (headless Chromium has no motor).
RECORD_VIBRATIONS = """
window.__vibrations = [];
Object.defineProperty(navigator, "vibrate", {
  value: function (pattern) { window.__vibrations.push(pattern); return true; },
});
"""

# Notifications the page shows, whether by itself or through its service worker.
RECORD_NOTIFICATIONS = """
window.__notifications = [];
ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
  window.__notifications.push([title, options.body]);
  return Promise.resolve();
};
var Shown = function (title, options) { window.__notifications.push([title, options.body]); };
Shown.permission = "granted";
Shown.requestPermission = function () { return Promise.resolve("granted"); };
window.Notification = Shown;
"""


@pytest.fixture
def world(make_world):
    return make_world(["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"])


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


# Back once the my-match region has been fetched and put in place ("arbiter:refreshed" on
# document, after my-match.js's own listener has shown any banner), or failed to be.
REFRESH_ALL = """() => new Promise((resolve, reject) => {
  const region = document.querySelector(".my-match-live");
  document.addEventListener("arbiter:refreshed", function done(event) {
    if (event.target !== region) return;
    document.removeEventListener("arbiter:refreshed", done);
    resolve(true);
  });
  setTimeout(() => reject(new Error("the my-match region was not refreshed in 10 s")), 10000);
  window.arbiterLive.refreshAll();
})"""


def live_refresh(page) -> None:
    """What live.js does when a notice names the region: fetch it afresh, in place; back
    once it is in place."""
    page.evaluate(REFRESH_ALL)


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def test_a_tapped_score_asks_first_and_the_opponent_sees_it_live(phone, live_server, world):
    table = world.table(1)
    url = f"{live_server.url}/events/{world.event.pk}/my-match/"
    a, b = table.player_a, table.player_b

    opponent = phone(b.user.username)
    opponent.goto(url)
    opponent.evaluate("window.__sameDocument = true")  # gone if the page reloads

    me = phone(a.user.username)
    me.goto(url)
    assert f"Opponent: {b.display_name}" in me.inner_text(".my-match-live")
    assert fits_the_phone(me)
    me.get_by_role("button", name="Only the score").click()  # issue 30: below game by game
    me.get_by_role("button", name="2-1", exact=True).click()
    question = me.locator("[data-tap-confirm]")
    assert question.is_visible()
    assert "Report 2-1 (you won)?" in question.inner_text()
    assert Match.objects.get(pk=table.pk).status == Match.Status.PENDING  # asked, not sent
    assert fits_the_phone(me)
    shot(me, "my-match-tap-confirm.png")
    me.get_by_role("button", name="Cancel").click()
    assert not question.is_visible()
    me.get_by_role("button", name="2-1", exact=True).click()
    press_and_wait(me, me.get_by_role("button", name="Confirm"))
    assert "Result reported: your opponent confirms it on their page." in me.inner_text("main")
    reported = Match.objects.get(pk=table.pk)
    assert reported.status == Match.Status.REPORTED and reported.reported_by_id == a.pk
    assert reported.games.count(a.pk) == 2 and reported.games.count(b.pk) == 1

    live_refresh(opponent)  # the my_match notice the report sends to the opponent
    region = opponent.locator(".my-match-live")
    region.get_by_text(f"{a.display_name} reported 2-1").wait_for(timeout=5000)
    assert "that is 1-2 with your wins first" in region.inner_text()
    assert opponent.evaluate("window.__sameDocument === true")  # no reload
    assert fits_the_phone(opponent)
    shot(opponent, "my-match-opponent-confirms.png")
    press_and_wait(opponent, opponent.get_by_role("button", name="Yes, confirm"))
    assert Match.objects.get(pk=table.pk).status == Match.Status.CONFIRMED


def test_the_result_is_reported_game_by_game_in_the_order_played(phone, live_server, world):
    """Issue 30: each game's winner in order; the next game once this one is answered, none
    after the game that decided the match; it fits a 390 px phone."""
    table = world.table(1)
    a, b = table.player_a, table.player_b
    me = phone(a.user.username)
    me.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
    games = me.locator("[data-game-report] fieldset")
    assert games.nth(0).is_visible() and not games.nth(1).is_visible()
    games.nth(0).get_by_label("Opponent").check()
    assert games.nth(1).is_visible() and not games.nth(2).is_visible()
    games.nth(1).get_by_label("Me").check()
    games.nth(2).get_by_label("Me").check()
    assert not games.nth(3).is_visible()  # 2-1: decided
    assert "Your score (your wins first): 2-1" in me.inner_text("[data-game-summary]")
    assert fits_the_phone(me)
    shot(me, "my-match-game-by-game.png")
    me.get_by_role("button", name="Report these games").click()
    me.get_by_text("Result reported").wait_for(timeout=5000)
    reported = Match.objects.get(pk=table.pk)
    assert reported.games == [b.pk, a.pk, a.pk] and reported.games_in_order


def test_a_new_pairing_shows_as_a_banner_and_vibrates(phone, live_server, world):
    me = world.registrations[0]
    page = phone(me.user.username)
    page.add_init_script(RECORD_VIBRATIONS)
    page.add_init_script(RECORD_NOTIFICATIONS)
    page.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
    banner = page.locator("[data-paired-banner]")
    live_refresh(page)  # the same seat again: nothing to tell
    assert not banner.is_visible()

    rounds.start_round(world.round, world.organiser)
    play_out(world.round, world.organiser)
    rounds.close_round(world.round, world.organiser)
    second = rounds.pair_next_round(world.event, world.organiser)
    match = next(m for m in second.matches.all() if me in m.players())
    opponent = match.player_b if match.player_a_id == me.pk else match.player_a
    expected = f"Round 2 — table {match.table} vs {opponent.display_name}"

    live_refresh(page)  # the my_match notice pairing sends the player
    banner.wait_for(state="visible", timeout=5000)
    assert banner.inner_text() == expected
    assert page.evaluate("window.__vibrations.length") == 1
    wait_for_true(page, "window.__notifications.length === 1")
    assert page.evaluate("window.__notifications") == [[world.event.name, expected]]
    assert f"Round 2 · Table {match.table}" in page.inner_text(".my-match-live")
    assert fits_the_phone(page)
    shot(page, "my-match-paired-banner.png")


def test_the_notify_button_asks_only_when_tapped(phone, live_server, world):
    page = phone(world.registrations[0].user.username)
    page.add_init_script(
        "window.__asked = 0; Notification.requestPermission = function () {"
        " window.__asked += 1; return Promise.resolve('denied'); };"
    )
    page.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
    button = page.get_by_role("button", name="Tell me when I am paired")
    assert button.is_visible() and page.evaluate("window.__asked") == 0
    button.click()
    wait_for_true(page, "window.__asked === 1")


def test_the_last_known_match_stays_readable_offline(phone, live_server, world):
    table = world.table(1)
    url = f"{live_server.url}/events/{world.event.pk}/my-match/"
    page = phone(table.player_a.user.username)
    page.goto(url)
    wait_for_true(page, "navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now the worker controls the page and keeps each copy it fetches
    wait_for_true(page, "navigator.serviceWorker.controller !== null")
    # The copy is written to the cache after the answer.
    wait_for_true(
        page,
        "caches.open('arbiter-pages')"
        ".then((kept) => kept.match(location.origin + location.pathname))"
        ".then((copy) => copy !== undefined)",
    )
    page.context.set_offline(True)
    try:
        page.reload()
        marker = page.locator("[data-offline-marker]")
        assert marker.is_visible() and marker.inner_text() == "offline — last known"
        assert f"Opponent: {table.player_b.display_name}" in page.inner_text(".my-match-live")
        assert fits_the_phone(page)
        shot(page, "my-match-offline.png")
    finally:
        page.context.set_offline(False)
    page.reload()
    assert not page.locator("[data-offline-marker]").is_visible()


# The browser's push service is out of reach in a test: its subscription is a stand-in with
# the real shape (toJSON), and what the page does with it is real.
STAND_IN_PUSH = """
window.__subscribeOptions = null;
PushManager.prototype.getSubscription = function () { return Promise.resolve(null); };
PushManager.prototype.subscribe = function (options) {
  window.__subscribeOptions = options;
  return Promise.resolve({ toJSON: function () { return %s; } });
};
"""


def test_with_push_on_a_granted_phone_subscribes_with_the_sites_key(
    browser, live_server, world, settings
):
    public, private = new_keys()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:to@example.org"
    subscription = Browser("https://fcm.googleapis.com/fcm/send/phone-1").to_json()
    context = browser.new_context(viewport=PHONE)
    try:
        context.grant_permissions(["notifications"], origin=live_server.url)
        page = context.new_page()
        page.add_init_script(STAND_IN_PUSH % json.dumps(subscription))
        me = world.registrations[0]
        log_page_in(page, live_server.url, me.user.username)
        page.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
        page.get_by_text("even with this page closed").wait_for(timeout=10000)
        sent_key = page.evaluate("Array.from(window.__subscribeOptions.applicationServerKey)")
        assert bytes(sent_key) == base64.urlsafe_b64decode(public + "=")
        kept = PushSubscription.objects.get()
        assert (kept.user_id, kept.endpoint) == (me.user_id, subscription["endpoint"])
        assert kept.p256dh == subscription["keys"]["p256dh"]
    finally:
        context.close()


def test_over_the_socket_a_pairing_and_a_report_reach_open_phones_within_two_seconds(
    browser, asgi_server, world
):
    """The real notices (live.listeners) through the real socket, nothing refreshed by
    the test: the pairing shows as the banner, the opponent's page shows the report."""
    contexts = []

    def open_phone(registration):
        context = browser.new_context(viewport=PHONE)
        contexts.append(context)
        page = context.new_page()
        log_page_in(page, asgi_server.url, registration.user.username)
        page.goto(f"{asgi_server.url}/events/{world.event.pk}/my-match/")
        page.locator("html[data-live-state=live]").wait_for(state="attached")  # no eval: CSP
        return page

    try:
        rounds.start_round(world.round, world.organiser)
        play_out(world.round, world.organiser)
        rounds.close_round(world.round, world.organiser)
        me = world.registrations[0]
        page = open_phone(me)
        second = rounds.pair_next_round(world.event, world.organiser)
        match = next(m for m in second.matches.all() if me in m.players())
        opponent = match.player_b if match.player_a_id == me.pk else match.player_a
        banner = page.locator("[data-paired-banner]")
        banner.wait_for(state="visible", timeout=2000)
        assert banner.inner_text() == (f"Round 2 — table {match.table} vs {opponent.display_name}")

        theirs = open_phone(opponent)
        theirs.evaluate("window.__sameDocument = true")
        games = page.locator("[data-game-report] fieldset")  # issue 30: game by game
        for number, winner in enumerate(("Me", "Opponent", "Me")):
            games.nth(number).get_by_label(winner).check()
        page.get_by_role("button", name="Report these games").click()
        region = theirs.locator(".my-match-live")
        region.get_by_text(f"{me.display_name} reported 2-1").wait_for(timeout=2000)
        assert theirs.evaluate("window.__sameDocument === true")
    finally:
        for context in contexts:
            context.close()
