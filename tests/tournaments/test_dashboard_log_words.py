"""The dashboard's log reads as sentences ("olive closed the round"), not action codes
("olive: close", "late_entry"), which stay in the data (issue 17, point 4)."""

import html

import pytest

from tournaments.event import services
from tournaments.models import EventLog

pytestmark = pytest.mark.django_db


def test_the_log_says_what_happened_in_words(client, make_world, organiser):
    world = make_world(4, rounds_played=1)
    services.add_late_entry(world.event, organiser, name="Walk In")
    client.force_login(organiser)
    page = html.unescape(client.get(f"/events/{world.event.pk}/manage/").content.decode())
    log = page[page.index('<ul class="log">') :]
    log = log[: log.index("</ul>")]
    assert "olive closed the round (round 1)" in log
    assert "olive added a late entry" in log
    assert "late_entry" not in log and ": close" not in log
    assert EventLog.objects.filter(event=world.event, action="late_entry").exists()


def test_a_disqualification_is_worded_as_one():
    assert EventLog(action="drop", data={"disqualified": True}).words == "disqualified a player"
    assert EventLog(action="some_new_thing").words == "some new thing"
