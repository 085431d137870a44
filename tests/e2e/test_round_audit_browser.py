"""A round's audit page in a phone's browser: "Check it in your browser" runs the checker
(static/js/pairing-verify.js) on the round's two files and says so in a live region; a
tampered pairing is refused there too. The page fits 390 px and has no serious axe finding.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_accessibility_axe import blocking_violations
from tests.tournaments.test_round_audit import crossing_swap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def audit_page(browser, live_server, make_world):
    """A phone on round 2's audit page (nine players: a pair-down and a bye)."""
    world = make_world(9, rounds_played=1)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    url = f"{live_server.url}/events/{world.event.pk}/rounds/2/audit/"
    yield world, page, url
    context.close()


def test_the_in_browser_check_passes_on_a_phone(audit_page):
    _world, page, url = audit_page
    response = page.goto(url)
    assert response is not None and response.status == 200
    page.wait_for_load_state("networkidle")
    result = page.locator("#audit-check-result")
    assert result.get_attribute("aria-live") == "polite"
    page.get_by_role("button", name="Check it in your browser").click()
    expect(result).to_contain_text("Checked in your browser: valid and optimal.")
    expect(result).to_have_class("audit-check-result ok")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert blocking_violations(page, "round audit") == []


def test_the_in_browser_check_refuses_a_tampered_pairing(audit_page):
    world, page, url = audit_page
    stored = world.round.audit
    pairing = dict(stored["pairing"], pairings=crossing_swap(stored["state"], stored["pairing"]))
    page.route(
        "**/audit/pairing.json",
        lambda route: route.fulfill(body=json.dumps(pairing), content_type="application/json"),
    )
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="Check it in your browser").click()
    result = page.locator("#audit-check-result")
    expect(result).to_contain_text("Checked in your browser: refused.")
    expect(result).to_have_class("audit-check-result bad")
