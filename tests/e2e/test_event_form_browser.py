"""The event form in a real browser: a German organiser sees the event's date and
deadlines in Chromium's pickers (ISO values, which it reads in every language), and finds
a venue's zone by typing part of its name."""

import datetime

import pytest

from tests.conftest import PASSWORD, make_event
from tests.e2e.conftest import PHONE, log_page_in
from tournaments.models import Event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_german_organiser_keeps_the_date_and_finds_a_zone(browser, live_server, organiser):
    event = make_event(
        organiser,
        0,
        name="Winter Open",
        date=datetime.date(2026, 12, 4),
        decklist_deadline=datetime.datetime(2026, 12, 4, 8, 30, tzinfo=datetime.UTC),
    )
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    log_page_in(page, live_server.url, organiser.username, PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/edit/")
    assert page.evaluate("document.documentElement.lang") == "de"
    date = page.locator("#id_date")
    assert date.input_value() == "2026-12-04"
    assert date.evaluate("d => d.validity.valid")
    assert page.locator("#id_decklist_deadline").input_value() == "2026-12-04T08:30"

    search = page.get_by_label("Find a time zone")  # the lead's German catalogue may name it
    if not search.count():
        search = page.locator("#id_time_zone-find")
    search.fill("kolk")
    assert page.locator("#id_time_zone").input_value() == "Asia/Kolkata"
    options = page.locator("#id_time_zone option")
    assert options.count() == 1  # the one match (the old alias Asia/Calcutta is not offered)
    page.click("main form[method=post] button[type=submit]")
    page.wait_for_url(f"{live_server.url}/events/{event.pk}/manage/")
    event = Event.objects.get(pk=event.pk)
    assert event.time_zone == "Asia/Kolkata"
    assert event.date == datetime.date(2026, 12, 4)  # kept, not lost to the language
    # 08:30 as typed is now read in Kolkata's zone (UTC+05:30).
    assert event.decklist_deadline == datetime.datetime(2026, 12, 4, 3, 0, tzinfo=datetime.UTC)
    context.close()
