"""The organiser's dashboard shows results as they come in, without a reload, and keeps a
score the organiser is typing until it is sent (live.js, live-hold.js)."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.e2e.conftest import log_page_in
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _report(match) -> None:
    results.report_result(match, match.player_a, Score.parse("2-0"), match.player_a.user)


def test_results_come_in_live_and_a_half_typed_score_is_kept(page, make_world, asgi_server):
    world = make_world(6, started=True)
    site = asgi_server.url
    log_page_in(page, site, world.organiser.username, PASSWORD)
    page.goto(f"{site}/events/{world.event.pk}/manage/")
    expect(page.locator("html")).to_have_attribute("data-live-state", "live")
    one, two, three = (world.table(n) for n in (1, 2, 3))

    _report(three)
    expect(page.locator(f"#match-{three.pk}")).to_contain_text("Reported", timeout=2000)
    expect(page.locator("#manage-status")).to_contain_text("3 tables still without")  # reported

    typed = page.locator(f"#match-{one.pk} input[name=score]")
    typed.fill("2-1")
    _report(two)
    expect(page.locator("#manage-status")).to_contain_text("3 tables still without")
    # The notice has come and gone: live-hold.js marked the held tables as behind (and
    # live.js fetches no region so marked), and the typing is kept.
    expect(page.locator("#manage-tables")).to_have_attribute("data-live-missed", "")
    expect(typed).to_have_value("2-1")
    expect(page.locator(f"#match-{two.pk}")).not_to_contain_text("Reported")

    page.locator(f"#match-{one.pk} button[type=submit]").click()
    expect(page.locator(f"#match-{one.pk}")).to_contain_text("Entered by staff")
    expect(page.locator("#manage-status")).to_contain_text("2 tables still without")
    expect(page.locator(f"#match-{two.pk}")).to_contain_text("Reported", timeout=2000)
