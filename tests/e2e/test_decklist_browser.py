"""A player pastes a list with one misspelt name, accepts the suggestion, and submits."""

import pytest

from arbiter.worlds import demo_decklist
from decks.models import Decklist
from tests.conftest import PASSWORD
from tests.unit.decks.decklist_exports import QUANTITY_AFTER_NAME

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_player_fixes_a_misspelling_and_submits_a_legal_deck(
    page, live_server, log_in, registration
):
    text = demo_decklist(0)
    correct = text.splitlines()[0].split(" ", 1)[1]
    misspelt = correct[:-2] + correct[-1]  # drop one letter
    log_in("pat", PASSWORD)
    page.goto(f"{live_server.url}/events/{registration.event_id}/deck/")
    page.fill("#decklist", text.replace(correct, misspelt, 1))
    page.locator('.deck-report[data-legal="false"]').wait_for()
    suggestion = page.locator(f'button.suggestion[data-to="{correct}"]')
    suggestion.click()
    page.locator('.deck-report[data-legal="true"]').wait_for()
    assert correct in page.input_value("#decklist")
    page.locator("#submit-deck").click()
    page.locator(".flash-success").wait_for()
    decklist = Decklist.objects.get(registration=registration)
    assert decklist.status == Decklist.Status.SUBMITTED and decklist.legal


def test_player_pastes_an_export_with_counts_after_names_and_fixes_one_without_losing_its_count(
    page, live_server, log_in, registration
):
    text = QUANTITY_AFTER_NAME.replace("Blazing Ledger 4", "Blazng Ledger 4")
    log_in("pat", PASSWORD)
    page.goto(f"{live_server.url}/events/{registration.event_id}/deck/")
    page.fill("#decklist", text)
    page.locator(".deck-report", has_text="40 cards, sideboard 6 · 1 line to fix below").wait_for()
    page.locator('button.suggestion[data-from="Blazng Ledger"][data-to="Blazing Ledger"]').click()
    page.locator('.deck-report[data-legal="true"]').wait_for()
    assert "Blazing Ledger 4" in page.input_value("#decklist")
    page.locator("#submit-deck").click()
    page.locator(".flash-success").wait_for()
    decklist = Decklist.objects.get(registration=registration)
    assert decklist.legal and {"name": "Blazing Ledger", "count": 4} in decklist.main
