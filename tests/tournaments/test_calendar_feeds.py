"""Calendar feeds (issue 32): an event's .ics and a player's private one, read back with the
``icalendar`` parser as a calendar app would."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from icalendar import Calendar

from accounts import calendar_feed
from tests.conftest import make_event, make_user, play_out
from tournaments.clock import extensions as clock
from tournaments.event import services
from tournaments.models import Event
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

NEW_YORK = ZoneInfo("America/New_York")


def at(text: str):
    return time_machine.travel(datetime.datetime.fromisoformat(text), tick=False)


def parsed(response) -> Calendar:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def entries(calendar: Calendar) -> dict[str, object]:
    """Each VEVENT by its UID."""
    return {str(entry["uid"]): entry for entry in calendar.walk("VEVENT")}


def round_entry(calendar: Calendar, number: int):
    (found,) = [
        e for e in calendar.walk("VEVENT") if str(e["uid"]).endswith(f"-round-{number}@testserver")
    ]
    return found


@pytest.fixture
def night_event(organiser):
    """Three Swiss rounds of 50 minutes in New York on the night of 13 March 2027 (the
    night before the clocks go forward)."""
    with at("2027-03-10T12:00:00+00:00"):
        event = make_event(organiser, 8, name="Night Open", swiss_rounds=3, venue="The Hall")
    Event.objects.filter(pk=event.pk).update(
        time_zone="America/New_York", date=datetime.date(2027, 3, 13), round_minutes=50
    )
    return Event.objects.get(pk=event.pk)


def test_the_event_feed_lists_the_event_and_each_planned_round(client, night_event):
    calendar = parsed(client.get(f"/events/{night_event.pk}/calendar.ics"))
    found = entries(calendar)
    event_uid = f"event-{night_event.pk}@testserver"
    assert set(found) == {event_uid} | {
        f"event-{night_event.pk}-round-{n}@testserver" for n in (1, 2, 3)
    }
    whole = found[event_uid]
    assert str(whole["summary"]) == "Night Open"
    assert whole.decoded("dtstart") == datetime.date(2027, 3, 13)
    assert str(whole["url"]).endswith(f"/events/{night_event.pk}/")
    assert str(whole["location"]) == "The Hall"
    # No round has started: no time is known yet, so each is all day on the event's date.
    for number in (1, 2, 3):
        entry = round_entry(calendar, number)
        assert entry.decoded("dtstart") == datetime.date(2027, 3, 13)
        assert f"round {number}" in str(entry["summary"])
        for stamp in ("dtstamp", "last-modified", "sequence"):
            assert stamp in entry


def test_a_started_round_has_its_real_times_in_the_venues_zone_and_the_rest_follow(
    client, night_event, organiser
):
    before = parsed(client.get(f"/events/{night_event.pk}/calendar.ics"))
    with at("2027-03-14T04:00:00+00:00"):
        round_one = rounds.pair_next_round(night_event, organiser)
    with at("2027-03-14T04:30:00+00:00"):  # 23:30 on the 13th in New York
        rounds.start_round(round_one, organiser)
    after = parsed(client.get(f"/events/{night_event.pk}/calendar.ics"))

    first = round_entry(after, 1)
    assert first["dtstart"].params["TZID"] == "America/New_York"
    start, end = first.decoded("dtstart"), first.decoded("dtend")
    assert start.utcoffset() == datetime.timedelta(hours=-5)
    assert start.replace(tzinfo=None) == datetime.datetime(2027, 3, 13, 23, 30)
    assert end - start == datetime.timedelta(minutes=50)
    # Round 2 is planned to follow round 1's planned end after the break; round 3 round 2's.
    second, third = round_entry(after, 2), round_entry(after, 3)
    brk = datetime.timedelta(minutes=night_event.break_minutes)
    assert second.decoded("dtstart") == end + brk
    assert third.decoded("dtstart") == end + brk + datetime.timedelta(minutes=50) + brk
    # The file carries the zone's definition, so the TZID means the same to every app.
    assert "America/New_York" in {str(z["tzid"]) for z in after.walk("VTIMEZONE")}
    # The same entries, updated rather than added: same UIDs, a higher SEQUENCE.
    assert set(entries(after)) == set(entries(before))
    assert int(first["sequence"]) > int(round_entry(before, 1)["sequence"])
    assert first.decoded("last-modified") > round_entry(before, 1).decoded("last-modified")
    # The round ends after midnight: the event's days run to the 14th (DTEND is exclusive).
    whole = entries(after)[f"event-{night_event.pk}@testserver"]
    assert whole.decoded("dtend") == datetime.date(2027, 3, 15)


def test_a_closed_round_shows_when_it_really_closed(client, night_event, organiser):
    with at("2027-03-14T04:00:00+00:00"):
        round_one = rounds.pair_next_round(night_event, organiser)
        rounds.start_round(round_one, organiser)
        play_out(round_one, organiser)
    with at("2027-03-14T05:10:00+00:00"):  # 20 minutes over time
        rounds.close_round(round_one, organiser)
    calendar = parsed(client.get(f"/events/{night_event.pk}/calendar.ics"))
    first = round_entry(calendar, 1)
    assert first.decoded("dtend") == datetime.datetime(2027, 3, 14, 5, 10, tzinfo=datetime.UTC)
    brk = datetime.timedelta(minutes=night_event.break_minutes)
    assert round_entry(calendar, 2).decoded("dtstart") == first.decoded("dtend") + brk


def test_a_draft_has_no_feed_but_for_its_organisers(client, organiser, player):
    draft = services.create_event(organiser, name="Secret Cup", status=Event.Status.DRAFT)
    url = f"/events/{draft.pk}/calendar.ics"
    assert client.get(url).status_code == 404
    client.force_login(player)
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    assert "Secret Cup" in str(parsed(client.get(url)).walk("VEVENT")[0]["summary"])


def test_the_event_page_links_its_feed(client, event):
    page = client.get(event.get_absolute_url()).content.decode()
    assert f'href="/events/{event.pk}/calendar.ics"' in page


# --- a player's private feed -----------------------------------------------------------------


def test_the_private_feed_lists_the_players_events_and_nothing_else(client, organiser, player):
    mine = services.create_event(organiser, name="Pat's Open", status=Event.Status.REGISTRATION)
    services.register_player(mine, player)
    services.create_event(organiser, name="Someone Else's", status=Event.Status.REGISTRATION)
    draft = services.create_event(organiser, name="Hidden Draft", status=Event.Status.REGISTRATION)
    services.register_player(draft, player)
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)

    client.force_login(player)
    page = client.get(reverse("tournaments:my_events")).content.decode()
    token = calendar_feed.feed_token(player)
    url = reverse("my_calendar", args=[token])
    assert f"http://testserver{url}" in page
    client.logout()  # a calendar app has no session: the address alone opens it

    names = {str(e["summary"]) for e in parsed(client.get(url)).walk("VEVENT")}
    assert "Pat's Open" in names
    assert not {"Someone Else's", "Hidden Draft"} & names


def test_a_wrong_or_replaced_token_reveals_nothing(client, player):
    old = calendar_feed.feed_token(player)
    assert calendar_feed.feed_token(player) == old  # the same address on every visit
    other = make_user("otto")
    for token in ("not-a-token", old[:-1] + ("0" if old[-1] != "0" else "1"), "x" * 500):
        response = client.get(reverse("my_calendar", args=[token]))
        assert response.status_code == 404
        assert b"VCALENDAR" not in response.content

    client.force_login(player)
    response = client.post(reverse("new_calendar_address"), {"action": "new"})
    assert response.status_code == 302
    new = calendar_feed.feed_token(player)
    assert new != old
    assert client.get(reverse("my_calendar", args=[old])).status_code == 404
    assert client.get(reverse("my_calendar", args=[new])).status_code == 200
    # Another account's address is its own: it does not open pat's.
    assert calendar_feed.user_for(calendar_feed.feed_token(other)) == other


def test_an_empty_post_does_not_change_the_address(client, player):
    old = calendar_feed.feed_token(player)
    client.force_login(player)
    assert client.post(reverse("new_calendar_address")).status_code == 302
    assert calendar_feed.feed_token(player) == old


def test_the_database_holds_no_working_address(player):
    token = calendar_feed.feed_token(player)
    row = player.calendar_feed
    assert token not in (row.secret, row.digest)


def test_a_new_site_key_gives_a_new_address_that_works(client, player, settings):
    old = calendar_feed.feed_token(player)
    settings.SECRET_KEY = "another-key-" + "x" * 50
    new = calendar_feed.feed_token(player)  # what My events shows now
    assert new != old
    assert client.get(reverse("my_calendar", args=[new])).status_code == 200
    assert client.get(reverse("my_calendar", args=[old])).status_code == 404


# --- the live schedule (issue 33) ------------------------------------------------------------


def test_with_a_planned_start_every_round_has_its_planned_times_before_any_starts(
    client, organiser, night_event
):
    """Round 1 at 18:00 New York time, 50-minute rounds and 10-minute breaks: the rounds
    are at 18:00, 19:00 and 20:00, each 50 minutes long."""
    services.update_event(
        night_event,
        organiser,
        first_round_at=datetime.datetime(2027, 3, 13, 18, 0, tzinfo=NEW_YORK),
        break_minutes=10,
    )
    calendar = parsed(client.get(f"/events/{night_event.pk}/calendar.ics"))
    for number, hour in ((1, 18), (2, 19), (3, 20)):
        entry = round_entry(calendar, number)
        start = entry.decoded("dtstart")
        assert start == datetime.datetime(2027, 3, 13, hour, 0, tzinfo=NEW_YORK)
        assert entry.decoded("dtend") - start == datetime.timedelta(minutes=50)
        assert entry["dtstart"].params["TZID"] == "America/New_York"
    assert "Planned start 19:00: on time." in str(round_entry(calendar, 2)["description"])


def test_a_late_start_and_an_extension_move_the_later_rounds_and_their_sequence(
    client, organiser, night_event
):
    services.update_event(
        night_event,
        organiser,
        first_round_at=datetime.datetime(2027, 3, 13, 18, 0, tzinfo=NEW_YORK),
    )
    url = f"/events/{night_event.pk}/calendar.ics"
    planned = parsed(client.get(url))
    with at("2027-03-13T23:00:00+00:00"):
        round_one = rounds.pair_next_round(night_event, organiser)
    with at("2027-03-13T23:12:00+00:00"):  # 18:12 in New York: 12 minutes late
        rounds.start_round(round_one, organiser)
    late = parsed(client.get(url))
    # Round 1 ends at 19:02, round 2 starts at 19:12, round 3 at 20:12.
    assert round_entry(late, 2).decoded("dtstart") == datetime.datetime(
        2027, 3, 13, 19, 12, tzinfo=NEW_YORK
    )
    assert "running 12 minutes late" in str(round_entry(late, 2)["description"])
    assert int(round_entry(late, 2)["sequence"]) > int(round_entry(planned, 2)["sequence"])
    assert set(entries(late)) == set(entries(planned))  # the same UIDs: updated, not added

    table = round_one.matches.filter(is_bye=False).first()
    with at("2027-03-13T23:40:00+00:00"):
        clock.grant_extension(table, 8, "deck check", organiser)
    extended = parsed(client.get(url))
    # The table plays 8 minutes longer: round 1 ends 19:10, round 2 starts 19:20.
    assert round_entry(extended, 1).decoded("dtend") == datetime.datetime(
        2027, 3, 13, 19, 10, tzinfo=NEW_YORK
    )
    assert round_entry(extended, 2).decoded("dtstart") == datetime.datetime(
        2027, 3, 13, 19, 20, tzinfo=NEW_YORK
    )
    assert int(round_entry(extended, 2)["sequence"]) > int(round_entry(late, 2)["sequence"])
    assert round_entry(extended, 2).decoded("last-modified") > round_entry(late, 2).decoded(
        "last-modified"
    )
