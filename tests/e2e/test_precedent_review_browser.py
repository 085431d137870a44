"""Precedents whose rules changed, on a phone and a desktop (issue 35): each rule's old and
new text stacked at 390 px and side by side on a desktop, the changed words marked, the
page no wider than the phone; the head judge reviews one from the phone."""

from __future__ import annotations

import pytest

from precedents.models import Precedent
from tests.e2e.test_accessibility_axe import DESKTOP, PHONE, session_cookie

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OLD = (
    "202.1 A starting Deck must designate exactly one Major Syndicate and may contain any "
    "number of cards belonging to that Syndicate, including Counterfeit-Sleeved-Extraordinarily"
    "-Long-Card-Names."
)


@pytest.fixture
def flagged(make_world):
    world = make_world(4)
    precedent = Precedent.objects.create(
        event=world.event,
        event_name=world.event.name,
        round_number=1,
        ruled_on=world.event.date,
        game="iacta",
        question="deck-legality",
        asked="Five Ember Tithe in the main deck?",
        decision=Precedent.Decision.UPHELD,
        rules=["202.1"],
        rule_texts={"202.1": OLD},
        review={"202.1": {"old": OLD, "new": OLD.replace("any number of", "up to thirty")}},
        needs_review=True,
    )
    return world, precedent


def _open(browser, live_server, who, viewport):
    context = browser.new_context(viewport=viewport)
    context.add_cookies([session_cookie(who, live_server.url)])
    page = context.new_page()
    response = page.goto(f"{live_server.url}/judge/precedents/review/")
    assert response is not None and response.status == 200
    return context, page


def _columns(page) -> tuple[dict, dict]:
    old = page.locator(".rule-old").first.bounding_box()
    new = page.locator(".rule-new").first.bounding_box()
    return old, new


def test_old_and_new_are_stacked_on_a_phone_and_side_by_side_on_a_desktop(
    browser, live_server, flagged
):
    world, _ = flagged
    context, page = _open(browser, live_server, world.organiser, PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    old, new = _columns(page)
    assert new["y"] >= old["y"] + old["height"] - 1  # the new text below the old
    assert page.locator(".rule-old del").inner_text() == "any number of"
    assert page.locator(".rule-new ins").inner_text() == "up to thirty"
    context.close()
    context, page = _open(browser, live_server, world.organiser, DESKTOP)
    old, new = _columns(page)
    assert abs(new["y"] - old["y"]) < 2 and new["x"] > old["x"] + old["width"] - 1
    context.close()


def test_the_organiser_reviews_it_from_the_phone(browser, live_server, flagged):
    world, precedent = flagged
    context, page = _open(browser, live_server, world.organiser, PHONE)
    form = page.locator("form.review-form")
    form.get_by_label("still holds: the new text changes nothing").check()
    form.get_by_label("Note for later judges (optional)").fill("Thirty is plenty for five.")
    form.get_by_role("button", name="Save the review").click()
    page.wait_for_load_state("networkidle")
    body = page.inner_text("body")
    assert "Reviewed: the ruling still holds under the new text." in body
    assert "No precedent to review." in body
    precedent.refresh_from_db()
    assert not precedent.needs_review and precedent.note.endswith("Thirty is plenty for five.")
    context.close()
