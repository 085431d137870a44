"""The organiser's flights-and-gate page, and what players read about the gate."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import make_user
from tournaments.event import phases, services
from tournaments.models import Event, EventLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def main(organiser) -> Event:
    return services.create_event(
        organiser,
        name="Regional",
        game="iacta",
        status=Event.Status.REGISTRATION,
        swiss_rounds=7,
        top_cut=8,
    )


def test_only_the_organiser_sees_the_phases_page(client, login, main, judge):
    url = reverse("tournaments:phases", args=[main.pk])
    assert client.get(url).status_code == 302  # to the login page
    login(judge)
    assert client.get(url).status_code == 403


def test_organiser_adds_flights_and_states_the_gate(client, login, main, organiser):
    login(organiser)
    url = reverse("tournaments:phases", args=[main.pk])
    assert "No flights yet" in client.get(url).content.decode()
    client.post(url, {"action": "flight", "flight_name": "A", "rounds": "4"})
    client.post(url, {"action": "flight", "flight_name": "B", "rounds": "4"})
    assert list(main.flights.values_list("flight_name", "swiss_rounds", "top_cut")) == [
        ("A", 4, 0),
        ("B", 4, 0),
    ]
    response = client.post(
        url,
        {"action": "gate", "gate_points": "9", "gate_top": "16", "gate_ties": "tiebreakers"},
        follow=True,
    )
    page = response.content.decode()
    assert "at least 9 match points or the top 16 of Day 1" in page
    assert EventLog.objects.filter(event=main, action="gate_rule").exists()
    # Bad input names what was wrong and writes nothing.
    response = client.post(
        url,
        {"action": "gate", "gate_points": "", "gate_top": "", "gate_ties": "tiebreakers"},
        follow=True,
    )
    assert "Give the points, the top N, or both" in response.content.decode()
    main.refresh_from_db()
    assert (main.gate_points, main.gate_top) == (9, 16)
    response = client.post(
        url, {"action": "flight", "flight_name": "A", "rounds": "4"}, follow=True
    )
    assert "already has a flight called A" in response.content.decode()


def test_players_register_in_a_flight_and_read_the_gate(client, login, main, organiser):
    phases.set_gate(main, organiser, points=9, top=None)
    flight = phases.add_flight(main, organiser, name="Saturday", rounds=4)
    someone = make_user("sam")
    login(someone)
    page = client.get(main.get_absolute_url()).content.decode()
    assert "Players register for one of the Day 1 flights" in page
    assert "Saturday" in page
    client.post(reverse("tournaments:register", args=[flight.pk]))
    me = flight.registrations.get(user=someone)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert "Day 2: at least 9 match points after Day 1." in page
    assert "A Day 1 flight of" in page
    fragment = client.get(reverse("tournaments:my_match", args=[flight.pk])).content.decode()
    assert "at least 9 match points" in fragment
    assert me.awarded_byes == 0


def test_the_api_adds_flights_states_the_gate_and_shows_it(main, organiser, judge):
    from rest_framework.test import APIClient

    from accounts.tokens import issue_token

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(organiser).key}")
    url = f"/api/v1/events/{main.pk}/phases/"
    made = api.post(url, {"action": "flight", "name": "A", "rounds": 4}, format="json")
    assert made.status_code == 201, made.content
    bad = api.post(url, {"action": "gate", "points": None, "top": None}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "gate_points"
    gate = api.post(url, {"action": "gate", "points": 19, "top": 32}, format="json")
    assert gate.status_code == 200, gate.content
    assert gate.json()["gate"]["points"] == 19 and gate.json()["flights"][0]["name"] == "A"
    early = api.post(url, {"action": "apply"}, format="json")
    assert early.status_code == 400 and "A has closed 0 of its 4 rounds" in early.content.decode()
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(judge).key}")
    assert other.post(url, {"action": "apply"}, format="json").status_code == 403
    assert APIClient().get(url).json()["gate"]["top"] == 32


def test_a_long_main_event_name_still_makes_a_flight(organiser):
    main = services.create_event(organiser, name="R" * 200, game="iacta")
    flight = phases.add_flight(main, organiser, name="Sunday morning", rounds=3)
    assert len(flight.name) == 200 and flight.name.endswith("… — Sunday morning")


def test_the_plan_for_a_main_event_counts_its_flights_entrants(main, organiser):
    from tournaments.event import plan

    for name, size in (("A", 40), ("B", 30)):
        flight = phases.add_flight(main, organiser, name=name, rounds=6)
        for i in range(size):
            services.register_player(flight, make_user(f"{name}{i}"))
    field = plan.entrants(main)
    assert field.players == 70
    assert plan.recommendation(main).plan.swiss_rounds == 7  # 65-128 players


def test_the_plan_over_the_api(main, organiser, judge):
    from rest_framework.test import APIClient

    from accounts.tokens import issue_token

    for i in range(40):
        services.register_player(main, make_user(f"e{i}"))
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(organiser).key}")
    url = f"/api/v1/events/{main.pk}/plan/"
    shown = api.get(url).json()
    assert shown["players"] == 40 and shown["recommendation"] == {"swiss_rounds": 6, "top_cut": 8}
    stale = api.post(url, {"counted": 39}, format="json")
    assert stale.status_code == 400 and "field changed" in stale.content.decode()
    assert api.post(url, {"counted": 40}, format="json").status_code == 200
    main.refresh_from_db()
    assert (main.swiss_rounds, main.top_cut) == (6, 8)
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(judge).key}")
    assert other.get(url).status_code == 403
