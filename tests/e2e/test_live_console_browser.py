"""The judge console's queue shows a dispute the moment it is made, not at the next poll."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.e2e.conftest import log_page_in
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_dispute_reaches_the_open_console_within_two_seconds(page, make_world, asgi_server):
    world = make_world(4, started=True)
    log_page_in(page, asgi_server.url, world.judge.username, PASSWORD)
    page.goto(f"{asgi_server.url}/events/{world.event.pk}/judge/")
    expect(page.locator("html")).to_have_attribute("data-live-state", "live")
    queue = page.locator("#judge-queue .queue-item")
    expect(queue).to_have_count(0)
    match = world.table(2)
    a, b = match.player_a, match.player_b
    results.report_result(match, a, Score.parse("2-0"), a.user)
    results.report_result(match, b, Score.parse("2-0"), b.user)  # b says b won: a dispute
    expect(queue.filter(has_text="Table 2")).to_have_count(1, timeout=2000)
