"""The judge roster's pages on a phone (issue 33): the roster the head judge sets, a floor
judge's console filtered to their zone, the end-of-round team's outstanding tables and
the deck-check team's tables: each fits 390 px and has no serious axe violation; a zone
added on the phone shows on the roster."""

from __future__ import annotations

import pytest

from judging import calls, roster
from tests.conftest import make_user
from tests.e2e.test_accessibility_axe import PHONE, blocking_violations, session_cookie
from tournaments.models import EventRole

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def zoned(make_world):
    world = make_world(16, started=True)
    event, olive = world.event, world.organiser
    people = {}
    for name in ("amy", "bea", "hana"):
        people[name] = make_user(name)
        EventRole.objects.create(event=event, user=people[name], role=EventRole.Role.JUDGE)
    a = roster.save_zone(event, olive, name="A", first_table=1, last_table=4)
    b = roster.save_zone(event, olive, name="B", first_table=5, last_table=8)
    roster.assign(event, olive, username="bea", role="floor", zone_id=b.pk)
    roster.assign(event, olive, username="amy", role="floor", team="end_of_round", zone_id=a.pk)
    roster.assign(event, olive, username="hana", role="head")
    roster.pick_deck_checks(event, olive, count=2)
    calls.open_call(event, olive, question="Zone B question", table=6)
    calls.open_call(event, olive, question="Zone A question", table=2)
    return world, people


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_roster_pages_fit_a_phone_and_pass_axe(browser, live_server, zoned):
    world, people = zoned
    e = f"/events/{world.event.pk}"
    walk = [
        ("roster (head judge)", people["hana"], f"{e}/judge/roster/"),
        ("console (zone A)", people["amy"], f"{e}/judge/"),
        ("end of round", people["amy"], f"{e}/judge/end-of-round/"),
        ("deck-check tables", people["amy"], f"{e}/judge/deck-check-tables/"),
    ]
    findings: list[str] = []
    for label, who, path in walk:
        context = browser.new_context(viewport=PHONE)
        context.add_cookies([session_cookie(who, live_server.url)])
        page = context.new_page()
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, label
        page.wait_for_load_state("networkidle")
        assert _fits(page), label
        findings += blocking_violations(page, label)
        if label.startswith("console"):
            text = page.inner_text("body")
            assert "Zone A question" in text and "Zone B question" not in text
        context.close()
    assert findings == [], "\n".join(findings)


def test_the_head_judge_adds_a_zone_on_the_phone(browser, live_server, zoned):
    world, people = zoned
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([session_cookie(people["hana"], live_server.url)])
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{world.event.pk}/judge/roster/")
    form = page.locator("form.roster-form").filter(has_text="Add a zone")
    form.get_by_label("Name").fill("C")
    form.get_by_label("First table").fill("9")
    form.get_by_label("Last table").fill("12")
    form.get_by_role("button", name="Add the zone").click()
    page.wait_for_load_state("networkidle")
    assert "Roster saved." in page.inner_text("body")
    assert "Zone C (tables 9 to 12)" in page.inner_text("#zones")
    assert _fits(page)
    context.close()
