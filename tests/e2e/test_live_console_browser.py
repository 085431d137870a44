"""The judge console's queue shows a dispute the moment it is made, not at the next poll."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.e2e.conftest import log_page_in
from tests.waiting import wait_until
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

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


def test_the_console_grid_follows_the_organiser_pairing_round_two(page, make_world, asgi_server):
    world = make_world(4, rounds_played=1, paired=False)
    log_page_in(page, asgi_server.url, world.judge.username, PASSWORD)
    page.goto(f"{asgi_server.url}/events/{world.event.pk}/judge/")
    expect(page.locator("html")).to_have_attribute("data-live-state", "live")
    heading = page.locator(".judge-console hgroup p")
    expect(heading).to_contain_text("Round 1 (closed)")
    first_links = {
        f"/events/{world.event.pk}/judge/tables/{pk}/"
        for pk in world.round.matches.filter(is_bye=False).values_list("pk", flat=True)
    }
    grid = page.locator("#tables a")
    assert set(grid.evaluate_all("links => links.map(a => a.getAttribute('href'))")) == first_links

    second = rounds.pair_next_round(world.event, world.organiser)  # as the organiser's button does

    expect(heading).to_contain_text("Round 2 (paired)", timeout=2000)
    second_links = {
        f"/events/{world.event.pk}/judge/tables/{pk}/"
        for pk in second.matches.filter(is_bye=False).values_list("pk", flat=True)
    }
    wait_until(
        lambda: (
            set(grid.evaluate_all("links => links.map(a => a.getAttribute('href'))"))
            == second_links
        ),
        2,
        "the grid to link to round 2's tables",
    )
    rounds.start_round(second, world.organiser)
    expect(heading).to_contain_text("Round 2 (running)", timeout=2000)
    grid.first.click()
    expect(page.locator("h1")).to_contain_text("Table 1")
    assert page.url.endswith(f"/judge/tables/{second.matches.get(table=1).pk}/")
