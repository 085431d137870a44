"""A live refresh never takes a control from under the organiser's finger: a result that
arrives while **Close round** is being pressed does not replace the button, so the press
still closes the round (live.js holds the region's new content until the press ends)."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.e2e.conftest import log_page_in
from tests.waiting import wait_until
from tournaments.models import Round
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Counts the regions live.js has refreshed ("arbiter:refreshed"), from the page's start.
COUNT_REFRESHES = (
    "window.refreshed = 0;"
    "document.addEventListener('arbiter:refreshed', () => { window.refreshed += 1; });"
)


def open_dashboard_one_result_missing(page, make_world, asgi_server):
    """The dashboard of a running round with one result missing, settled: live, and the
    refresh of both regions that a socket's opening brings has landed."""
    world = make_world(4, started=True)
    log_page_in(page, asgi_server.url, world.organiser.username, PASSWORD)
    results.enter_result(world.table(1), Score.parse("2-0"), world.organiser)
    page.add_init_script(COUNT_REFRESHES)
    page.goto(f"{asgi_server.url}/events/{world.event.pk}/manage/")
    expect(page.locator("html")).to_have_attribute("data-live-state", "live")
    wait_until(lambda: page.evaluate("window.refreshed") >= 2, 5, "the opening refresh")
    status = page.locator("#manage-status")
    expect(status).to_contain_text("1 table still without a confirmed result")
    return world, status


def test_a_result_arriving_mid_press_does_not_lose_the_close_round_click(
    page, make_world, asgi_server
):
    world, status = open_dashboard_one_result_missing(page, make_world, asgi_server)
    page.get_by_role("button", name="Close round 1").hover()
    page.mouse.down()  # the organiser's finger is on the button…
    results.enter_result(world.table(2), Score.parse("2-1"), world.organiser)  # …the last result
    wait_until(
        lambda: (
            status.get_attribute("data-live-waiting") is not None
            or "still without" not in status.inner_text()
        ),
        5,
        "the last result's refresh to reach the dashboard",
    )
    page.mouse.up()  # …and lifts it: the click lands

    wait_until(
        lambda: Round.objects.get(pk=world.round.pk).status == Round.Status.CLOSED,
        5,
        "the press to close round 1",
    )
    expect(page.locator("#manage-status")).to_contain_text("Round 1 — closed")


def test_the_held_content_arrives_once_the_press_ends_elsewhere(page, make_world, asgi_server):
    """A press that ends off the button (no click) lets the waiting refresh in."""
    world, status = open_dashboard_one_result_missing(page, make_world, asgi_server)
    page.get_by_role("button", name="Close round 1").hover()
    page.mouse.down()
    results.enter_result(world.table(2), Score.parse("2-1"), world.organiser)
    expect(status).to_have_attribute("data-live-waiting", "", timeout=5000)
    expect(status).to_contain_text("1 table still without")  # not swapped mid-press
    page.mouse.move(5, 5)
    page.mouse.up()  # off the button: no click, and the press is over
    expect(status).not_to_contain_text("still without", timeout=2000)
    expect(status).not_to_have_attribute("data-live-waiting", "")
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.RUNNING
