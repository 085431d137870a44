"""Issue 17's whole event in Chromium: eight players register and seven submit their
decklists; the organiser is warned about the eighth and drops them; three Swiss rounds,
a top 4, and the public pages name the winner and the final placings."""

import pytest
from django.contrib.auth import get_user_model

from arbiter.worlds import demo_decklist
from decks.cardpool import load_demo_pools
from tests.conftest import PASSWORD
from tests.e2e.conftest import press_and_wait
from tournaments.models import Event, Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = ["ada", "bea", "cyd", "dov", "eli", "fay", "gus", "hal"]
NEVER_SUBMITS = "hal"


@pytest.fixture
def open_event(make_world):
    """An event open for registration, nobody in it yet, decklists checked (warn)."""
    load_demo_pools()
    for username in PLAYERS:
        get_user_model().objects.create_user(
            username, password=PASSWORD, first_name=username.title()
        )
    return make_world(
        [], name="Whole Event Cup", judge=None, paired=False, top_cut=4, decklist_policy="warn"
    ).event


def register_and_submit(page, site: str, event: Event, decklist: str | None) -> None:
    page.goto(f"{site}/events/{event.pk}/")
    page.get_by_role("button", name="Register for this event").click()
    page.wait_for_load_state()
    assert page.locator("#decklist-state").get_attribute("data-state") == "none"
    if decklist is None:
        return
    page.goto(f"{site}/events/{event.pk}/deck/")
    page.fill("#decklist", decklist)
    page.locator('.deck-report[data-legal="true"]').wait_for()
    page.locator("#submit-deck").click()
    page.locator(".flash-success").wait_for()
    page.goto(f"{site}/events/{event.pk}/")
    assert page.locator("#decklist-state").get_attribute("data-state") == "submitted"


def click_next_step(page, label: str) -> None:
    button = page.locator("#next-step")
    assert button.inner_text() == label
    press_and_wait(page, button)


def enter_every_result(page) -> int:
    """Staff enter 2-0 at every table with a score box; returns how many tables."""
    rows = page.locator("table.tables tbody tr")
    tables = [i for i in range(rows.count()) if rows.nth(i).locator("input[name=score]").count()]
    for index in tables:
        row = page.locator("table.tables tbody tr").nth(index)
        row.locator("input[name=score]").fill("2-0")
        row.get_by_role("button", name="Save").click()
        page.locator("table.tables tbody tr").nth(index).locator("text=Entered by staff").wait_for()
    return len(tables)


def play_round(page, number: int, tables: int) -> None:
    assert enter_every_result(page) == tables
    click_next_step(page, f"Close round {number}")


def test_an_eight_player_event_from_registration_to_the_winner(
    page, live_server, log_in, phone, open_event
):
    event, site = open_event, live_server.url
    for index, username in enumerate(PLAYERS):
        decklist = None if username == NEVER_SUBMITS else demo_decklist(index)
        player_page = phone(username)
        register_and_submit(player_page, site, event, decklist)
        player_page.context.close()  # done: its live page stops asking the server

    log_in("olive", PASSWORD)
    page.goto(f"{site}/events/{event.pk}/manage/")
    press_and_wait(page, page.get_by_role("button", name="Check in everyone"))
    warning = page.locator("#decklists-missing-warning").inner_text()
    assert warning.startswith("1 of 8 players has no legal submitted decklist")
    missing = page.locator("#decklists-missing tbody tr")
    assert missing.count() == 1 and "Hal" in missing.inner_text()
    press_and_wait(page, missing.get_by_role("button", name="drop"))
    assert page.locator("#decklists-missing-warning").count() == 0

    for number in (1, 2, 3):
        click_next_step(page, f"Pair round {number}")
        assert "has the bye as the lowest-ranked player" in page.inner_text("main")
        click_next_step(page, f"Start round {number}")
        play_round(page, number, tables=3)
    click_next_step(page, "Cut to the top 4")
    click_next_step(page, "Start round 4")
    play_round(page, 4, tables=2)
    click_next_step(page, "Pair round 5 of the top cut")
    final = Round.objects.get(event=event, number=5).matches.get()
    winner = final.player_a.display_name
    click_next_step(page, "Start round 5")
    play_round(page, 5, tables=1)
    click_next_step(page, "Finish the event")

    page.goto(f"{site}/events/{event.pk}/standings/")
    assert page.locator("h1").inner_text() == "Final placings"
    assert page.locator("#event-winner").inner_text().startswith(f"Winner: {winner}")
    places = page.locator("table.placings tbody tr").all_inner_texts()
    assert places[0].startswith("1st") and winner in places[0]
    assert places[1].startswith("2nd") and final.player_b.display_name in places[1]
    assert [p.split()[0] for p in places[2:4]] == ["3rd\u20134th"] * 2
    assert len(places) == 7 and not any("Hal" in p for p in places)  # never played
    page.goto(f"{site}/events/{event.pk}/")
    assert winner in page.locator("#event-winner").inner_text()
    page.goto(f"{site}/events/{event.pk}/summary/")
    summary = page.locator("main").inner_text()
    assert f"Winner: {winner}" in summary and "8 (1 dropped)" in summary
