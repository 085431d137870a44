"""In Chromium: the standings' name search filters as one types, and after a top 4 the
public standings page leads with the final placings and the winner's name."""

import pytest

from tests.conftest import play_out
from tests.e2e.conftest import wait_for_true
from tests.e2e.test_csp import Watcher
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def close(round_, organiser, score="2-0"):
    play_out(round_, organiser, score)
    rounds.close_round(round_, organiser)


def latest(event):
    return event.rounds.order_by("-number").first()


def test_the_search_filters_the_standings_as_one_types(page, live_server, make_world):
    world = make_world(8, rounds_played=1, paired=False)
    watcher = Watcher(page)
    url = f"{live_server.url}/events/{world.event.pk}/standings/"
    assert watcher.visit(url) == []
    assert page.locator("table.standings tbody tr").count() == 8
    assert "%" in page.locator("table.standings tbody tr").first.inner_text()
    page.fill("#standings-q", "p05")
    wait_for_true(page, "document.querySelectorAll('table.standings tbody tr').length === 1")
    assert "P05" in page.locator("table.standings tbody").inner_text()
    assert page.url == url  # filtered in place, no reload


def test_after_the_top_4_the_public_page_names_the_winner(page, live_server, make_world):
    world = make_world(8, rounds_played=3, paired=False, top_cut=4)
    event, organiser = world.event, world.organiser
    rounds.start_top_cut(event, organiser)
    close(latest(event), organiser, "0-2")  # the lower seeds win both semifinals
    rounds.advance_top_cut(event, organiser)
    final = latest(event).matches.get()
    winner = final.player_a.display_name
    close(latest(event), organiser)
    rounds.advance_top_cut(event, organiser)
    watcher = Watcher(page)
    assert watcher.visit(f"{live_server.url}/events/{event.pk}/standings/") == []
    assert page.locator("h1").inner_text() == "Final placings"
    assert page.locator("#event-winner").inner_text().startswith(f"Winner: {winner}")
    first_row = page.locator("table.placings tbody tr").first.inner_text()
    assert first_row.startswith("1st") and winner in first_row
    page.click("text=Swiss standings")
    page.wait_for_load_state()
    assert page.locator("table.standings th abbr").first.get_attribute("title")
    assert watcher.visit(f"{live_server.url}/events/{event.pk}/") == []
    assert winner in page.locator("#event-winner").inner_text()
