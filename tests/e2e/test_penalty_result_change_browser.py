"""On a phone: a judge gives the third Slow Play Warning in game 2 of a match confirmed
2-1, reads the result change in the preview, confirms it, and the player is told."""

import pytest

from tests.conftest import PASSWORD
from tournaments import results
from tournaments.match_games import Score

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(make_world):
    table = make_world(["Ann", "Bob", "Cy", "Di"], name="Penalty Open").table(1)
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 1), a.user)
    results.confirm_result(table, b, b.user)
    return table


def test_judge_confirms_the_result_change_and_the_player_reads_the_notice(
    page, live_server, log_in, table
):
    page.set_viewport_size({"width": 390, "height": 844})
    event = table.round.event
    name = table.player_a.display_name
    log_in("jude", PASSWORD)
    for warning in (1, 2, 3):
        page.goto(f"{live_server.url}/events/{event.pk}/penalties/new/?match={table.pk}")
        page.select_option("select[name=player]", str(table.player_a_id))
        page.select_option("select[name=infraction]", "slow_play")
        page.fill("input[name=game]", "2")
        if warning == 3:
            page.locator(".penalty-preview.changes-result").wait_for()
            assert page.locator(".penalty-change").inner_text() == (
                f"This penalty makes game 2 a Game Loss for {name} (905.1): "
                "the confirmed result 2-1 becomes 1-2."
            )
        else:
            page.locator(".penalty-preview").wait_for()
            page.wait_for_timeout(300)
        page.locator("#confirm-penalty").click()
        page.wait_for_url(f"**/judge/tables/{table.pk}/")
    assert page.locator(".match-result").inner_text() == "1-2"
    assert "Result changed: 2-1 became 1-2" in page.content()

    page.context.clear_cookies()
    log_in(table.player_a.user.username, PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/my-match/")
    assert page.locator(".result-notice").first.inner_text() == (
        "A judge changed your result: round 1, table 1, 2-1 became 1-2 "
        f"(Game Loss in game 2 for {name}: Slow Play Warning), rule 905.1."
    )
