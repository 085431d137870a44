"""A judge logs three Slow Play Warnings in one game and sees the game loss applied."""

import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from judging.models import Penalty
from tests.conftest import PASSWORD
from tests.e2e.conftest import preview_of_game
from tests.waiting import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(make_world):
    return make_world(["Ann", "Bob", "Cy", "Di"], name="Penalty Open").table(1)


def log_slow_play(page, table, game: int) -> None:
    page.select_option("select[name=match]", str(table.pk))
    page.select_option("select[name=player]", str(table.player_a_id))
    page.select_option("select[name=infraction]", "slow_play")
    page.fill("input[name=game]", str(game))


def log_slow_play_previewed(page, table, game: int) -> None:
    """``log_slow_play``, back once the preview of the whole choice has been answered."""
    with page.expect_response(preview_of_game(game)):
        log_slow_play(page, table, game)


def test_third_slow_play_warning_shows_and_applies_the_game_loss(page, live_server, log_in, table):
    event = table.round.event
    log_in("jude", PASSWORD)
    name = table.player_a.display_name
    for warning in (1, 2, 3):
        page.goto(f"{live_server.url}/events/{event.pk}/penalties/new/?match={table.pk}")
        log_slow_play_previewed(page, table, game=2)
        preview = page.locator(".penalty-preview")
        preview.wait_for()
        if warning == 3:
            page.locator(".penalty-preview.has-consequence").wait_for()
            assert "Game Loss in game 2 (905.1)" in preview.inner_text()
        else:
            expect(preview).to_contain_text("nothing else happens yet")
        page.locator("#confirm-penalty").click()
        page.wait_for_url(f"**/judge/tables/{table.pk}/")
    assert page.locator(".game-losses").inner_text() == f"Game 2: Game Loss for {name}"
    assert page.locator(".match-result").inner_text() == "—"  # no result reported yet


def test_confirming_while_a_preview_is_under_way_logs_the_penalty_once(
    page, live_server, log_in, table, monkeypatch
):
    """A busy server: the judge taps Confirm while a preview is still on its way. The
    preview htmx queues behind it must go to the preview, not post the penalty again."""
    from judging import penalties

    busy: list[str] = []  # the services' calls under way on the server
    issue, preview = penalties.issue_penalty, penalties.preview_penalty
    monkeypatch.setattr(penalties, "issue_penalty", _slowly(issue, 2, busy))
    monkeypatch.setattr(penalties, "preview_penalty", _slowly(preview, 0.7, busy))
    event = table.round.event
    log_in("jude", PASSWORD)
    new_penalty = f"/events/{event.pk}/penalties/new/"
    page.goto(f"{live_server.url}{new_penalty}?match={table.pk}")
    posted: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posted.append(urlsplit(r.url).path))
    log_slow_play(page, table, game=2)
    page.locator("#confirm-penalty").click()  # the previews of the choices are under way
    page.wait_for_url(f"**/judge/tables/{table.pk}/")
    # Every request the form page sent went before its answer to Confirm: the penalty was
    # posted once. And the server has finished every one of them it took up.
    assert posted.count(new_penalty) == 1, posted
    wait_until(lambda: not busy, 10, lambda: f"the server to finish {busy}", interval=0.05)
    assert Penalty.objects.filter(match=table).count() == 1


def _slowly(service, seconds: float, busy: list[str]):
    def slow(*args, **kwargs):
        busy.append(service.__name__)
        try:
            time.sleep(seconds)  # the busy server: the point of the test, not a wait
            return service(*args, **kwargs)
        finally:
            busy.remove(service.__name__)

    return slow
