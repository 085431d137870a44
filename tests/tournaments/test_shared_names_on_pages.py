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
    from tournaments import player_names
    from tournaments.models import Registration

    world = with_two_sams(make_world(["sam1", "sam2", "ann", "bob", "cy"], paired=False))
    event = world.event
    Registration.objects.create(event=event, name="  sam   LEE ")  # a walk-in, spaced oddly
    Registration.objects.create(event=event, name="Ann")  # the same as the account "ann"?
    plain = Registration.objects.create(event=event)  # no name, no account: "Player #n"
    Registration.objects.filter(pk=world.registrations[4].pk).update(name=plain.display_name)
    expected = player_names.shared_names(event.registrations.select_related("user"))
    assert player_names.event_shared_names(event) == expected
    assert "sam lee" in expected and len(expected) >= 2
