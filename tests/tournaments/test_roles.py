"""Roles are per event: the same user can organise one event and play in another."""

import html

import pytest

from tests.conftest import database_rows, make_user
from tournaments.event import services
from tournaments.event.roles import roles_in
from tournaments.models import Event, EventRole, Registration

pytestmark = pytest.mark.django_db

REFUSED = "Only this event's organisers may open this page."


def refused_dashboard(response) -> bool:
    """The 403 page saying who may open the dashboard, and none of the dashboard."""
    page = html.unescape(response.content.decode())
    return response.status_code == 403 and REFUSED in page and 'id="next-step"' not in page


def test_roles_are_per_event(event, organiser, player):
    other = services.create_event(player, name="Pat's League", status=Event.Status.REGISTRATION)
    services.register_player(other, organiser)
    assert roles_in(organiser, event) == {"organiser"}
    assert roles_in(organiser, other) == {"player"}
    assert roles_in(player, event) == {"player"}
    assert roles_in(player, other) == {"organiser"}


def test_player_gets_403_on_the_organiser_dashboard(event, player, login):
    response = login(player).get(f"/events/{event.pk}/manage/")
    assert response.status_code == 403
    assert refused_dashboard(response)


def test_judge_gets_403_on_the_organiser_dashboard(event, judge, login):
    assert refused_dashboard(login(judge).get(f"/events/{event.pk}/manage/"))


def test_anonymous_user_is_sent_to_log_in(event, client):
    response = client.get(f"/events/{event.pk}/manage/")
    assert response.status_code == 302
    assert response["Location"].startswith(f"/accounts/login/?next=/events/{event.pk}/manage/")


def test_organiser_opens_the_dashboard(event, organiser, player, login):
    response = login(organiser).get(f"/events/{event.pk}/manage/")
    assert response.status_code == 200
    assert player.username in response.content.decode()


def test_organiser_of_one_event_is_not_organiser_of_another(event, player, login):
    other = services.create_event(player, name="Elsewhere")
    assert refused_dashboard(login(event.created_by).get(f"/events/{other.pk}/manage/"))


def test_only_organisers_change_staff(event, judge, player, login):
    before = database_rows()
    response = login(player).post(
        f"/events/{event.pk}/staff/", {"username": player.username, "role": "judge"}
    )
    assert response.status_code == 403
    assert REFUSED in html.unescape(response.content.decode())
    assert not EventRole.objects.filter(user=player, event=event).exists()
    assert database_rows() == before


def test_organiser_adds_a_judge(event, organiser, login):
    newcomer = make_user("newjudge")
    login(organiser).post(f"/events/{event.pk}/staff/", {"username": "NewJudge", "role": "judge"})
    assert roles_in(newcomer, event) == {"judge"}


def test_adding_an_unknown_user_says_so(event, organiser, login):
    before = database_rows()
    response = login(organiser).post(
        f"/events/{event.pk}/staff/", {"username": "ghost", "role": "judge"}, follow=True
    )
    assert "No account is called &#x27;ghost&#x27;" in response.content.decode()
    assert database_rows() == before


def test_last_organiser_cannot_be_removed(event, organiser, login):
    grant = EventRole.objects.get(event=event, user=organiser)
    before = database_rows()
    response = login(organiser).post(f"/events/{event.pk}/staff/{grant.pk}/remove/", follow=True)
    assert "An event needs at least one organiser." in response.content.decode()
    assert EventRole.objects.filter(pk=grant.pk).exists()
    assert database_rows() == before


def test_judge_console_lists_only_judged_events(event, judge, player, login):
    assert event.name in login(judge).get("/judge/").content.decode()
    assert event.name not in login(player).get("/judge/").content.decode()


def test_registration_respects_the_cap_with_a_waiting_list(event):
    event.registration_cap = 1
    event.save()
    late = make_user("late")
    assert services.register_player(event, late).status == Registration.Status.WAITLISTED
    services.withdraw_player(
        event, Registration.objects.get(event=event, user__username="pat").user
    )
    assert Registration.objects.get(user=late).status == Registration.Status.REGISTERED


def test_player_registers_from_the_event_page(event, login):
    newcomer = make_user("fresh")
    response = login(newcomer).post(f"/events/{event.pk}/register/", follow=True)
    assert "You are registered" in response.content.decode()
    assert roles_in(newcomer, event) == {"player"}


def test_closed_registration_is_refused_with_a_message(event, login):
    event.status = Event.Status.RUNNING
    event.save()
    tardy = make_user("tardy")
    before = database_rows()
    response = login(tardy).post(f"/events/{event.pk}/register/", follow=True)
    assert "Registration for this event is closed." in response.content.decode()
    assert roles_in(tardy, event) == set()
    assert database_rows() == before
