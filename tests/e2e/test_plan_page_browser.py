"""The "Plan for the field" page on a phone (390 px): axe finds nothing serious, nothing
runs off the screen with the round-by-round schedule open, and Accept sets the event's
rounds and cut."""

from __future__ import annotations

import pytest

from tests.e2e.test_accessibility_axe import PHONE, blocking_violations, session_cookie

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_plan_page_is_axe_clean_fits_a_phone_and_accepts(browser, live_server, make_world):
    world = make_world(40, paired=False, swiss_rounds=None, accounts=False)
    first = world.registrations[0]
    first.awarded_byes = 3
    first.save(update_fields=["awarded_byes"])
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([session_cookie(world.organiser, live_server.url)])
    page = context.new_page()
    response = page.goto(f"{live_server.url}/events/{world.event.pk}/plan/")
    assert response is not None and response.status == 200
    page.locator(".event-plan summary").click()  # the schedule opens: checked as read
    assert page.get_by_text("1 with 3 byes").count() == 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert blocking_violations(page, "plan page") == []
    with page.expect_navigation():
        page.get_by_role("button", name="Accept the recommendation").click()
    assert page.get_by_text("The plan is accepted").count() == 1
    world.event.refresh_from_db()
    assert (world.event.swiss_rounds, world.event.top_cut) == (6, 8)  # 47 counted
    context.close()
