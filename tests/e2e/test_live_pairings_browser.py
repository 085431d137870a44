"""An open public pairings page shows a new round's pairings, without a reload, once the
organiser pairs it (live.js over the live socket, served by ``asgi_server``)."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.e2e.conftest import log_page_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_open_pairings_page_shows_the_round_the_organiser_pairs(
    page, browser, make_world, asgi_server
):
    world = make_world(6, paired=False)
    site = asgi_server.url
    page.goto(f"{site}/events/{world.event.pk}/pairings/")
    expect(page.locator("#pairing-rows")).to_contain_text("No round has been paired yet")
    expect(page.locator("html")).to_have_attribute("data-live-state", "live")
    page.evaluate("window.notReloaded = true")

    organiser = browser.new_context()
    desk = organiser.new_page()
    log_page_in(desk, site, world.organiser.username, PASSWORD)
    desk.goto(f"{site}/events/{world.event.pk}/manage/")
    desk.click("#next-step")
    expect(desk.locator("#manage-status")).to_contain_text("Start round 1")

    first = world.event.rounds.get(number=1).matches.get(table=1)
    a, b = first.player_a.display_name, first.player_b.display_name
    expect(page.get_by_role("row", name=f"{a} 1 {b}")).to_be_visible(timeout=2000)
    expect(page.locator("#pairings-head")).to_contain_text("Round 1")
    expect(page.locator("[data-live-updated]")).to_contain_text("live")
    assert page.evaluate("window.notReloaded") is True
    organiser.close()
