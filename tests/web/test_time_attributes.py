"""Every machine-readable time a page writes (``<time datetime="…">``) is a valid HTML
date/time string: a browser, a screen reader or a calendar tool reads it. Django's ``c``
format writes microseconds (``…T08:01:12.348977+01:00``), which HTML does not allow (a
fraction of a second has at most three digits)."""

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from series import services as series_services
from tournaments.clock import extensions as clock
from tournaments.record.match_games import Score
from tournaments.results import services as results
from web.html_time import html_datetime

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

_DATE = r"\d{4,}-\d\d-\d\d"
_TIME = r"\d\d:\d\d(?::\d\d(?:\.\d{1,3})?)?"
_ZONE = r"(?:Z|[+-]\d\d(?::?\d\d)?)"
# The HTML standard's "valid date string with optional time" and "valid time string"
# (https://html.spec.whatwg.org/#datetime-value), the forms this site could write.
VALID = re.compile(rf"{_DATE}|{_TIME}|{_DATE}[T ]{_TIME}|{_DATE}[T ]{_TIME}{_ZONE}")


def invalid_datetimes(html: str) -> list[str]:
    """Every datetime="…" value on the page that is not a valid HTML date or time."""
    found = re.findall(r'\sdatetime="([^"]*)"', html)
    return [value for value in found if not VALID.fullmatch(value)]


def test_the_checker_knows_a_bad_value_from_a_good_one():
    good = '<time datetime="2026-12-05T17:09:08+09:00">17:09</time><time datetime="2026-12-05">'
    bad = '<time datetime="2026-12-05T08:01:12.348977+01:00">09:01</time>'
    assert invalid_datetimes(good) == []
    assert invalid_datetimes(bad) == ["2026-12-05T08:01:12.348977+01:00"]


def test_every_time_on_the_event_day_pages_is_a_valid_html_time(client, make_world):
    world = make_world(4, started=True, penalties=1, time_zone="Europe/Berlin")
    event, judge, organiser = world.event, world.judge, world.organiser
    table = world.table(1)
    results.report_result(table, table.player_a, Score.parse("2-1"), table.player_a.user)
    results.enter_result(world.table(2), Score.parse("2-0"), organiser)
    clock.grant_extension(table, 3, "deck check", judge)
    series = series_services.create_series(
        organiser, [event], name="Winter League", placing_points=(3, 2, 1), participation=1
    )
    as_organiser = {
        f"/events/{event.pk}/manage/": {},
        f"/events/{event.pk}/manage/?part=status": HTMX,
        f"/series/{series.pk}/manage/": {},
        f"/events/{event.pk}/hall/?screen=clock": {},
        f"/events/{event.pk}/projector/": {},
    }
    as_judge = {
        f"/events/{event.pk}/judge/": {},
        f"/events/{event.pk}/judge/queue/": HTMX,
        f"/events/{event.pk}/judge/tables/{table.pk}/": {},
        f"/events/{event.pk}/judge/tables/{world.table(2).pk}/": {},
        f"/players/{table.player_a.user.pk}/penalties/": {},
    }
    written = 0
    for user, pages in ((organiser, as_organiser), (judge, as_judge)):
        client.force_login(user)
        for url, headers in pages.items():
            answer = client.get(url, **headers)
            assert answer.status_code == 200, url
            html = answer.content.decode()
            written += html.count(" datetime=")
            assert invalid_datetimes(html) == [], url
    assert written >= 7  # the round's end, the queue, claims, history, penalties, the log


def test_the_filter_writes_the_pages_zone_to_the_second():
    moment = datetime.datetime(2026, 12, 5, 8, 1, 12, 348977, tzinfo=datetime.UTC)
    with timezone.override(ZoneInfo("Europe/Berlin")):
        assert html_datetime(moment) == "2026-12-05T09:01:12+01:00"
    assert html_datetime(datetime.date(2026, 12, 5)) == "2026-12-05"
    assert html_datetime(None) == ""
