"""On a phone, a judge grants a table five minutes from its table page; the player's
page then shows the extension and a clock running five minutes past the round's."""

import os
import re

import pytest

from tests.conftest import PASSWORD
from tests.e2e.conftest import wait_for_true

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("ARBITER_SCREENSHOTS")  # a folder: keep the pages seen, to look at


def minutes_left(text: str) -> int:
    found = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert found, text
    return int(found.group(1))


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_a_judge_grants_time_and_the_players_clock_runs_on(page, live_server, log_in, make_world):
    world = make_world(["Ann", "Bob", "Cy", "Di"], name="Clock Open", started=True)
    table = world.table(1)
    event = world.event
    page.set_viewport_size(PHONE)
    log_in("jude", PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/judge/tables/{table.pk}/")
    form = page.locator("#extensions form.extension-form")
    form.locator("input[name=minutes]").fill("5")
    form.locator("input[name=reason]").fill("Deck check")
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"**/judge/tables/{table.pk}/")
    assert "Table 1: +5 min granted" in page.locator(".messages").inner_text()
    assert "Deck check" in page.locator("#extensions ul.extensions").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table page is {width}px wide on a 390px phone"
    shot(page, "extension-table-page")

    page.context.clear_cookies()
    log_in(table.player_a.user.username, PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/my-match/")
    assert "Time extension: +5 minutes." in page.locator(".time-extension").inner_text()
    clock = page.locator(".table-clock .clock")
    wait_for_true(page, "document.querySelector('.table-clock .clock').textContent != '--:--'")
    assert 53 <= minutes_left(clock.inner_text()) <= 55  # 50 of the round, 5 granted
    shot(page, "extension-my-match")
