"""What the home page and the event page say once an event is under way or over: the
home page's "Upcoming events" lists no finished event, and a player's decklist line says
the list is locked once round 1 started, never that it "can change until round 1 starts"."""

import re

import pytest

from tests.conftest import finished_event, make_event, make_user
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)


def shown_text(response) -> str:
    return " ".join(TAGS.sub(" ", response.content.decode()).split())


def upcoming_names(response) -> str:
    text = shown_text(response)
    return text[text.index("Upcoming events") :]


def test_upcoming_events_on_the_home_page_are_not_finished(client, organiser):
    people = [make_user(n) for n in ("ada", "bo", "cy", "di")]
    finished_event(organiser, people, "Autumn Finals", rounds_played=2)
    make_event(organiser, 4, name="Winter Open")
    upcoming = upcoming_names(client.get("/"))
    assert "Winter Open" in upcoming
    assert "Autumn Finals" not in upcoming


def test_the_home_page_says_so_when_only_finished_events_remain(client, organiser):
    people = [make_user(n) for n in ("ada", "bo", "cy", "di")]
    finished_event(organiser, people, "Autumn Finals", rounds_played=2)
    upcoming = upcoming_names(client.get("/"))
    assert "Autumn Finals" not in upcoming
    assert "No upcoming events" in upcoming


def decklist_line(client, event, user) -> str:
    client.force_login(user)
    text = shown_text(client.get(f"/events/{event.pk}/"))
    start = text.index("Your decklist:")
    return text[start : start + 200]


def test_a_finished_events_page_says_the_decklist_is_locked(client, organiser):
    people = [make_user(n) for n in ("ada", "bo", "cy", "di")]
    event = finished_event(organiser, people, "Autumn Finals", rounds_played=2, game="iacta")
    line = decklist_line(client, event, people[0])
    assert "can change until round 1 starts" not in line
    assert "locked" in line


def test_a_started_events_page_says_the_decklist_is_locked(client, make_world):
    world = make_world(8, rounds_played=0, started=True)
    entry = Registration.objects.filter(event=world.event, user__isnull=False).first()
    line = decklist_line(client, world.event, entry.user)
    assert "can change until round 1 starts" not in line
    assert "locked since round 1 started" in line


def test_before_round_1_the_decklist_can_still_change(client, organiser):
    event = make_event(organiser, 4, name="Winter Open", game="iacta")
    entry = Registration.objects.filter(event=event, user__isnull=False).first()
    line = decklist_line(client, event, entry.user)
    assert "can change until round 1 starts" in line
