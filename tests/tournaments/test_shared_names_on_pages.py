"""Two players of one name are told apart by their event number wherever a player reads
the other's name: the standings, the final placings, My match and the match page (issue
17, point 4). The API keeps the name alone (its rows name players by id as well)."""

import pytest

pytestmark = pytest.mark.django_db


def with_two_sams(world):
    """The world's first two players both called Sam Lee."""
    for reg in world.registrations[:2]:
        reg.user.first_name, reg.user.last_name = "Sam", "Lee"
        reg.user.save()
    return world


@pytest.fixture
def two_sams(make_world):
    """Four players, two of them called Sam Lee, one round played."""
    return with_two_sams(make_world(["sam1", "sam2", "ann", "bob"], rounds_played=1, paired=False))


def numbers_of_sams(world) -> set[str]:
    return {f"Sam Lee {reg.player_number}" for reg in world.registrations[:2]}


def test_the_standings_page_tells_the_two_sams_apart_and_the_api_does_not(client, two_sams):
    event = two_sams.event
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    for label in numbers_of_sams(two_sams):
        assert label in page
    rows = client.get(f"/api/v1/events/{event.pk}/standings/").json()
    names = sorted(row["name"] for row in rows)
    assert names.count("Sam Lee") == 2 and not any("#" in name for name in names)
    assert not any("label" in row or "registration" in row for row in rows)


def test_my_match_and_the_match_page_name_the_other_sam_with_a_number(client, make_world):
    world = with_two_sams(make_world(["sam1", "sam2"]))  # round 1: Sam Lee v Sam Lee
    event, (first, second) = world.event, world.registrations
    match = event.rounds.get(number=1).matches.get()
    client.force_login(first.user)
    page = client.get(f"/events/{event.pk}/my-match/").content.decode()
    assert f"Opponent: <strong>Sam Lee {second.player_number}</strong>" in page
    match_page = client.get(f"/events/{event.pk}/matches/{match.pk}/").content.decode()
    assert f"Sam Lee {second.player_number}" in match_page


def test_the_events_shared_names_read_from_values_match_the_registrations(make_world):
    """``event_shared_names`` reads plain values: the same names as the registrations'."""
    from tournaments.models import Registration
    from tournaments.record import player_names

    world = with_two_sams(make_world(["sam1", "sam2", "ann", "bob", "cy"], paired=False))
    event = world.event
    Registration.objects.create(event=event, name="  sam   LEE ")  # a walk-in, spaced oddly
    Registration.objects.create(event=event, name="Ann")  # the same as the account "ann"?
    plain = Registration.objects.create(event=event)  # no name, no account: "Player #n"
    Registration.objects.filter(pk=world.registrations[4].pk).update(name=plain.display_name)
    expected = player_names.shared_names(event.registrations.select_related("user"))
    assert player_names.event_shared_names(event) == expected
    assert "sam lee" in expected and len(expected) >= 2


def test_the_hall_reads_each_kind_of_name_as_the_pages_do(client, make_world):
    """The hall display reads a round's names as plain values (``Registration.name_shown``):
    an entered name, an account's full name, an account with only a username and a walk-in
    with neither show exactly as ``display_name`` shows them."""
    from tournaments.models import Registration
    from tournaments.rounds import services as rounds

    world = make_world(["ada", "bo", "cy"], paired=False)
    world.registrations[0].user.first_name, world.registrations[0].user.last_name = "Ada", "L"
    world.registrations[0].user.save()
    world.registrations[1].name = "Bo Entered"
    world.registrations[1].save()
    Registration.objects.create(event=world.event, checked_in=True)  # no name, no account
    round_ = rounds.pair_next_round(world.event, world.organiser)
    body = client.get(f"/events/{world.event.pk}/hall/?screen=pairings").content.decode()
    shown = {m.player_a.display_name for m in round_.matches.all()}
    shown |= {m.player_b.display_name for m in round_.matches.exclude(player_b=None)}
    assert shown == {"Ada L", "Bo Entered", "cy", "Player #4"}
    for name in shown:
        assert f'<span class="hall-name">{name}</span>' in body


def test_the_public_pairings_tell_the_sams_apart_and_show_markup_as_text(client, make_world):
    """The pairings by name are written from plain values (tournaments.rounds.pairings_list):
    shared names still carry their numbers, on both sides, and a name is escaped."""
    import html
    import re

    world = with_two_sams(make_world(["sam1", "sam2", "<i>x</i>", "bob"]))
    raw = client.get(f"/events/{world.event.pk}/pairings/").content.decode()
    assert "<i>x</i>" not in raw and "&lt;i&gt;x&lt;/i&gt;" in raw
    lines = re.findall(r"<tr><td>(.*?)</td><td[^>]*>(.*?)</td><td>(.*?)</td></tr>", raw)
    players = [html.unescape(player) for player, _, _ in lines]
    assert players == sorted(players, key=str.casefold) and len(players) == 4
    assert numbers_of_sams(world) <= set(players)
    opponents = {html.unescape(opponent) for _, _, opponent in lines}
    assert opponents == set(players)
