"""Names with limits in a real browser: the event form counts as the organiser types, and
a 200-character name without a space wraps instead of running off the page."""

import pytest

from tests.conftest import PASSWORD
from tournaments.event import services
from tournaments.models import Event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG = "Ü" * 200  # as long as a name may be, and no space to break at


def test_the_event_name_counts_as_the_organiser_types(page, live_server, log_in, organiser):
    log_in("olive", PASSWORD)
    page.goto(f"{live_server.url}/events/new/")
    name = page.locator("#id_name")
    assert name.get_attribute("maxlength") == "200"
    counter = page.locator("#id_name-count")
    assert counter.inner_text() == "0 of 200 characters"
    name.press_sequentially("Iacta Open")
    assert counter.inner_text() == "10 of 200 characters"
    assert "id_name-count" in name.get_attribute("aria-describedby")


def test_a_long_event_and_player_name_wrap_on_the_page(page, live_server, log_in, organiser):
    event = services.create_event(organiser, name=LONG, status=Event.Status.REGISTRATION)
    services.add_late_entry(event, organiser, name=LONG)
    log_in("olive", PASSWORD)
    page.set_viewport_size({"width": 800, "height": 900})
    for path in (f"/events/{event.pk}/", f"/events/{event.pk}/manage/"):
        page.goto(f"{live_server.url}{path}")
        heading = page.locator("h1")
        assert heading.inner_text() == LONG
        assert heading.evaluate("h => h.scrollWidth <= h.clientWidth"), path
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), path
