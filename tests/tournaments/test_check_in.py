"""Check-in is part of the event's state (issue 30, point 1): round 1 names the registered
players who are not checked in and is refused until the organiser confirms (page and API);
the decklist gate counts every registered player; players can check themselves in while
the event's self check-in is open; the organiser checks everyone in at once; and a player
round 1 left out is told so, with what to do, on My match and the event page."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from arbiter.worlds import submit_demo_decklists
from decks.cardpool import load_demo_pools
from tests.conftest import make_user, refused
from tournaments import signals
from tournaments.event import services
from tournaments.models import EventLog, Registration
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

NOT_CHECKED_IN = "registered players are not checked in"


@pytest.fixture
def four_and_two_sleepers(make_world):
    """Four players checked in by the organiser, and two who registered on the site and
    did not check in (Sam Sleeper and Tess Tardy)."""

    def build(**options):
        world = make_world(4, paired=False, **options)
        sleepers = [
            make_user("sam", first_name="Sam", last_name="Sleeper"),
            make_user("tess", first_name="Tess", last_name="Tardy"),
        ]
        registrations = [services.register_player(world.event, u) for u in sleepers]
        return world, registrations

    return build


def seated(round_) -> set[int]:
    return {p for m in round_.matches.all() for p in (m.player_a_id, m.player_b_id)} - {None}


def test_round_one_is_refused_naming_who_is_not_checked_in_until_confirmed(
    organiser, four_and_two_sleepers
):
    world, sleepers = four_and_two_sleepers()
    with refused(NOT_CHECKED_IN) as caught:
        rounds.pair_next_round(world.event, organiser)
    assert caught.value.fields == ["confirm_not_checked_in"]
    assert "Sam Sleeper" in str(caught.value) and "Tess Tardy" in str(caught.value)
    # Confirming only the one the page listed: the other, not seen, is asked about again.
    with refused("2 registered players are not checked in"):
        rounds.pair_next_round(world.event, organiser, confirm_not_checked_in=[sleepers[0].pk])
    services.check_in(world.event, [sleepers[0].pk], organiser)
    with refused("1 registered player is not checked in \\(Tess Tardy\\)"):
        rounds.pair_next_round(world.event, organiser)
    round_ = rounds.pair_next_round(world.event, organiser, confirm_not_checked_in=True)
    assert seated(round_) == {r.pk for r in world.registrations} | {sleepers[0].pk}


def test_checked_in_players_pair_without_a_question(organiser, four_and_two_sleepers):
    world, sleepers = four_and_two_sleepers()
    services.check_in(world.event, [r.pk for r in sleepers], organiser)
    assert len(seated(rounds.pair_next_round(world.event, organiser))) == 6


def test_the_api_answers_400_naming_the_field_then_pairs_once_confirmed(
    client, organiser, four_and_two_sleepers
):
    world, _ = four_and_two_sleepers()
    client.force_login(organiser)
    url = f"/api/v1/events/{world.event.pk}/rounds/"
    for body in ({}, {"confirm_not_checked_in": False}):
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 400
        [error] = answer.json()["errors"]
        assert error["field"] == "confirm_not_checked_in"
        assert "Sam Sleeper" in error["message"] and "Tess Tardy" in error["message"]
    assert not world.event.rounds.exists()
    paired = client.post(url, {"confirm_not_checked_in": True}, content_type="application/json")
    assert paired.status_code == 201
    assert paired.json()["number"] == 1 and len(paired.json()["matches"]) == 2


def test_the_schema_documents_the_confirmation(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/events/{event_id}/rounds/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["confirm_not_checked_in"]["type"] == "boolean"
    assert "confirm_not_checked_in" in operation["description"]


def test_the_dashboard_names_them_beside_the_decklists_and_the_pair_form_confirms(
    client, organiser, four_and_two_sleepers
):
    world, sleepers = four_and_two_sleepers(decklist_policy="warn")
    client.force_login(organiser)
    page = client.get(f"/events/{world.event.pk}/manage/").content.decode()
    assert "2 registered players are not checked in" in page
    assert page.index('id="check-in"') < page.index('id="decklists"')
    listed = page[page.index('id="not-checked-in"') :]
    assert "Sam Sleeper" in listed and "Tess Tardy" in listed
    assert 'id="confirm-not-checked-in"' in page
    client.post(f"/events/{world.event.pk}/next/", {"action": "pair", "missing": "x"})
    assert not world.event.rounds.exists()
    answer = client.get(f"/events/{world.event.pk}/manage/").content.decode()
    assert NOT_CHECKED_IN in answer and "Sam Sleeper" in answer
    everyone = ",".join(str(r.pk) for r in world.event.registrations.all())
    client.post(
        f"/events/{world.event.pk}/next/",
        {"action": "pair", "missing": everyone, "absent": f"{sleepers[0].pk},{sleepers[1].pk}"},
    )
    assert world.event.rounds.count() == 1


def test_the_decklist_gate_counts_every_registered_player(organiser, four_and_two_sleepers):
    """Under Require, registered players without a list are named and dropped, checked in
    or not: none is silently left out."""
    load_demo_pools()
    world, sleepers = four_and_two_sleepers(decklist_policy="require")
    submit_demo_decklists(world.registrations)
    with refused("2 of 6 players have no legal submitted decklist") as caught:
        rounds.pair_next_round(world.event, organiser, confirm_not_checked_in=True)
    assert caught.value.fields == ["confirm_missing_decklists"]
    assert "Sam Sleeper" in str(caught.value)
    round_ = rounds.pair_next_round(
        world.event, organiser, confirm_not_checked_in=True, confirm_missing_decklists=True
    )
    for sleeper in sleepers:
        sleeper.refresh_from_db()
        assert sleeper.status == Registration.Status.DROPPED
    assert sorted(round_.pairing_stats["dropped_without_decklist"]) == ["Sam Sleeper", "Tess Tardy"]


def test_both_questions_come_at_once(client, organiser, four_and_two_sleepers):
    load_demo_pools()
    world, _ = four_and_two_sleepers(decklist_policy="warn")
    submit_demo_decklists(world.registrations)
    client.force_login(organiser)
    answer = client.post(f"/api/v1/events/{world.event.pk}/rounds/", {}, "application/json")
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == [
        "confirm_not_checked_in",
        "confirm_missing_decklists",
    ]


def test_the_gate_says_nobody_has_registered_rather_than_every_player_is_fine(
    client, organiser, make_world
):
    world = make_world([], paired=False, decklist_policy="warn")
    client.force_login(organiser)
    page = client.get(f"/events/{world.event.pk}/manage/").content.decode()
    assert "Every registered player has a legal submitted decklist" not in page
    assert "Nobody has registered yet: there are no decklists to check." in page


# -- Self check-in ------------------------------------------------------------------------


def opens(minutes: int) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(minutes=minutes)


def player_client(user, csrf: bool = False) -> Client:
    browser = Client(enforce_csrf_checks=csrf)
    browser.force_login(user)
    return browser


def test_self_check_in_while_open_from_my_match_and_the_event_page(
    organiser, four_and_two_sleepers
):
    world, (sam, tess) = four_and_two_sleepers(self_check_in_opens=opens(-5))
    browser = player_client(sam.user)
    page = browser.get(f"/events/{world.event.pk}/my-match/").content.decode()
    assert "You are not checked in yet." in page and 'id="check-in-self"' in page
    answer = browser.post(
        f"/events/{world.event.pk}/check-in/me/", {"back": "my_match"}, follow=True
    )
    assert answer.redirect_chain[-1][0] == f"/events/{world.event.pk}/my-match/"
    assert "You are checked in for round 1." in answer.content.decode()
    sam.refresh_from_db()
    assert sam.checked_in
    logged = EventLog.objects.filter(event=world.event, action="check_in", actor=sam.user)
    assert logged.count() == 1
    event_page = player_client(tess.user).get(world.event.get_absolute_url()).content.decode()
    assert 'id="check-in-self"' in event_page
    player_client(tess.user).post(f"/events/{world.event.pk}/check-in/me/")
    tess.refresh_from_db()
    assert tess.checked_in
    assert len(seated(rounds.pair_next_round(world.event, organiser))) == 6


def test_self_check_in_is_announced_like_the_organisers(
    organiser, four_and_two_sleepers, django_capture_on_commit_callbacks
):
    world, (sam, _) = four_and_two_sleepers(self_check_in_opens=opens(-5))
    heard = []

    def listener(sender, **kwargs):
        heard.append((kwargs["registration_id"], kwargs["what"]))

    signals.entry_changed.connect(listener, dispatch_uid="test.check_in")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.self_check_in(world.event, sam.user)
    finally:
        signals.entry_changed.disconnect(dispatch_uid="test.check_in")
    assert heard == [(sam.pk, signals.CHECKED_IN)]


@pytest.mark.parametrize(
    ("when", "paired", "said"),
    [
        (None, False, "This event has no self check-in"),
        (30, False, "Self check-in opens at"),
        (-5, True, "Check-in is closed: round 1 is paired"),
    ],
    ids=["not offered", "not yet open", "closed by round 1"],
)
def test_self_check_in_refused_when_not_open(organiser, four_and_two_sleepers, when, paired, said):
    world, (sam, _) = four_and_two_sleepers(
        self_check_in_opens=None if when is None else opens(when)
    )
    if paired:
        rounds.pair_next_round(world.event, organiser, confirm_not_checked_in=True)
    browser = player_client(sam.user)
    page = browser.get(world.event.get_absolute_url()).content.decode()
    assert 'id="check-in-self"' not in page
    answer = browser.post(f"/events/{world.event.pk}/check-in/me/", follow=True)
    assert said in answer.content.decode()
    sam.refresh_from_db()
    assert not sam.checked_in
    with refused(said):
        services.self_check_in(world.event, sam.user)


def test_a_player_checks_in_only_themself(organiser, four_and_two_sleepers):
    world, (sam, tess) = four_and_two_sleepers(self_check_in_opens=opens(-5))
    player_client(sam.user).post(f"/events/{world.event.pk}/check-in/me/", {"players": tess.pk})
    sam.refresh_from_db()
    tess.refresh_from_db()
    assert sam.checked_in and not tess.checked_in
    outsider = player_client(make_user("outsider"))
    assert outsider.post(f"/events/{world.event.pk}/check-in/me/").status_code == 403


def test_self_check_in_needs_the_csrf_token(organiser, four_and_two_sleepers):
    world, (sam, _) = four_and_two_sleepers(self_check_in_opens=opens(-5))
    browser = player_client(sam.user, csrf=True)
    assert browser.post(f"/events/{world.event.pk}/check-in/me/").status_code == 403
    assert browser.get(f"/events/{world.event.pk}/check-in/me/").status_code == 405
    sam.refresh_from_db()
    assert not sam.checked_in


def test_the_event_form_sets_self_check_in_in_the_venues_time(client, organiser, make_world):
    world = make_world(2, paired=False, time_zone="Europe/Berlin")
    client.force_login(organiser)
    form = client.get(f"/events/{world.event.pk}/edit/").content.decode()
    assert 'name="self_check_in_opens"' in form
    data = {
        "name": world.event.name,
        "game": world.event.game,
        "date": world.event.date.isoformat(),
        "venue": "",
        "time_zone": "Europe/Berlin",
        "status": world.event.status,
        "match_format": world.event.match_format,
        "swiss_rounds": 3,
        "top_cut": 0,
        "round_minutes": 50,
        "decklist_policy": "none",
        "decklists_public": "none",
        "print_paper": "A4",
        "self_check_in_opens": "2026-12-04T09:00",
    }
    answer = client.post(f"/events/{world.event.pk}/edit/", data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    world.event.refresh_from_db()
    assert world.event.self_check_in_opens == datetime.datetime(
        2026, 12, 4, 8, 0, tzinfo=datetime.UTC
    )


# -- The organiser checks everyone in -------------------------------------------------------


def test_check_everyone_in_at_once_says_how_many_in_a_real_plural(
    client, organiser, make_world, django_capture_on_commit_callbacks
):
    world = make_world(3, paired=False, checked_in=False)
    client.force_login(organiser)
    heard = []

    def listener(sender, **kwargs):
        heard.append(kwargs["registration_id"])

    signals.entry_changed.connect(listener, dispatch_uid="test.check_all")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(f"/events/{world.event.pk}/check-in/", {"all": "1"}, follow=True)
    finally:
        signals.entry_changed.disconnect(dispatch_uid="test.check_all")
    assert "3 players checked in." in answer.content.decode()
    assert sorted(heard) == sorted(r.pk for r in world.registrations)
    assert not world.event.registrations.filter(checked_in=False).exists()
    assert EventLog.objects.filter(event=world.event, action="check_in").count() == 1


def test_one_player_checked_in_is_said_in_the_singular(client, organiser, make_world):
    world = make_world(3, paired=False, checked_in=False)
    client.force_login(organiser)
    one = world.registrations[0].pk
    answer = client.post(f"/events/{world.event.pk}/check-in/", {"players": one}, follow=True)
    page = answer.content.decode()
    assert "1 player checked in." in page and "(s)" not in page


# -- The player left out --------------------------------------------------------------------


def test_the_player_left_out_is_told_so_on_my_match_and_the_event_page(
    organiser, four_and_two_sleepers
):
    world, (sam, _) = four_and_two_sleepers()
    rounds.pair_next_round(world.event, organiser, confirm_not_checked_in=True)
    browser = player_client(sam.user)
    told = "You are not checked in, so you have no match: round 1 was paired without you."
    what_to_do = "Find the organiser or a judge at the venue"
    mine = browser.get(f"/events/{world.event.pk}/my-match/").content.decode()
    assert told in mine and what_to_do in mine
    assert "Pairings appear here as soon as the organiser pairs the round" not in mine
    fragment = browser.get(f"/events/{world.event.pk}/my-match/fragment/").content.decode()
    assert told in fragment
    event_page = browser.get(world.event.get_absolute_url()).content.decode()
    assert told in event_page and what_to_do in event_page
    # A player who plays reads no such thing.
    playing = player_client(world.registrations[0].user)
    assert told not in playing.get(f"/events/{world.event.pk}/my-match/").content.decode()


def test_checked_in_after_round_one_they_play_the_next_round(organiser, four_and_two_sleepers):
    """What the notice promises is what happens: checked in, they are paired next round."""
    from tests.conftest import play_out

    world, (sam, tess) = four_and_two_sleepers()
    one = rounds.pair_next_round(world.event, organiser, confirm_not_checked_in=True)
    services.check_in(world.event, [sam.pk, tess.pk], organiser)
    play_out(one, organiser)
    rounds.close_round(one, organiser)
    two = rounds.pair_next_round(world.event, organiser)
    assert {sam.pk, tess.pk} <= seated(two)
