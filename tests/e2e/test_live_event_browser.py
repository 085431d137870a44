"""The live event as a room lives it (issue: the live event, "Done when"): the organiser
pairs the round in their browser; a player's already open "My match" shows the new table
within 2 s, and the hall display shows the player's name and table, neither reloaded;
the player taps 2-1, and the opponent's open page shows it for confirmation."""

import pytest

from tests.conftest import play_out
from tests.e2e.conftest import PHONE, log_page_in, press_and_wait
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.e2e
HALL = {"width": 1920, "height": 1080}


@pytest.fixture
def world(make_world):
    return make_world(["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"])


@pytest.fixture
def open_page(browser, asgi_server):
    """``open_page(path, username=None, viewport=PHONE)``: a browser of its own on the
    page, following the event live before the test goes on."""
    contexts = []

    def opened(path: str, username: str | None = None, viewport=PHONE):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        if username:
            log_page_in(page, asgi_server.url, username)
        page.goto(f"{asgi_server.url}{path}")
        page.locator("html[data-live-state=live]").wait_for(state="attached")
        page.evaluate("window.__notReloaded = true")
        return page

    yield opened
    for context in contexts:
        context.close()


def test_a_pairing_and_a_tapped_report_reach_the_room_without_a_reload(
    open_page, asgi_server, world
):
    event = world.event.pk
    rounds.start_round(world.round, world.organiser)
    play_out(world.round, world.organiser)
    rounds.close_round(world.round, world.organiser)
    ada = world.registrations[0]

    mine = open_page(f"/events/{event}/my-match/", ada.user.username)
    hall = open_page(f"/events/{event}/hall/", viewport=HALL)
    organiser = open_page(f"/events/{event}/manage/", world.organiser.username, viewport=HALL)
    press_and_wait(organiser, organiser.get_by_role("button", name="Pair round 2"))

    second = world.event.rounds.get(number=2)
    match = next(m for m in second.matches.all() if ada in m.players())
    opponent = match.player_b if match.player_a_id == ada.pk else match.player_a
    banner = mine.locator("[data-paired-banner]")
    banner.wait_for(state="visible", timeout=2000)
    assert banner.inner_text() == f"Round 2 — table {match.table} vs {opponent.display_name}"
    hall_row = hall.locator(".hall-row", has_text=ada.display_name).first
    hall_row.locator(".hall-table", has_text=str(match.table)).wait_for(timeout=2000)
    assert opponent.display_name in hall_row.inner_text()
    assert mine.evaluate("window.__notReloaded === true")  # the pairing came to the page

    theirs = open_page(f"/events/{event}/my-match/", opponent.user.username)
    games = mine.locator("[data-game-report] fieldset")  # issue 30: game by game
    for number, winner in enumerate(("Me", "Opponent", "Me")):
        games.nth(number).get_by_label(winner).check()
    mine.get_by_role("button", name="Report these games").click()
    theirs.get_by_text(f"{ada.display_name} reported 2-1").wait_for(timeout=2000)
    theirs.get_by_role("button", name="Confirm").first.wait_for()
    for page in (hall, theirs):  # the reporter's own page posted its form
        assert page.evaluate("window.__notReloaded === true")
