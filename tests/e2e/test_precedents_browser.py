"""Issue 35, done when: a judge in event A answers a call on two cards with the engine and a
head judge marks it a precedent; in event B another judge opening a call on one of those
cards sees it beside the engine's ruling on the call page, and the public rules page lists
it without player names."""

from __future__ import annotations

import json

import pytest

from judging.calls import open_call
from judging.models import JudgeAssignment
from tests.conftest import make_user
from tests.e2e.conftest import PHONE, log_page_in
from tournaments.models import EventRole

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TWO_CARDS = {
    "Ember Tithe": {"syndicate": "EMB", "tier": "major"},
    "Ash Ledger": {"syndicate": "EMB", "tier": "major"},
}


def rule_on_two_cards(page, site: str, event_id: int, call_id: int) -> None:
    """From the call page: the engine rules on a deck of Ember Tithe and Ash Ledger, and
    the ruling is kept with the call."""
    page.goto(f"{site}/events/{event_id}/calls/{call_id}/")
    page.get_by_role("button", name="Rule on a game state for this call").click()
    page.wait_for_url("**/judge/rule/**")
    page.select_option("select[name=question]", "deck-legality")
    main = page.locator('fieldset[data-path="main"]')
    while main.locator("button[aria-label=Remove]").count() > 2:
        main.locator("button[aria-label=Remove]").last.click()
    side = page.locator('fieldset[data-path="sideboard"]')
    while side.locator("button[aria-label=Remove]").count():
        side.locator("button[aria-label=Remove]").first.click()
    page.fill('textarea[name="cards"]', json.dumps(TWO_CARDS))
    page.get_by_role("button", name="Rule", exact=True).click()
    page.locator('.ruling[data-status="ok"]').wait_for()
    page.get_by_role("button", name="Keep this ruling with the judge call").click()
    page.get_by_text("Kept with the").wait_for()


def test_a_ruling_kept_in_one_event_is_seen_in_another_and_in_public(
    page, browser, live_server, make_world
):
    site = live_server.url
    first = make_world(4, name="First Open")
    player = first.table(1).player_a.display_name
    call = open_call(first.event, first.judge, question=f"Is {player}'s deck legal?", table=1)

    # Event A: the floor judge rules with the engine, keeps the ruling, resolves the call.
    log_page_in(page, site, "jude")
    rule_on_two_cards(page, site, first.event.pk, call.pk)
    page.goto(f"{site}/events/{first.event.pk}/calls/{call.pk}/")
    page.fill("textarea[name=resolution]", f"{player} registered too few cards: game loss.")
    page.get_by_role("button", name="Resolve call").click()
    page.wait_for_url(f"**/events/{first.event.pk}/judge/")

    # The head judge keeps it as a public precedent.
    head = make_user("hedda")
    EventRole.objects.create(event=first.event, user=head, role=EventRole.Role.JUDGE)
    JudgeAssignment.objects.create(event=first.event, user=head, role=JudgeAssignment.Role.HEAD)
    head_page = browser.new_context(viewport=PHONE).new_page()
    log_page_in(head_page, site, "hedda")
    head_page.goto(f"{site}/events/{first.event.pk}/calls/{call.pk}/")
    form = head_page.locator("form.precedent-mark")
    form.wait_for()
    form.get_by_label("The judge upheld the engine's ruling").check()
    form.get_by_label("Everyone (the game's rules page)").check()
    form.locator("textarea[name=note]").fill(f"{player} was told to fix the deck.")
    form.get_by_role("button", name="Keep as a precedent").click()
    head_page.get_by_text("This ruling is kept as a precedent.").wait_for()

    # Event B: another judge opens a call naming one of the cards and rules on it.
    second = make_world(4, name="Second Open", judge=None)
    jon = make_user("jon")
    EventRole.objects.create(event=second.event, user=jon, role=EventRole.Role.JUDGE)
    judge_b = browser.new_context(viewport=PHONE).new_page()
    log_page_in(judge_b, site, "jon")
    judge_b.goto(f"{site}/events/{second.event.pk}/judge/")
    judge_b.fill("input[name=table]", "2")
    judge_b.fill("input[name=question]", "Player asks whether Ember Tithe counts in the deck")
    judge_b.locator("input[name=question]").press("Enter")
    judge_b.wait_for_url(f"**/events/{second.event.pk}/calls/*/")
    call_b = int(judge_b.url.rstrip("/").rsplit("/", 1)[1])
    panel = judge_b.locator("#call-precedents")
    panel.wait_for()
    assert "1 earlier ruling on Ember Tithe" in panel.inner_text()
    rule_on_two_cards(judge_b, site, second.event.pk, call_b)
    judge_b.goto(f"{site}/events/{second.event.pk}/calls/{call_b}/")
    judge_b.get_by_text("Ruling:").wait_for()  # the engine's ruling, and beside it:
    summary = judge_b.locator("#call-precedents summary").first
    summary.wait_for()
    text = summary.inner_text()
    assert "1 earlier ruling on Ember Tithe" in text and "upheld 1 time" in text
    assert "was told to fix the deck" in judge_b.locator("#call-precedents").inner_text()
    overflow = judge_b.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0

    # Everyone: the public rules page lists it, with no player's name.
    visitor = browser.new_context().new_page()
    visitor.goto(f"{site}/rules/iacta/")
    visitor.get_by_role("link", name="Iacta precedents: earlier rulings judges made public").click()
    listed = visitor.locator("article.precedent")
    listed.first.wait_for()
    assert listed.count() == 1
    body = visitor.locator("main").inner_text()
    assert "Player A was told to fix the deck." in body and "Is Player A's deck legal?" in body
    assert player not in body and "hedda" not in body and "jude" not in body


def test_a_judge_on_a_phone_finds_a_precedent_by_a_misspelt_card_as_they_type(
    page, live_server, make_world, organiser
):
    from judging.calls import resolve_call
    from precedents.services import mark

    world = make_world(4, name="Phone Open")
    call = open_call(world.event, world.judge, question="Five copies?", table=1)
    deck = {"main": [{"name": "Ember Tithe", "count": 5}], "sideboard": [], "cards": TWO_CARDS}
    ruling = {"game": "iacta", "question": "deck-legality", "payload": deck}
    call = resolve_call(call, world.judge, resolution="Game loss.", minutes=2, ruling=ruling)
    mark(call, organiser, decision="upheld", note="Count the copies first.")
    page.set_viewport_size(PHONE)
    log_page_in(page, live_server.url, "jude")
    page.goto(f"{live_server.url}/judge/precedents/")
    page.get_by_label("Card").fill("Embr Tithe")  # no submit: the results follow the typing
    results = page.locator("#precedent-results article.precedent")
    results.first.wait_for()
    assert results.count() == 1 and "Count the copies first." in results.first.inner_text()
    rule = results.first.get_by_role("link", name="202.1")
    assert rule.get_attribute("href") == "/rules/iacta/#202.1"
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.get_by_label("Card").fill("Glass Warden")
    page.get_by_text("No precedent names a card like “Glass Warden”.").wait_for()
