"""A judge logs three Slow Play Warnings in one game and sees the game loss applied."""

import time

import pytest

from judging.models import Penalty
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(make_world):
    return make_world(["Ann", "Bob", "Cy", "Di"], name="Penalty Open").table(1)


def log_slow_play(page, table, game: int) -> None:
    page.select_option("select[name=match]", str(table.pk))
    page.select_option("select[name=player]", str(table.player_a_id))
    page.select_option("select[name=infraction]", "slow_play")
    page.fill("input[name=game]", str(game))


def test_third_slow_play_warning_shows_and_applies_the_game_loss(page, live_server, log_in, table):
    event = table.round.event
    log_in("jude", PASSWORD)
    name = table.player_a.display_name
    for warning in (1, 2, 3):
        page.goto(f"{live_server.url}/events/{event.pk}/penalties/new/?match={table.pk}")
        log_slow_play(page, table, game=2)
        preview = page.locator(".penalty-preview")
        preview.wait_for()
        if warning == 3:
            page.locator(".penalty-preview.has-consequence").wait_for()
            assert "Game Loss in game 2 (905.1)" in preview.inner_text()
        else:
            page.wait_for_timeout(300)
            assert "nothing else happens yet" in preview.inner_text()
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

    issue, preview = penalties.issue_penalty, penalties.preview_penalty
    monkeypatch.setattr(penalties, "issue_penalty", _slowly(issue, 2))
    monkeypatch.setattr(penalties, "preview_penalty", _slowly(preview, 0.7))
    event = table.round.event
    log_in("jude", PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/penalties/new/?match={table.pk}")
    log_slow_play(page, table, game=2)
    page.locator("#confirm-penalty").click()  # the previews of the choices are under way
    page.wait_for_url(f"**/judge/tables/{table.pk}/")
    page.wait_for_timeout(2500)  # any second request has finished by now
    assert Penalty.objects.filter(match=table).count() == 1


def _slowly(service, seconds: float):
    def slow(*args, **kwargs):
        time.sleep(seconds)
        return service(*args, **kwargs)

    return slow
