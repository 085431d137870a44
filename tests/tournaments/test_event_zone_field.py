"""The event form's time zone: the tz database's current names grouped by region (never
a deprecated alias such as ``Asia/Calcutta``), a new event starting in the organiser's
last zone, and an old event whose zone is an alias keeping it."""

import datetime
import re

import pytest

from tests.conftest import make_event
from tournaments.event import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def zone_select(html: str) -> str:
    found = re.search(r'<select name="time_zone".*?</select>', html, re.S)
    assert found, "no time zone select"
    return found.group(0)


def offered(html: str) -> list[str]:
    return re.findall(r'<option value="([^"]+)"', zone_select(html))


def chosen(html: str) -> str:
    (value,) = re.findall(r'<option value="([^"]+)"[^>]*selected', zone_select(html))
    return value


def test_the_zone_field_offers_current_names_grouped_by_region(client, organiser):
    client.force_login(organiser)
    html = client.get("/events/new/").content.decode()
    names = offered(html)
    for current in ("Asia/Kolkata", "America/New_York", "Europe/Berlin", "Europe/Amsterdam"):
        assert current in names
    for alias in ("Asia/Calcutta", "US/Eastern", "Etc/GMT+5", "GB", "Japan"):
        assert alias not in names
    assert "UTC" in names
    assert len(names) == len(set(names)) < 500
    groups = re.findall(r'<optgroup label="([^"]+)">', zone_select(html))
    for region in ("Africa", "Americas", "Asia", "Europe", "Pacific Ocean"):
        assert region in groups
    europe = re.search(r'<optgroup label="Europe">(.*?)</optgroup>', zone_select(html), re.S)
    assert "Europe/Berlin" in europe.group(1) and "Asia/Tokyo" not in europe.group(1)


def test_a_new_event_starts_in_the_organisers_last_zone(client, organiser, settings):
    settings.TIME_ZONE = "Europe/Berlin"
    client.force_login(organiser)
    assert chosen(client.get("/events/new/").content.decode()) == "Europe/Berlin"

    make_event(organiser, 0, name="Tokyo Open", time_zone="Asia/Tokyo")
    make_event(organiser, 0, name="Osaka Open", time_zone="Asia/Tokyo")
    assert chosen(client.get("/events/new/").content.decode()) == "Asia/Tokyo"
    # A service caller that names no zone gets the same default.
    assert services.create_event(organiser, name="Kyoto Open").time_zone == "Asia/Tokyo"


def test_an_event_whose_zone_is_an_old_alias_keeps_it(client, organiser):
    event = make_event(organiser, 0, name="Old Open", date=datetime.date(2026, 12, 4))
    Event.objects.filter(pk=event.pk).update(time_zone="US/Eastern")
    client.force_login(organiser)
    html = client.get(f"/events/{event.pk}/edit/").content.decode()
    assert chosen(html) == "US/Eastern"
    assert "America/New_York" in offered(html)

    sent = {
        "name": "Old Open, renamed",
        "game": event.game,
        "date": "2026-12-04",
        "venue": event.venue,
        "time_zone": "US/Eastern",
        "status": event.status,
        "match_format": event.match_format,
        "swiss_rounds": event.swiss_rounds,
        "top_cut": event.top_cut,
        "round_minutes": event.round_minutes,
        "print_paper": event.print_paper,
        "decklists_public": event.decklists_public,
        "decklist_policy": event.decklist_policy,
    }
    response = client.post(f"/events/{event.pk}/edit/", sent)
    assert response.status_code == 302, response.context["form"].errors
    event.refresh_from_db()
    assert (event.name, event.time_zone) == ("Old Open, renamed", "US/Eastern")

    # A new event is not offered the alias, nor starts in it: it starts in the site's.
    new = client.get("/events/new/").content.decode()
    assert "US/Eastern" not in offered(new)
    assert chosen(new) == "UTC"
