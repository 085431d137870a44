"""A judge on a phone (390 x 844): the console's queue first, the main actions under the
thumb, tap targets of at least 44 px, nothing wider than the screen; the queue refreshes
itself; a tap on a table opens the judge's table page, which fits the screen too."""

import pytest

from judging.models import JudgeCall
from tests.conftest import PASSWORD
from tests.e2e.conftest import wait_for_true
from tests.judging.floor import busy_floor

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TAP = 44


@pytest.fixture
def floor(make_world):
    return busy_floor(make_world)


def horizontal_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def too_small(locator) -> list[str]:
    boxes = [
        (locator.nth(i).inner_text(), locator.nth(i).bounding_box()) for i in range(locator.count())
    ]
    return [f"{text}: {box}" for text, box in boxes if box["width"] < TAP or box["height"] < TAP]


def test_the_console_is_a_queue_a_judge_uses_with_one_hand(page, live_server, log_in, floor):
    page.set_viewport_size(PHONE)
    log_in("jude", PASSWORD)
    page.goto(f"{live_server.url}/events/{floor.event.pk}/judge/")
    assert horizontal_overflow(page) <= 0
    first = page.locator("#judge-queue .queue-item").first
    assert first.bounding_box()["y"] < PHONE["height"]  # the queue is on the first screen
    assert first.bounding_box()["y"] < page.locator("#log-call").bounding_box()["y"]

    actions = page.locator(".judge-actions a")
    assert actions.all_inner_texts() == [
        "Log call",
        "Log penalty",
        "Search timer",
        "Grant extension",
    ]
    for i in range(actions.count()):
        box = actions.nth(i).bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"]  # at the bottom, in reach
        assert box["y"] > PHONE["height"] - 120
    assert too_small(actions) == []
    assert too_small(page.locator(".queue-table")) == []
    assert too_small(page.locator(".table-links a")) == []

    # The bar stays under the thumb as the page scrolls.
    page.mouse.wheel(0, 2000)
    wait_for_true(page, "window.scrollY > 0")
    assert actions.first.bounding_box()["y"] > PHONE["height"] - 120
    actions.filter(has_text="Log call").click()
    page.locator("input[name=question]").fill("A question")  # reachable and usable

    page.locator(".queue-dispute .queue-table").click()
    page.wait_for_url(f"**/judge/tables/{floor.tables[1].pk}/")
    assert page.locator("h1").inner_text() == f"Table {floor.tables[1].table}"
    assert horizontal_overflow(page) <= 0
    table_actions = page.locator(".table-actions a")
    assert too_small(table_actions) == []
    bottom = table_actions.first.bounding_box()
    assert bottom["y"] + bottom["height"] <= PHONE["height"]


def test_the_queue_refreshes_itself(page, live_server, log_in, floor):
    page.set_viewport_size(PHONE)
    log_in("jude", PASSWORD)
    page.goto(f"{live_server.url}/events/{floor.event.pk}/judge/")
    updated = page.locator(".queue-updated time").get_attribute("datetime")
    assert page.locator(".queue-answer").count() == 1
    JudgeCall.objects.create(
        event=floor.event, match=floor.tables[4], table=4, question="Is this legal?"
    )
    page.locator(".queue-answer").nth(1).wait_for(timeout=30_000)  # within one 20 s refresh
    assert page.locator(".queue-updated time").get_attribute("datetime") != updated
    assert "Is this legal?" in page.locator("#judge-queue").inner_text()
