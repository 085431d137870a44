"""Issue 30, point 1, in Chromium: three players who registered on the site and did not
check in are named before round 1 and pairing is refused until the organiser confirms;
one of them checks in from a phone (390 px) while self check-in is open; the one left
out reads so, and what to do, on My match."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.conftest import PASSWORD
from tests.e2e.conftest import log_page_in, press_and_wait
from tournaments.event import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLEEPERS = {"ines": "Ines Late", "juno": "Juno Away", "kai": "Kai Nowhere"}


@pytest.fixture
def event_with_sleepers(make_world):
    """Four players the organiser checked in, three who registered on the site only;
    self check-in opened a minute ago."""
    world = make_world(
        4,
        name="Check-in Cup",
        judge=None,
        paired=False,
        self_check_in_opens=timezone.now() - datetime.timedelta(minutes=1),
    )
    for username, name in SLEEPERS.items():
        first, last = name.split()
        user = get_user_model().objects.create_user(
            username, password=PASSWORD, first_name=first, last_name=last
        )
        services.register_player(world.event, user)
    return world.event


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_self_check_in_on_a_phone_and_round_one_asks_first(
    page, phone, live_server, event_with_sleepers
):
    event = event_with_sleepers
    site = live_server.url

    ines = phone("ines")
    ines.goto(f"{site}/events/{event.pk}/my-match/")
    assert "You are not checked in yet." in ines.locator("#check-in-state").inner_text()
    assert no_sideways_scroll(ines)
    ines.get_by_role("button", name="Check in", exact=True).click()
    ines.wait_for_load_state()
    assert "You are checked in." in ines.content()
    assert "You are checked in for round 1." in ines.locator("#check-in-state").inner_text()

    log_page_in(page, site, "olive")
    page.goto(f"{site}/events/{event.pk}/manage/")
    listed = page.locator("#not-checked-in").inner_text()
    assert "Juno Away" in listed and "Kai Nowhere" in listed and "Ines Late" not in listed
    press_and_wait(page, page.get_by_role("button", name="Pair round 1"))
    assert "2 registered players are not checked in (Juno Away, Kai Nowhere)" in page.content()
    assert not event.rounds.exists()
    page.check("#confirm-not-checked-in")
    press_and_wait(page, page.get_by_role("button", name="Pair round 1"))
    assert event.rounds.count() == 1

    juno = phone("juno")
    juno.goto(f"{site}/events/{event.pk}/my-match/")
    told = juno.locator("#check-in-state").inner_text()
    assert "round 1 was paired without you" in told and "Find the organiser or a judge" in told
    assert no_sideways_scroll(juno)
    juno.goto(f"{site}/events/{event.pk}/")
    assert "round 1 was paired without you" in juno.locator("#check-in-state").inner_text()
