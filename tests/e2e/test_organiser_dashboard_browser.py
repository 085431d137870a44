"""An organiser runs a 3-round, 8-player event from the dashboard in a real browser."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.e2e.conftest import press_and_wait

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def eight_player_event(make_world):
    """Eight players checked in, nothing paired: the browser does the rest."""
    return make_world(8, name="Browser Cup", judge=None, paired=False, swiss_rounds=3).event


def click_next_step(page, label: str) -> None:
    button = page.locator("#next-step")
    assert button.inner_text() == label
    press_and_wait(page, button)


def test_organiser_runs_three_rounds_and_reads_the_standings(
    page, live_server, log_in, eight_player_event
):
    event = eight_player_event
    log_in("olive", PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/manage/")
    for number in (1, 2, 3):
        click_next_step(page, f"Pair round {number}")
        rows = page.locator("table.tables tbody tr")
        assert rows.count() == 4
        click_next_step(page, f"Start round {number}")
        for index in range(4):
            row = page.locator("table.tables tbody tr").nth(index)
            row.locator("input[name=score]").fill("2-0")
            row.get_by_role("button", name="Save").click()
            page.locator("table.tables tbody tr").nth(index).locator(
                "text=Entered by staff"
            ).wait_for()
        click_next_step(page, f"Close round {number}")
        assert page.locator(".flash-success").first.inner_text() == f"Done: Close round {number}."
    click_next_step(page, "Finish the event")
    page.get_by_role("link", name="Standings").first.click()
    # The click only starts the navigation: read the table once the new page is there.
    expect(page.locator("h1")).to_have_text("Final placings")  # no top cut: the Swiss order
    first = page.locator("table.standings tbody tr").first
    first.wait_for()
    cells = first.locator("td").all_inner_texts()
    assert cells[0] == "1st" and cells[-2:] == ["9", "3-0-0"]
    assert page.locator("table.standings tbody tr").count() == 8
