"""One clock per page: a browser in another time zone than the venue's still reads every
time of an event's page, the live "Updated …" label included, on the venue's clock, and
the page names that zone once."""

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.e2e.conftest import log_page_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VENUE, BROWSER = "Asia/Tokyo", "America/New_York"  # 13 or 14 hours apart all year


def _seconds(clock: str) -> int:
    hours, minutes, seconds = (int(part) for part in clock.split(":"))
    return hours * 3600 + minutes * 60 + seconds


def _on_the_venues_clock(clock: str, before: datetime.datetime, after: datetime.datetime) -> bool:
    """``clock`` (HH:MM:SS) lies between the venue's wall clock at ``before`` and ``after``."""
    low, high = (_seconds(f"{m.astimezone(ZoneInfo(VENUE)):%H:%M:%S}") for m in (before, after))
    shown = _seconds(clock)
    if low <= high:
        return low - 1 <= shown <= high + 1
    return shown >= low - 1 or shown <= high + 1  # across the venue's midnight


@pytest.mark.parametrize("page_path", ["judge/", "manage/"], ids=["judge console", "dashboard"])
def test_live_labels_follow_the_venues_zone_not_the_browsers(
    browser, make_world, asgi_server, page_path
):
    world = make_world(4, started=True, time_zone=VENUE)
    context = browser.new_context(timezone_id=BROWSER)
    try:
        page = context.new_page()
        user = world.judge if page_path == "judge/" else world.organiser
        log_page_in(page, asgi_server.url, user.username, PASSWORD)
        before = datetime.datetime.now(datetime.UTC)
        page.goto(f"{asgi_server.url}/events/{world.event.pk}/{page_path}")
        expect(page.locator("html")).to_have_attribute("data-live-state", "live")
        label = page.locator("[data-live-updated]").first
        expect(label).to_contain_text("· live")
        after = datetime.datetime.now(datetime.UTC)
        shown = re.search(r"\d\d:\d\d:\d\d", label.inner_text())
        assert shown, label.inner_text()
        browser_clock = page.evaluate(
            "new Date().toLocaleTimeString('en-GB', {hour: '2-digit', minute: '2-digit'})"
        )
        assert browser_clock == f"{datetime.datetime.now(ZoneInfo(BROWSER)):%H:%M}"  # the set-up
        assert _on_the_venues_clock(shown.group(0), before, after), (
            f"{label.inner_text()!r} is not the venue's time ({VENUE}) between "
            f"{before.astimezone(ZoneInfo(VENUE)):%H:%M:%S} and "
            f"{after.astimezone(ZoneInfo(VENUE)):%H:%M:%S}"
        )
        body = page.locator("body").inner_text()
        assert body.count("Times are the venue's local time: Asia/Tokyo") == 1
    finally:
        context.close()
