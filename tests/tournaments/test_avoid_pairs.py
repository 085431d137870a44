"""Pairs that must not meet in Swiss (issue 33): the organiser lists them, the engine keeps
them apart as it does rematches, swaps refuse to seat them together, every change logged."""

from itertools import combinations

import pytest
from rest_framework.test import APIClient

from accounts.tokens import issue_token
from arbiter import worlds
from tests.conftest import PASSWORD, make_event, make_user, play_out, refused
from tournaments.event import avoid_pairs, services
from tournaments.models import AvoidPair, Event, EventLog, Registration
from tournaments.record.history import EventHistory
from tournaments.record.rounds import latest_round
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def players_of(event):
    return list(event.registrations.order_by("pk"))


def seated_pairs(round_):
    return {frozenset((m.player_a_id, m.player_b_id)) for m in round_.matches.filter(is_bye=False)}


def test_the_engine_never_pairs_listed_players_when_it_can_keep_them_apart(organiser):
    # Six players, and every pair kept apart but three: only one pairing is left, which a
    # random round 1 would find once in 15 draws.
    event = make_event(organiser, 6)
    players = players_of(event)
    allowed = {frozenset((players[0].pk, players[5].pk)), frozenset((players[1].pk, players[3].pk))}
    allowed.add(frozenset((players[2].pk, players[4].pk)))
    for a, b in combinations(players, 2):
        if frozenset((a.pk, b.pk)) not in allowed:
            avoid_pairs.add_pair(event, a, b, organiser, "family")
    one = rounds.pair_next_round(event, organiser)
    assert seated_pairs(one) == allowed
    assert one.pairing_stats["avoided"] == 0
    assert not any(m.explanation for m in one.matches.all())


def test_listed_players_never_meet_over_a_whole_event(organiser):
    event = make_event(organiser, 8, swiss_rounds=3)
    players = players_of(event)
    kept = [(players[0], players[1]), (players[2], players[3]), (players[0], players[4])]
    for a, b in kept:
        avoid_pairs.add_pair(event, a, b, organiser)
    forbidden = {frozenset((a.pk, b.pk)) for a, b in kept}
    for number in range(1, 4):
        round_ = rounds.pair_next_round(event, organiser)
        assert not seated_pairs(round_) & forbidden, f"round {number}"
        play_out(round_, organiser)
        rounds.close_round(round_, organiser)


def test_a_pair_meets_only_when_the_field_forces_it_and_the_pairing_says_so(organiser):
    world = worlds.build_event(
        ["Ada Lovelace", "Grace Hopper"],
        accounts=False,
        organiser=organiser,
        judge=None,
        paired=False,
        password=PASSWORD,
    )
    ada, grace = players_of(world.event)
    avoid_pairs.add_pair(world.event, ada, grace, organiser, "siblings")
    one = rounds.pair_next_round(world.event, organiser)
    match = one.matches.get()
    assert one.pairing_stats["avoided"] == 1
    assert match.explanation == (
        "Ada Lovelace and Grace Hopper are kept apart by the organiser, but meet: no pairing "
        "without a rematch or such a pair exists."
    )


def test_the_history_gives_the_engine_both_sides_of_each_pair(organiser):
    event = make_event(organiser, 4)
    a, b, c, _d = players_of(event)
    avoid_pairs.add_pair(event, b, a, organiser)
    avoid_pairs.add_pair(event, a, c, organiser)
    avoid = {p.id: set(p.avoid) for p in EventHistory.read(event).swiss_players(1)}
    assert avoid[a.public_id] == {b.public_id, c.public_id}
    assert avoid[b.public_id] == {a.public_id}
    assert avoid[c.public_id] == {a.public_id}
    assert EventHistory.read(event, plain=True).avoid == {}


def test_a_swap_that_would_seat_a_kept_apart_pair_together_is_refused(organiser):
    event = make_event(organiser, 4)
    one = rounds.pair_next_round(event, organiser)
    (a, b), (c, d) = [(m.player_a, m.player_b) for m in one.matches.order_by("table")]
    avoid_pairs.add_pair(event, a, c, organiser, "teammates")
    # Swapping b and c would seat a against c.
    with refused(f"{a.display_name} and {c.display_name} must not meet"):
        rounds.swap_players(one, b, c, organiser, "table mix-up")
    rounds.swap_players(one, b, d, organiser, "table mix-up")  # a v d, c v b: fine


def test_the_same_player_twice_is_refused(organiser):
    event = make_event(organiser, 4)
    a = players_of(event)[0]
    with refused("two different players") as caught:
        avoid_pairs.add_pair(event, a, a, organiser)
    assert caught.value.field == "second"


def test_a_player_of_another_event_is_refused(organiser):
    event = make_event(organiser, 4)
    other = worlds.build_event(
        ["Someone Else", "Another One"],
        accounts=False,
        organiser=organiser,
        judge=None,
        paired=False,
        name="Other Open",
    ).event
    with refused("player of this event") as caught:
        avoid_pairs.add_pair(event, players_of(event)[0], players_of(other)[0], organiser)
    assert caught.value.field == "second"
    assert not AvoidPair.objects.exists()


