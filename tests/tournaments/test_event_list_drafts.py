"""The Events list shows an organiser their own drafts, marked as drafts; nobody else
sees them there."""

import pytest

from tests.conftest import make_user
from tournaments.event import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(organiser):
    draft = services.create_event(organiser, name="Kitchen Table Draft", status=Event.Status.DRAFT)
    services.create_event(organiser, name="Open Night", status=Event.Status.REGISTRATION)
    return draft


def row_of(page: str, name: str) -> str:
    start = page.index(name)
    return page[start : page.index("</tr>", start)]


def test_the_organiser_sees_their_draft_marked_as_a_draft(client, organiser, events):
    client.force_login(organiser)
    page = client.get("/events/").content.decode()
    assert "Open Night" in page
    row = row_of(page, "Kitchen Table Draft")
    assert "badge-draft" in row and ">Draft<" in row and "only its organisers see it" in row


def test_a_co_organiser_sees_it_too(client, events):
    make_user("cora")
    services.grant_role(events, "cora", "organiser")
    client.login(username="cora", password="correct-horse-battery")
    assert "Kitchen Table Draft" in client.get("/events/").content.decode()


@pytest.mark.parametrize("who", ["anonymous", "someone else", "its judge"])
def test_nobody_else_sees_the_draft(client, events, who):
    if who != "anonymous":
        user = make_user("sam")
        if who == "its judge":
            services.grant_role(events, "sam", "judge")
        client.force_login(user)
    page = client.get("/events/").content.decode()
    assert "Open Night" in page and "Kitchen Table Draft" not in page


def test_with_no_event_listed_the_hint_does_not_promise_what_is_untrue(client, db):
    page = client.get("/events/").content.decode()
    assert "No events are open yet." in page and "listed here for you as a draft" in page
