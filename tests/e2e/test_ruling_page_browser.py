"""A judge fills the flush-score form in a real browser and reads the ruling."""

import pytest

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def judge_account(make_world):
    """jude, a judge of an event (with no players yet)."""
    return make_world(0, name="Browser Open", paired=False).judge


def test_judge_fills_flush_score_and_reads_the_ruling(page, live_server, log_in, judge_account):
    log_in("jude", PASSWORD)
    page.goto(f"{live_server.url}/judge/rule/?game=iacta&question=flush-score")
    dice = page.locator('fieldset[data-path="dice"]')
    # Clear the example, then enter the Register 2 3 4 5 6 die by die.
    while dice.locator("button[aria-label=Remove]").count():
        dice.locator("button[aria-label=Remove]").first.click()
    for index, value in enumerate([6, 3, 5, 2, 4]):
        dice.get_by_role("button", name="+ add").click()
        page.fill(f'input[name="dice[{index}]"]', str(value))
    page.get_by_role("button", name="Rule").click()

    ruling = page.locator('.ruling[data-status="ok"]')
    ruling.wait_for()
    assert ruling.locator('code[data-key="combo"]').inner_text() == '"deep_run"'
    assert ruling.locator('code[data-key="score"]').inner_text() == "38"
    assert "20" in ruling.locator(".explanation").inner_text()
    link = ruling.locator(".citations a").first
    assert "/rules/iacta/#" in link.get_attribute("href")
    assert page.url.endswith("question=flush-score")  # no reload: still the same page


def test_payload_problems_are_shown_beside_the_form(page, live_server, log_in, judge_account):
    log_in("jude", PASSWORD)
    page.goto(f"{live_server.url}/judge/rule/?game=iacta&question=flush-score")
    page.fill('input[name="dice[0]"]', "0")
    page.get_by_role("button", name="Rule").click()
    page.locator('.ruling[data-status="error"]').wait_for()
    assert page.locator('input[name="dice[0]"]').get_attribute("aria-invalid") == "true"


def test_ruling_page_fits_a_phone(page, live_server, log_in, judge_account):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in("jude", PASSWORD)
    page.goto(f"{live_server.url}/judge/rule/?game=iacta&question=pay-cost")
    page.get_by_role("button", name="Rule").click()
    page.locator(".ruling").wait_for()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0


def test_every_question_form_sends_a_complete_payload(page, live_server, log_in, judge_account):
    """The forms are built from the schemas and start from each question's example; with
    every field the contract requires, each one is answered, not refused with a 400."""
    from rules_engine import GAMES, questions

    log_in("jude", PASSWORD)
    refused = []
    for game in GAMES:
        for question in questions(game):
            page.goto(f"{live_server.url}/judge/rule/?game={game}&question={question.slug}")
            page.get_by_role("button", name="Rule").click()
            page.locator(".ruling").wait_for()
            if page.locator('.ruling[data-status="ok"]').count() != 1:
                refused.append(f"{game}/{question.slug}: {page.locator('.ruling').inner_text()}")
    assert refused == []
