"""The webhooks page on a phone (390 px): axe finds nothing serious, nothing runs off the
screen with a long URL, a turned-off webhook and a delivery's log open."""

from __future__ import annotations

import pytest

from tests.e2e.test_accessibility_axe import PHONE, blocking_violations, session_cookie
from webhooks.models import Attempt, Delivery, Subscription

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG_URL = "https://hooks.example.org/" + "a-very-long-path-segment" * 8


def test_the_webhooks_page_is_axe_clean_and_fits_a_phone(browser, live_server, make_world):
    world = make_world(4)
    hook = Subscription.objects.create(
        owner=world.organiser, event=world.event, url=LONG_URL, secret="whsec_" + "A" * 44
    )
    Subscription.objects.create(
        owner=world.organiser,
        event=world.event,
        url="https://discord.com/api/webhooks/1/token",
        secret="whsec_" + "B" * 44,
        active=False,
        failures=5,
        disabled_reason="5 deliveries in a row failed; the last: 503",
    )
    delivery = Delivery.objects.create(
        subscription=hook,
        message_id="msg_page",
        kind="round.paired",
        payload={"type": "round.paired", "data": {}},
        outcome=Delivery.Outcome.DELIVERED,
        attempts=2,
        status_code=200,
        response_excerpt="x" * 500,
    )
    Attempt.objects.create(delivery=delivery, number=1, status_code=500, error="answered 500")
    Attempt.objects.create(delivery=delivery, number=2, status_code=200)

    context = browser.new_context(viewport=PHONE)
    context.add_cookies([session_cookie(world.organiser, live_server.url)])
    page = context.new_page()
    response = page.goto(f"{live_server.url}/events/{world.event.pk}/webhooks/")
    assert response is not None and response.status == 200
    for summary in page.locator(".webhooks summary").all():
        summary.click()  # the secret and the log open: checked as they are read
    assert page.get_by_text("HTTP 500").count() == 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert blocking_violations(page, "webhooks page") == []
    context.close()
