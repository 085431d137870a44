"""The players-kept-apart page on a phone (390 px): the organiser picks two players, adds
the pair and sees it listed; axe finds nothing serious and nothing runs off the screen."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import press_and_wait
from tests.e2e.test_accessibility_axe import PHONE, blocking_violations, session_cookie
from tournaments.event import avoid_pairs
from tournaments.models import AvoidPair

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_organiser_keeps_two_players_apart_on_a_phone(browser, live_server, make_world):
    world = make_world(6, paired=False)
    first, second, third = world.registrations[:3]
    avoid_pairs.add_pair(world.event, first, third, world.organiser, "a" * 200)  # long reason
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([session_cookie(world.organiser, live_server.url)])
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{world.event.pk}/manage/")
    page.get_by_role("link", name="Players kept apart").click()
    page.get_by_label("First player").select_option(str(first.pk))
    page.get_by_label("Second player").select_option(str(second.pk))
    page.get_by_label("Reason (optional, logged)").fill("brothers")
    press_and_wait(page, page.get_by_role("button", name="Keep apart"))
    page.get_by_text("will not be paired against each other in Swiss").wait_for()
    assert AvoidPair.objects.filter(event=world.event).count() == 2
    assert page.get_by_text("“brothers”").count() == 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert blocking_violations(page, "players kept apart") == []
    context.close()