def test_a_pair_already_listed_is_refused_whichever_order(organiser):
    event = make_event(organiser, 4)
    a, b = players_of(event)[:2]
    avoid_pairs.add_pair(event, a, b, organiser)
    with refused("already kept apart"):
        avoid_pairs.add_pair(event, b, a, organiser)
    assert AvoidPair.objects.count() == 1


def test_a_waitlisted_player_may_be_listed(organiser):
    event = make_event(organiser, 2)
    waiting = Registration.objects.create(
        event=event, user=make_user("wally"), status=Registration.Status.WAITLISTED
    )
    pair = avoid_pairs.add_pair(event, players_of(event)[0], waiting, organiser)
    assert pair.second_id == waiting.pk


def test_a_finished_event_and_a_long_reason_are_refused(organiser):
    event = make_event(organiser, 4)
    a, b = players_of(event)[:2]
    with refused("reason"):
        avoid_pairs.add_pair(event, a, b, organiser, "x" * 201)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    with refused("finished"):
        avoid_pairs.add_pair(event, a, b, organiser)
    assert not AvoidPair.objects.exists()


def test_adding_and_removing_are_logged(organiser):
    event = make_event(organiser, 4)
    a, b = players_of(event)[:2]
    pair = avoid_pairs.add_pair(event, b, a, organiser, "  brothers ")
    added = EventLog.objects.get(event=event, action="avoid_pair_added")
    assert added.actor == organiser and added.reason == "brothers"
    assert added.data == {"players": [a.display_name, b.display_name]}
    assert added.words == "kept two players apart in Swiss"
    assert (pair.first_id, pair.second_id, pair.added_by) == (a.pk, b.pk, organiser)
    avoid_pairs.remove_pair(event, pair.pk, organiser)
    removed = EventLog.objects.get(event=event, action="avoid_pair_removed")
    assert removed.data == {"players": [a.display_name, b.display_name]}
    assert not AvoidPair.objects.exists()
    with refused("not listed"):
        avoid_pairs.remove_pair(event, pair.pk, organiser)


def test_only_the_events_organisers_may_open_or_use_the_page(client, organiser, judge, player):
    event = make_event(organiser, 4)
    services.grant_role(event, judge.username, "judge")
    a, b = players_of(event)[:2]
    url = f"/events/{event.pk}/avoid/"
    form = {"first": a.pk, "second": b.pk, "reason": "family"}
    assert client.get(url).status_code == 302  # to log in
    for outsider in (judge, player):
        client.force_login(outsider)
        assert client.get(url).status_code == 403
        assert client.post(url, form).status_code == 403
    assert not AvoidPair.objects.exists()
    client.force_login(organiser)
    assert f'href="{url}"' in client.get(f"/events/{event.pk}/manage/").content.decode()
    page = client.get(url)
    assert page.status_code == 200 and "No players are kept apart." in page.content.decode()


def test_the_organiser_adds_and_removes_a_pair_on_the_page(client, organiser):
    event = make_event(organiser, 4)
    a, b = players_of(event)[:2]
    client.force_login(organiser)
    url = f"/events/{event.pk}/avoid/"
    answer = client.post(url, {"first": a.pk, "second": b.pk, "reason": "family"}, follow=True)
    text = answer.content.decode()
    assert f"{a.display_name} and {b.display_name} will not be paired" in text
    assert "“family”" in text
    pair = AvoidPair.objects.get()
    refusal = client.post(url, {"first": a.pk, "second": a.pk}, follow=True).content.decode()
    assert "Choose two different players." in refusal
    assert client.post(url, {"first": a.pk, "second": ""}, follow=True).status_code == 200
    assert AvoidPair.objects.count() == 1
    client.post(f"{url}{pair.pk}/remove/", follow=True)
    assert not AvoidPair.objects.exists()
    assert latest_round(event) is None  # nothing else happened to the event


def test_the_api_lists_adds_and_removes_pairs_as_the_page_does(organiser, judge):
    def client_of(user):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(user).key}")
        return client

    event = make_event(organiser, 4)
    services.grant_role(event, judge.username, "judge")
    a, b = players_of(event)[:2]
    url = f"/api/v1/events/{event.pk}/avoid/"
    body = {"first": b.pk, "second": a.pk, "reason": "twins"}
    assert client_of(judge).post(url, body, format="json").status_code == 403
    api = client_of(organiser)
    added = api.post(url, body, format="json")
    assert added.status_code == 201
    assert added.json()["first"] == a.pk and added.json()["players"][1] == b.display_name
    again = api.post(url, body, format="json")
    assert again.status_code == 400
    assert again.json()["errors"] == [
        {
            "field": "second",
            "message": f"{a.display_name} and {b.display_name} are already kept apart.",
        }
    ]
    same = api.post(url, {"first": a.pk, "second": a.pk}, format="json")
    assert same.json()["errors"][0]["field"] == "second"
    assert [p["pair"] for p in api.get(url).json()] == [added.json()["pair"]]
    assert api.delete(f"{url}{added.json()['pair']}/").status_code == 200
    assert api.get(url).json() == []
    assert api.delete(f"{url}{added.json()['pair']}/").status_code == 404
