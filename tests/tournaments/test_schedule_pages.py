"""The live schedule on the pages (issue 33): the event page's table, the hall between
rounds, the organiser setting the plan on the edit page and over the API.

The plan of every test: round 1 at 10:00 in Berlin (09:00 UTC), 50-minute rounds,
10-minute breaks: rounds at 10:00, 11:00, 12:00.
"""

from __future__ import annotations

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.tokens import issue_token
from tests.conftest import make_event, play_out
from tournaments.event import services
from tournaments.event.schedule import event_schedule
from tournaments.models import Event
from tournaments.pages.hall import LIVE_TYPES
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

BERLIN = ZoneInfo("Europe/Berlin")


def at(text: str):
    """The clock stopped at ``text``, a time in Berlin on 8 May 2027 (UTC+2)."""
    moment = datetime.datetime.fromisoformat(f"2027-05-08T{text}").replace(tzinfo=BERLIN)
    return time_machine.travel(moment, tick=False)


def berlin(hhmm: str) -> datetime.datetime:
    hours, minutes = map(int, hhmm.split(":"))
    return datetime.datetime(2027, 5, 8, hours, minutes, tzinfo=BERLIN)


@pytest.fixture
def planned(organiser) -> Event:
    with at("08:00"):
        event = make_event(organiser, 8, name="Spring Open", swiss_rounds=3)
    Event.objects.filter(pk=event.pk).update(
        time_zone="Europe/Berlin",
        date=datetime.date(2027, 5, 8),
        round_minutes=50,
        break_minutes=10,
        first_round_at=berlin("10:00"),
    )
    return Event.objects.get(pk=event.pk)


