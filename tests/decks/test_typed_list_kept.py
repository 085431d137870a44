"""A typed decklist is never lost (issue 17, point 2): an illegal submission stays as the
draft with its violations and comes back in the box; an expired session says why on the
log-in page; a refused security token gets a page that explains and links back."""

import html

import pytest
from django.test import Client

from arbiter.worlds import demo_decklist
from decks import services
from decks.cardpool import load_demo_pools
from decks.models import Decklist

pytestmark = pytest.mark.django_db

ILLEGAL = "4 Ember Tithe"  # four cards: far too few (201.1)


@pytest.fixture
def hall(make_world):
    load_demo_pools()
    return make_world(4, paired=False).event


@pytest.fixture
def pat(hall):
    return hall.registrations.order_by("pk")[0]


def deck_page(hall) -> str:
    return f"/events/{hall.pk}/deck/"


def test_an_illegal_submission_comes_back_in_the_box_and_stays_as_the_draft(client, hall, pat):
    client.force_login(pat.user)
    page = client.post(deck_page(hall), {"decklist": ILLEGAL, "action": "submit"})
    body = html.unescape(page.content.decode())
    assert "kept as your draft" in body
    assert f">{ILLEGAL}</textarea>" in body  # the box shows the text back
    assert "201.1" in body  # with the violations, rule by rule
    draft = Decklist.objects.get(registration=pat)
    assert draft.status == Decklist.Status.DRAFT and draft.raw_text == ILLEGAL
    assert draft.violations
    again = html.unescape(client.get(deck_page(hall)).content.decode())
    assert f">{ILLEGAL}</textarea>" in again  # and on the next visit too
    assert "a draft with" in again and "problem" in again


def test_an_illegal_resubmission_keeps_the_submitted_list_and_the_new_text(client, hall, pat):
    """Trying an edit must not cost a player their legal registration: the submitted
    list stands, and the refused text is kept beside it for the editor."""
    legal = demo_decklist(0)
    services.save_decklist(pat, legal, submit=True, actor=None)
    with pytest.raises(services.NotSubmitted, match="earlier submitted list still stands"):
        services.save_decklist(pat, ILLEGAL, submit=True, actor=None)
    kept = Decklist.objects.get(registration=pat)
    assert kept.status == Decklist.Status.SUBMITTED and kept.legal and kept.raw_text == legal
    assert kept.draft_text == ILLEGAL
    client.force_login(pat.user)
    page = html.unescape(client.get(deck_page(hall)).content.decode())
    assert f">{ILLEGAL}</textarea>" in page  # the editor shows the newest typed list
    assert "this list still stands" in page
    services.save_decklist(pat, demo_decklist(1), submit=True, actor=None)
    assert Decklist.objects.get(registration=pat).draft_text == ""  # a legal submit replaces both


def test_the_api_keeps_an_illegal_submission_as_the_draft(client, hall, pat):
    client.force_login(pat.user)
    answer = client.put(
        f"/api/v1/events/{hall.pk}/decklists/mine/",
        {"text": ILLEGAL, "submit": True},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "kept as your draft" in answer.json()["errors"][0]["message"]
    assert Decklist.objects.get(registration=pat).raw_text == ILLEGAL


def test_a_save_after_the_session_expired_says_why_on_the_log_in_page(client, hall, pat):
    answer = client.post(deck_page(hall), {"decklist": ILLEGAL, "action": "submit"})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert f"next=/events/{hall.pk}/deck/" in answer["Location"]
    login = client.get(answer["Location"]).content.decode()
    assert "session expired" in login and "kept in this browser" in login


def test_the_editor_keeps_a_browser_copy_keyed_by_event_and_user(client, hall, pat):
    client.force_login(pat.user)
    body = client.get(deck_page(hall)).content.decode()
    assert f'data-draft-key="arbiter:decklist:{hall.pk}:{pat.user.pk}"' in body
    assert "js/deck-draft.js" in body and 'id="draft-restored"' in body


def test_a_refused_security_token_explains_and_links_back(hall, pat):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(pat.user)
    page = browser.post(
        deck_page(hall),
        {"decklist": ILLEGAL, "action": "submit"},
        HTTP_REFERER=f"http://testserver{deck_page(hall)}",
    )
    body = page.content.decode()
    assert page.status_code == 403
    assert "CSRF verification failed" not in body
    assert "Your form was not sent" in body and "cookies" in body
    assert f'href="http://testserver{deck_page(hall)}"' in body
    assert not Decklist.objects.filter(registration=pat).exists()


def test_the_way_back_is_never_another_site(hall, pat):
    browser = Client(enforce_csrf_checks=True)
    page = browser.post(deck_page(hall), {}, HTTP_REFERER="https://evil.example/x")
    assert "evil.example" not in page.content.decode()
    assert f'href="{deck_page(hall)}"' in page.content.decode()


def test_the_event_page_shows_the_deadline_and_the_lists_state(client, hall, pat):
    client.force_login(pat.user)
    event_page = f"/events/{hall.pk}/"
    assert "Your decklist:" in client.get(event_page).content.decode()
    assert "none yet" in client.get(event_page).content.decode()
    services.save_decklist(pat, ILLEGAL, submit=False, actor=None)
    body = client.get(event_page).content.decode()
    assert "a draft with" in body and "not submitted" in body
    services.save_decklist(pat, demo_decklist(0), submit=True, actor=None)
    body = client.get(event_page).content.decode()
    assert "submitted and legal" in body and "can change until round 1" in body


def test_the_live_check_says_logged_out_in_place_of_the_report(client, hall):
    answer = client.post(
        f"/events/{hall.pk}/deck/check/", {"decklist": ILLEGAL}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    assert "You are logged out" in answer.content.decode()
    assert f"next=/events/{hall.pk}/deck/" in answer.content.decode()


def test_the_api_names_an_unreadable_line_by_its_text_too(client, hall, pat):
    client.force_login(pat.user)
    answer = client.put(
        f"/api/v1/events/{hall.pk}/decklists/mine/",
        {"text": "Ember Tith x\n" + demo_decklist(0), "submit": True},
        content_type="application/json",
    )
    assert answer.status_code == 400
    messages = [e["message"] for e in answer.json()["errors"]]
    assert any(m.startswith('Line 1 "Ember Tith x": no count after the "x"') for m in messages)
