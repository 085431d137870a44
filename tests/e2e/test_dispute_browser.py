"""On a phone: a player reports, the opponent disputes with their own score, the judge
taps the disputed table on the console, reads both claims and settles it with a reason,
and both players read the settled result."""

import os

import pytest

from tests.e2e.conftest import PHONE, press_and_wait

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("ARBITER_SCREENSHOTS", "")  # a folder to keep the phone's views in


@pytest.fixture
def table(make_world):
    return make_world(["Ann", "Bob", "Cy", "Di"], name="Dispute Open").table(1)


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_dispute_is_settled_where_the_judge_stands(phone, live_server, table):
    event = table.round.event
    my_match = f"{live_server.url}/events/{event.pk}/my-match/"
    ann, bob = table.player_a, table.player_b

    first = phone(ann.user.username)
    first.goto(my_match)
    first.get_by_text("Only the score").click()  # the typed form, under the game-by-game picker
    first.fill("input[name=score]", "2-1")
    press_and_wait(first, first.get_by_role("button", name="Report result"))

    second = phone(bob.user.username)
    second.goto(my_match)
    second.fill(".dispute-form input[name=score]", "2-1")
    second.fill(".dispute-form textarea[name=reason]", "I won game 3 on time")
    press_and_wait(second, second.get_by_role("button", name="No, call a judge"))
    assert "A judge has been called to table 1" in second.inner_text("main")

    judge = phone("jude")
    judge.goto(f"{live_server.url}/events/{event.pk}/judge/")
    judge.locator("a", has_text="Table 1").first.click()
    judge.wait_for_url(f"**/judge/tables/{table.pk}/")
    claims = judge.locator("#claims").inner_text()
    assert f"{ann.display_name} reported 2-1" in claims
    assert f"{bob.display_name} disputed 2-1" in claims and "I won game 3 on time" in claims
    assert fits_the_phone(judge)
    if SHOTS:
        judge.screenshot(path=os.path.join(SHOTS, "table-disputed.png"), full_page=True)
    judge.fill("#settle-score", "2-1")
    judge.get_by_role("button", name="Settle the result").click()  # no reason: the browser
    assert judge.locator("#settle-reason:invalid").count() == 1  # asks for it first
    judge.fill("#settle-reason", "Both agree game 3 was Ann's")
    judge.get_by_role("button", name="Settle the result").click()
    judge.wait_for_url(f"**/judge/tables/{table.pk}/")
    history = judge.locator("#history").inner_text()
    assert "settled by jude: 2-1 — Both agree game 3 was Ann's" in history
    if SHOTS:
        judge.screenshot(path=os.path.join(SHOTS, "table-settled.png"), full_page=True)

    for page, own in ((first, "2-1"), (second, "1-2")):
        page.goto(my_match)
        text = page.inner_text("main")
        assert f"A judge settled the result: {own} with your wins first" in text