def text_of(html: str) -> str:
    """The page's words, tags dropped and spaces folded, as a reader reads them."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def schedule_rows(html: str) -> list[str]:
    table = html.split('id="event-schedule"', 1)[1].split("</table>", 1)[0]
    return [text_of(row) for row in re.findall(r"<tr data-round.*?</tr>", table, re.S)]


def test_the_event_page_shows_planned_actual_and_expected_starts_with_the_delay(
    client, planned, organiser
):
    with at("09:55"):
        round_one = rounds.pair_next_round(planned, organiser)
    with at("10:12"):
        rounds.start_round(round_one, organiser)
    with at("10:30"):
        page = client.get(planned.get_absolute_url()).content.decode()
    assert schedule_rows(page) == [
        "1 10:00 10:12 12 minutes late",
        "2 11:00 about 11:12 12 minutes late",
        "3 12:00 about 12:12 12 minutes late",
    ]
    assert "Round 2 starts about 11:12 — running 12 minutes late" in text_of(page)


def test_without_a_planned_start_the_page_has_no_schedule_but_tells_the_organiser(
    client, event, organiser
):
    public = client.get(event.get_absolute_url()).content.decode()
    assert 'id="event-schedule"' not in public and "event-schedule-hint" not in public
    client.force_login(organiser)
    mine = client.get(event.get_absolute_url()).content.decode()
    assert 'id="event-schedule-hint"' in mine and f"/events/{event.pk}/edit/" in mine


def hall_line(client, event: Event) -> str:
    """What the hall's live fragment (fetched on every ``round`` notice) says of the
    next round, or "" when it says nothing."""
    html = client.get(f"/events/{event.pk}/hall/fragment/").content.decode()
    found = re.search(r"<p class=\"hall-schedule\".*?</p>", html, re.S)
    return text_of(found.group(0)) if found else ""


def test_the_hall_between_rounds_says_when_the_next_round_starts_and_how_late(
    client, planned, organiser
):
    assert "round" in LIVE_TYPES.split()  # a start or close re-fetches the screen
    with at("09:30"):
        assert hall_line(client, planned) == "Round 1 starts about 10:00 — on time"
        round_one = rounds.pair_next_round(planned, organiser)
    with at("10:02"):
        rounds.start_round(round_one, organiser)
        assert hall_line(client, planned) == ""  # the round's clock is up instead
        play_out(round_one, organiser)
    with at("11:05"):  # 15 minutes after round 1's planned end
        rounds.close_round(round_one, organiser)
        assert hall_line(client, planned) == "Round 2 starts about 11:15 — running 15 minutes late"
    with at("11:31"):  # the break overran: round 2 starts no earlier than now
        assert hall_line(client, planned) == "Round 2 starts about 11:31 — running 31 minutes late"
        round_two = rounds.pair_next_round(planned, organiser)
        rounds.start_round(round_two, organiser)
        assert hall_line(client, planned) == ""


def test_the_hall_says_no_delay_without_a_plan(client, planned, organiser):
    Event.objects.filter(pk=planned.pk).update(first_round_at=None)
    event = Event.objects.get(pk=planned.pk)
    with at("09:30"):
        assert hall_line(client, event) == ""  # no plan, no start: no time to give
        round_one = rounds.pair_next_round(event, organiser)
    with at("10:00"):
        rounds.start_round(round_one, organiser)
        play_out(round_one, organiser)
    with at("10:40"):
        rounds.close_round(round_one, organiser)
        assert hall_line(client, event) == "Round 2 starts about 10:50"


def test_the_hall_page_itself_says_it_between_rounds_and_refreshes_past_the_time(client, planned):
    with at("09:30"):
        html = client.get(f"/events/{planned.pk}/hall/").content.decode()
    assert 'data-refresh-after="2027-05-08T10:00:00+02:00"' in html
    assert "Round 1 starts about" in html


def test_the_schedule_is_read_in_a_fixed_number_of_queries(organiser, make_world):
    small = make_world(4, rounds_played=1, swiss_rounds=4, name="Small").event
    big = make_world(16, rounds_played=3, swiss_rounds=4, name="Big", judge=None).event
    counts = []
    for event in (small, big):
        with CaptureQueriesContext(connection) as queries:
            event_schedule(event)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 2


def test_the_edit_page_sets_round_ones_start_as_the_venues_wall_time(client, planned, organiser):
    client.force_login(organiser)
    form = client.get(f"/events/{planned.pk}/edit/").content.decode()
    assert 'name="first_round_at"' in form and 'name="break_minutes"' in form
    fields = {name: getattr(planned, name) for name in services.EDITABLE_EVENT_FIELDS}
    fields = {k: ("" if v is None else v) for k, v in fields.items()}
    fields.update(first_round_at="2027-05-08T09:30", break_minutes="15", date="2027-05-08")
    response = client.post(f"/events/{planned.pk}/edit/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    planned.refresh_from_db()
    assert planned.first_round_at == berlin("09:30")
    assert planned.break_minutes == 15


def test_the_api_sets_the_same_fields_and_refuses_what_the_page_refuses(planned, organiser):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(organiser).key}")
    url = f"/api/v1/events/{planned.pk}/"
    done = api.patch(url, {"first_round_at": "2027-05-08T09:45", "break_minutes": 5}, format="json")
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["first_round_at"] == "2027-05-08T07:45:00+00:00"  # 09:45 in Berlin
    assert body["break_minutes"] == 5
    bad = api.patch(url, {"break_minutes": -1}, format="json")
    assert bad.status_code == 400
    assert [e["field"] for e in bad.json()["errors"]] == ["break_minutes"]


@pytest.mark.parametrize(
    "zone,moment",
    [
        ("Pacific/Kiritimati", datetime.datetime(9999, 12, 31, 23, 59, tzinfo=datetime.UTC)),
        ("Pacific/Kiritimati", datetime.datetime(1, 1, 1, 0, 0, tzinfo=datetime.UTC)),
    ],
)
def test_a_start_at_the_calendars_ends_shows_no_time_rather_than_an_error(
    client, organiser, zone, moment
):
    """Times the venue's clock cannot show (past year 9999 at UTC+14, or before year 1
    in the zone's local mean time) are left out of the schedule."""
    event = make_event(organiser, 4, top_cut=4)
    Event.objects.filter(pk=event.pk).update(time_zone=zone, first_round_at=moment)
    for url in ("/", "/hall/", "/calendar.ics"):
        assert client.get(f"/events/{event.pk}{url}").status_code == 200, url
