"""The organiser dashboard's forms are answered once, like the result forms (issue 31).

Every form on the dashboard that writes carries a one-time token and asks the page's
script to send it again when no answer came (``data-resend``, static/js/resend.js). Sent
twice with its token, a form gets its first answer, the same redirect and message, and
writes nothing: the round is paired once, the late entry added once.
"""

import html
import re

import pytest

from tournaments import once
from tournaments.models import EventLog, Registration, Round

pytestmark = pytest.mark.django_db

FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S)


def words(response) -> str:
    text = html.unescape(response.content.decode())
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


def token_of(page, action: str) -> str:
    """The one-time token of the page's form that posts to ``action``."""
    for form in FORM.findall(page.content.decode()):
        if f'action="{action}"' in form:
            return re.search(rf'name="{once.FORM_FIELD}" value="([^"]+)"', form).group(1)
    raise AssertionError(f"no form posts to {action}")


@pytest.fixture
def event(make_world):
    """Eight players checked in, nothing paired; olive organises."""
    return make_world(8, name="Once Cup", judge=None, paired=False).event


@pytest.fixture
def organiser_client(client, event):
    client.force_login(event.roles.get(role="organiser").user)
    return client


def test_every_dashboard_form_that_writes_carries_a_token_and_is_resent(
    organiser_client, event, make_world
):
    """Before round 1 (check-in, entries, staff) and in a round (the swap forms too)."""
    for query in ("", "?swap=1"):
        if query:
            organiser_client.post(
                f"/events/{event.pk}/next/", {"action": "pair", "absent": "", "missing": ""}
            )
        page = organiser_client.get(f"/events/{event.pk}/manage/{query}").content.decode()
        posted = [f for f in FORM.findall(page) if 'method="post"' in f.split(">")[0]]
        # The event's own (not the site's log-out and language forms); a result row's
        # form is htmx's to send.
        own = f'action="/events/{event.pk}/'
        writing = [f for f in posted if own in f.split(">")[0] and "hx-post" not in f]
        assert len(writing) >= 5
        for form in writing:
            opening = form.split(">")[0]
            assert "data-resend" in opening, opening
            assert f'name="{once.FORM_FIELD}" value="' in form, opening
        tokens = re.findall(rf'name="{once.FORM_FIELD}" value="([^"]+)"', page)
        assert len(set(tokens)) == len(tokens)


def test_the_next_step_sent_twice_pairs_once_and_says_done_again(organiser_client, event):
    manage = f"/events/{event.pk}/manage/"
    url = f"/events/{event.pk}/next/"
    form = {"action": "pair", once.FORM_FIELD: token_of(organiser_client.get(manage), url)}
    first = organiser_client.post(url, form)
    again = organiser_client.post(url, form, follow=True)
    assert first.status_code == 302 and again.redirect_chain == [(first["Location"], 302)]
    shown = words(again)
    assert "Done: Pair round 1." in shown
    assert "That step is not the next one any more" not in shown
    assert Round.objects.filter(event=event).count() == 1
    assert EventLog.objects.filter(event=event, action="pair").count() == 1


def test_a_late_entry_sent_twice_adds_one_player(organiser_client, event):
    url = f"/events/{event.pk}/late-entry/"
    page = organiser_client.get(f"/events/{event.pk}/manage/")
    form = {"name": "Katherine Johnson", once.FORM_FIELD: token_of(page, url)}
    organiser_client.post(url, form)
    organiser_client.post(url, form)
    assert Registration.objects.filter(event=event, name="Katherine Johnson").count() == 1
    assert EventLog.objects.filter(event=event, action="late_entry").count() == 1


def test_the_same_token_with_other_values_adds_nobody_and_says_so(organiser_client, event):
    url = f"/events/{event.pk}/late-entry/"
    token = token_of(organiser_client.get(f"/events/{event.pk}/manage/"), url)
    organiser_client.post(url, {"name": "Katherine Johnson", once.FORM_FIELD: token})
    again = organiser_client.post(url, {"name": "Dorothy Vaughan", once.FORM_FIELD: token})
    assert again.status_code == 302
    shown = words(organiser_client.get(again["Location"]))
    assert "This form was already sent with other values" in shown
    assert not Registration.objects.filter(event=event, name="Dorothy Vaughan").exists()


def test_a_refused_step_is_not_kept_and_the_form_without_a_token_works_as_before(
    organiser_client, event
):
    url = f"/events/{event.pk}/next/"
    token = token_of(organiser_client.get(f"/events/{event.pk}/manage/"), url)
    stale = organiser_client.post(url, {"action": "close", once.FORM_FIELD: token}, follow=True)
    assert "That step is not the next one any more" in words(stale)
    paired = organiser_client.post(url, {"action": "pair", once.FORM_FIELD: token}, follow=True)
    assert "Done: Pair round 1." in words(paired)  # the refusal wrote nothing: the key is free
    plain = organiser_client.post(url, {"action": "start"}, follow=True)
    assert "Done: Start round 1." in words(plain)
