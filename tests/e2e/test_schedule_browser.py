"""The live schedule in a browser (issue 33): the event page's table on a phone (390 px,
nothing wider than the screen) and the hall between rounds (1920 x 1080, the line whole
on screen), each with no serious axe violation."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.conftest import play_out
from tests.e2e.test_accessibility_axe import HALL, PHONE, blocking_violations
from tournaments.models import Event
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def between_rounds(make_world, organiser) -> Event:
    """Round 1 played and closed, round 2 not paired: planned an hour ago, so late."""
    world = make_world(8, swiss_rounds=4, top_cut=4, started=True, name="Schedule Open")
    event = world.event
    round_one = event.rounds.get()
    play_out(round_one, organiser)
    rounds.close_round(round_one, organiser)
    Event.objects.filter(pk=event.pk).update(
        first_round_at=timezone.now() - datetime.timedelta(minutes=75), break_minutes=10
    )
    return event


def test_the_schedule_reads_on_a_phone_and_on_the_hall_screen(browser, live_server, between_rounds):
    findings = []
    phone = browser.new_context(viewport=PHONE)
    page = phone.new_page()
    page.goto(f"{live_server.url}/events/{between_rounds.pk}/")
    table = page.locator("#event-schedule table")
    assert table.locator("tbody tr").count() == 6  # 4 Swiss rounds and a top 4's two
    assert "minutes late" in page.inner_text("#event-schedule-next")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    findings += blocking_violations(page, "event page with its schedule")
    phone.close()

    hall = browser.new_context(viewport=HALL)
    page = hall.new_page()
    page.goto(f"{live_server.url}/events/{between_rounds.pk}/hall/")
    line = page.locator("[data-hall-schedule]")
    assert line.inner_text().startswith("Round 2 starts about")
    assert "minutes late" in line.inner_text()
    box = line.bounding_box()
    assert box is not None and box["y"] + box["height"] <= HALL["height"]
    findings += blocking_violations(page, "hall between rounds")
    hall.close()
    assert findings == [], "\n".join(findings)
