"""Every page's next step and empty state, for each state an event passes through.

The table below is the contract (docs/event-states.md repeats it for people): for each
state, what the event page, the organiser's dashboard, the pairings, the standings and
the player's "My match" say, and what they must not say. Seen before: an open event told
its organiser "Set the event to 'Open for registration'"; a draft with 0 players offered a
big "Pair round 1" button.

None in a cell: nobody can see that page in that state (My match with no player).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import pytest

from arbiter import worlds
from tests.conftest import PASSWORD, make_user
from tournaments.event import services
from tournaments.models import Event, Registration
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Says:
    """What a page says (every one of ``shows``) and must not (none of ``never``)."""

    shows: tuple[str, ...] = ()
    never: tuple[str, ...] = ()


SET_OPEN = "Set the event to “Open for registration”"
NO_ROUND = "No round has been paired yet."
NO_STANDINGS = "No standings yet."
NO_MATCH = "You have no match right now."
NO_RESULTS = "Standings appear once the first round has results."

# state: event page, dashboard, pairings, standings, my match
STATES: dict[str, dict[str, Says | None]] = {
    "draft": {
        "event": Says(("This event is a draft: only its organisers see it",), ("Round 1 is",)),
        "dashboard": Says(
            ("This event is a draft", "Open for registration", "at least 2 players"),
            ('id="next-step"', "Pair round 1"),
        ),
        "pairings": Says((NO_ROUND,)),
        "standings": Says((NO_STANDINGS,)),
        "my_match": None,  # nobody can register for a draft
    },
    "open, 0 players": {
        "event": Says(("Registration is open: 0 players registered. Round 1 is not paired yet.",)),
        "dashboard": Says(
            ("Nobody has registered yet: round 1 needs at least 2 checked-in players",),
            ('id="next-step"', "Pair round 1", SET_OPEN),
        ),
        "pairings": Says((NO_ROUND,)),
        "standings": Says((NO_STANDINGS,)),
        "my_match": None,
    },
    "open, 1 player": {
        "event": Says(("Registration is open: 1 player registered.",)),
        "dashboard": Says(
            ("Round 1 needs at least 2 checked-in players: 1 of 1 registered",),
            ('id="next-step"', "Pair round 1", SET_OPEN),
        ),
        "pairings": Says((NO_ROUND,)),
        "standings": Says((NO_STANDINGS,)),
        "my_match": Says((NO_MATCH,)),
    },
    "open, players": {
        "event": Says(("Registration is open: 4 players registered. Round 1 is not paired yet.",)),
        "dashboard": Says(('id="next-step"', "Pair round 1"), (SET_OPEN, "Nobody has")),
        "pairings": Says((NO_ROUND, "when the organiser pairs round 1")),
        "standings": Says((NO_STANDINGS,)),
        "my_match": Says((NO_MATCH,)),
    },
    "round 1 paired": {
        "event": Says(("Round 1 is paired: find your table in the pairings.",)),
        "dashboard": Says(("Start round 1",), ("Pair round 1", "Nobody has")),
        "pairings": Says(("Round 1",), (NO_ROUND,)),
        "standings": Says((NO_STANDINGS, NO_RESULTS)),
        "my_match": Says(("Round 1 — table",), (NO_MATCH,)),
    },
    "round 1 running": {
        "event": Says(("Round 1 is under way.",)),
        "dashboard": Says(("Close round 1",), ("Start round 1",)),
        "pairings": Says(("Round 1",), (NO_ROUND,)),
        "standings": Says((NO_STANDINGS, NO_RESULTS)),
        "my_match": Says(("Round 1 — table",), (NO_MATCH,)),
    },
    "round 1 closed": {
        "event": Says(("Round 1 is over; the next round is not paired yet.",)),
        "dashboard": Says(("Pair round 2",), ("Close round 1",)),
        "pairings": Says(("Round 1",), (NO_ROUND,)),
        "standings": Says(("P01",), (NO_STANDINGS,)),
        "my_match": Says(("The result is final",), (NO_MATCH,)),
    },
    "top cut": {
        "event": Says(("Round 4 (top cut) is paired",)),
        "dashboard": Says(("Start round 4",), ("Pair round", "Cut to the top")),
        "pairings": Says(("Round 4 (top cut)",), (NO_ROUND,)),
        "standings": Says(("Placings so far", "Top 4", "In the semifinals"), (NO_STANDINGS,)),
        "my_match": Says(("Round 4 · ", "Report the result"), (NO_MATCH,)),
    },
    "finished": {
        "event": Says(("The event is finished.",), ("not paired yet",)),
        "dashboard": Says(("The event is finished.",), ('id="next-step"',)),
        "pairings": Says(("Round 3",), (NO_ROUND,)),
        "standings": Says(
            ("Final placings", "Winner: <strong>P01</strong>", "the final Swiss standings"),
            (NO_STANDINGS, "Top cut", "In the semifinals"),
        ),
        "my_match": Says(("The event is over: you finished 1st.",), (NO_MATCH,)),
    },
}


def build(state: str, organiser) -> Event:
    """An event in ``state``, its first player (if any) with the account p01."""
    if state == "draft":
        return services.create_event(organiser, name="State Cup", status=Event.Status.DRAFT)
    if state == "open, 0 players":
        return services.create_event(organiser, name="State Cup", status="registration")
    options = {"organiser": organiser, "judge": None, "password": PASSWORD, "name": "State Cup"}
    if state == "open, 1 player":
        return worlds.build_event(1, paired=False, **options).event
    if state == "open, players":
        return worlds.build_event(4, paired=False, **options).event
    if state in ("round 1 paired", "round 1 running"):
        started = state == "round 1 running"
        return worlds.build_event(4, paired=True, started=started, swiss_rounds=3, **options).event
    if state == "round 1 closed":
        return worlds.build_event(4, rounds_played=1, paired=False, swiss_rounds=3, **options).event
    cut = state == "top cut"
    world = worlds.build_event(
        8, rounds_played=3, paired=False, swiss_rounds=3, top_cut=4 if cut else 0, **options
    )
    if cut:
        rounds.start_top_cut(world.event, organiser)
    else:
        rounds.finish_event(world.event, organiser)
    return world.event


PAGES = {
    "event": "/events/{pk}/",
    "dashboard": "/events/{pk}/manage/",
    "pairings": "/events/{pk}/pairings/",
    "standings": "/events/{pk}/standings/",
    "my_match": "/events/{pk}/my-match/",
}


def text_of(response) -> str:
    """The page's text with its markup's quotes and entities read as people read them."""
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


@pytest.mark.parametrize("state", list(STATES))
def test_each_page_says_what_the_event_is_really_waiting_for(client, organiser, state):
    event = build(state, organiser)
    for page, says in STATES[state].items():
        if says is None:
            continue
        if page == "my_match":
            client.force_login(event.registrations.get(number=1).user)
        else:
            client.force_login(organiser)
        response = client.get(PAGES[page].format(pk=event.pk))
        assert response.status_code == 200, (state, page, response.status_code)
        body = text_of(response)
        for wanted in says.shows:
            assert html.unescape(wanted) in body, f"{state} / {page}: missing {wanted!r}"
        for unwanted in says.never:
            assert unwanted not in body, f"{state} / {page}: says {unwanted!r}"


def test_the_next_step_refuses_to_pair_a_draft_and_says_why(client, organiser):
    event = services.create_event(organiser, name="Draft Cup", status=Event.Status.DRAFT)
    for name in ("Ada", "Grace"):  # entries kept from before it went back to draft
        Registration.objects.create(event=event, name=name, checked_in=True)
    client.force_login(organiser)
    response = client.post(f"/events/{event.pk}/next/", {"action": "pair"}, follow=True)
    assert "This event is a draft" in text_of(response)
    assert not event.rounds.exists()


def test_a_walk_in_before_round_1_is_not_told_of_losses(client, organiser):
    event = services.create_event(organiser, name="Walk-in Cup", status="registration")
    client.force_login(organiser)
    response = client.post(f"/events/{event.pk}/late-entry/", {"name": "Ada"}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Ada is entered and checked in for round 1."]


def test_a_late_entry_after_two_rounds_is_told_which_rounds_count_as_losses(client, organiser):
    world = worlds.build_event(
        4, rounds_played=2, paired=False, swiss_rounds=3, organiser=organiser, judge=None
    )
    make_user("late")
    client.force_login(organiser)
    response = client.post(
        f"/events/{world.event.pk}/late-entry/", {"username": "late"}, follow=True
    )
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "late joins from round 3; rounds 1 and 2 count as losses. The entry is offered to "
        "the account late: it becomes theirs only if they accept it."
    ]
