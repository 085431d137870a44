"""A typed decklist survives what used to lose it (issue 17, point 2): cleared cookies (a
refused form token), an expired session, and an illegal submission."""

import pytest

from arbiter.worlds import demo_decklist
from decks.models import Decklist
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in_again(page, deck_url: str) -> None:
    """The log-in page the site sent us to, and back to the editor it names."""
    page.fill("#id_username", "pat")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(deck_url)


def test_cleared_cookies_give_a_page_that_explains_and_the_text_comes_back(
    page, live_server, log_in, registration
):
    deck_url = f"{live_server.url}/events/{registration.event_id}/deck/"
    typed = demo_decklist(0)
    log_in("pat", PASSWORD)
    page.goto(deck_url)
    page.fill("#decklist", typed)
    page.context.clear_cookies()
    page.locator("#submit-deck").click()
    page.locator("#csrf-failure").wait_for()
    assert "CSRF verification failed" not in page.content()
    assert "cookies" in page.inner_text("#csrf-failure")
    page.click("#csrf-back")
    log_in_again(page, deck_url)
    page.locator("#draft-restored").wait_for(state="visible")
    assert page.input_value("#decklist") == typed
    page.locator('.deck-report[data-legal="true"]').wait_for()
    page.locator("#submit-deck").click()
    page.locator(".flash-success").wait_for()
    assert Decklist.objects.get(registration=registration).status == Decklist.Status.SUBMITTED


def test_an_expired_session_says_so_and_an_illegal_list_stays_as_the_draft(
    page, live_server, log_in, registration
):
    deck_url = f"{live_server.url}/events/{registration.event_id}/deck/"
    typed = "4 Ember Tithe\n3 Embr Tithe"
    log_in("pat", PASSWORD)
    page.goto(deck_url)
    page.fill("#decklist", typed)
    kept = [c for c in page.context.cookies() if c["name"] != "sessionid"]
    page.context.clear_cookies()
    page.context.add_cookies(kept)  # the session is gone, the form token still good
    page.locator("#submit-deck").click()
    page.wait_for_url("**/accounts/login/**")
    assert "session expired" in page.inner_text(".messages")
    log_in_again(page, deck_url)
    assert page.input_value("#decklist") == typed
    page.locator("#submit-deck").click()  # not legal: refused, and kept
    page.locator(".flash-error").wait_for()
    assert "kept as your draft" in page.inner_text(".messages")
    assert page.input_value("#decklist") == typed
    page.locator(".violations").wait_for()
    page.goto(deck_url)  # a later visit: the server's draft, with its problems counted
    assert page.input_value("#decklist") == typed
    assert "a draft with" in page.inner_text("#decklist-state")
    draft = Decklist.objects.get(registration=registration)
    assert draft.status == Decklist.Status.DRAFT and draft.raw_text == typed
