"""The organiser's "Plan for the field" page (issue 33): the table's recommendation for the
players entered, awarded byes counted, accepted once through a service and logged, and
refused once round 1 is paired. Only the event's organisers see it."""

from __future__ import annotations

import html
import re

import pytest

from tournaments import once
from tournaments.event import plan as field_plan
from tournaments.models import EventLog

pytestmark = pytest.mark.django_db


def words(response) -> str:
    text = html.unescape(response.content.decode())
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


def token(page) -> str:
    return re.search(rf'name="{once.FORM_FIELD}" value="([^"]+)"', page.content.decode()).group(1)


@pytest.fixture
def world(make_world):
    """40 registered players, nothing paired: Appendix E says 6 rounds and a top 8."""
    return make_world(40, name="Plan Cup", paired=False, swiss_rounds=None, accounts=False)


def path(event) -> str:
    return f"/events/{event.pk}/plan/"


def accept(client, event, counted=None):
    page = client.get(path(event))
    counted = page.context["found"].plan.counted if counted is None else counted
    data = {"counted": counted, once.FORM_FIELD: token(page)}
    return client.post(path(event), data, follow=True)


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    for response in (client.get(path(world.event)), client.post(path(world.event), {})):
        assert response.status_code == 302
        assert "/login" in response["Location"]


def test_judges_and_players_may_not_see_or_accept_it(login, world, player, judge):
    world.event.registrations.create(user=player, name="Pat")
    for who in (player, judge):
        client = login(who)
        assert client.get(path(world.event)).status_code == 403
        assert client.post(path(world.event), {"counted": 40}).status_code == 403
    world.event.refresh_from_db()
    assert world.event.top_cut == 0


def test_the_page_shows_the_field_the_recommendation_and_the_settings(login, world):
    response = login(world.organiser).get(path(world.event))
    assert response.status_code == 200
    text = words(response)
    assert "40 players registered" in text
    assert "Magic: The Gathering Tournament Rules, Appendix E" in text
    assert "Swiss rounds 6" in text
    assert "Top cut top 8" in text
    assert "not set: 6 for the players seated now" in text
    assert "Estimated end: day 1, 17:50" in text  # 6 rounds and 3 of top 8, 50 + 10 minutes


def test_the_dashboard_links_to_it(login, world):
    page = login(world.organiser).get(f"/events/{world.event.pk}/manage/")
    assert f'href="{path(world.event)}"' in page.content.decode()


def test_accepting_sets_the_rounds_and_cut_and_logs_it(login, world):
    response = accept(login(world.organiser), world.event)
    assert "The plan is accepted" in words(response)
    world.event.refresh_from_db()
    assert (world.event.swiss_rounds, world.event.top_cut) == (6, 8)
    entry = world.event.log.get(action="plan")
    assert entry.actor == world.organiser
    assert entry.data["set"] == {"swiss_rounds": 6, "top_cut": 8}
    assert entry.data["counted"] == 40
    assert entry.words == "accepted the plan for the field"


def test_a_form_sent_twice_accepts_once(login, world):
    client = login(world.organiser)
    page = client.get(path(world.event))
    data = {"counted": 40, once.FORM_FIELD: token(page)}
    client.post(path(world.event), data)
    client.post(path(world.event), data)
    assert EventLog.objects.filter(event=world.event, action="plan").count() == 1


def test_awarded_byes_count_as_two_four_or_eight_players(login, make_world):
    world = make_world(62, name="Bye Cup", paired=False, accounts=False)
    assert field_plan.recommendation(world.event).plan.swiss_rounds == 6  # 62
    first = world.registrations[0]
    first.awarded_byes = 2
    first.save(update_fields=["awarded_byes"])
    client = login(world.organiser)
    text = words(client.get(path(world.event)))
    assert "1 with 2 byes" in text
    assert "With their awarded byes the table counts them as 65 players." in text
    accept(client, world.event)
    world.event.refresh_from_db()
    assert world.event.swiss_rounds == 7  # 65 counted: 65-128 plays 7 rounds


def test_a_field_that_changed_since_the_page_is_not_accepted(login, world):
    response = accept(login(world.organiser), world.event, counted=39)
    assert "The field changed while you read the page: it counts 40 players now" in words(response)
    world.event.refresh_from_db()
    assert world.event.swiss_rounds is None
    assert not world.event.log.filter(action="plan").exists()


@pytest.mark.parametrize("sent", [{"counted": "1e999"}, {}])
def test_a_count_that_is_missing_or_no_number_is_refused(login, world, sent):
    response = login(world.organiser).post(path(world.event), sent, follow=True)
    assert "The form's player count is missing or not a number." in words(response)
    world.event.refresh_from_db()
    assert world.event.swiss_rounds is None


def test_after_round_one_is_paired_it_is_refused(login, make_world):
    world = make_world(40, name="Late Cup", swiss_rounds=4, top_cut=0, accounts=False)
    client = login(world.organiser)
    page = client.get(path(world.event))
    assert "Round 1 is paired" in words(page)
    assert 'name="counted"' not in page.content.decode()  # no form to accept
    response = client.post(path(world.event), {"counted": 40}, follow=True)
    assert "Round 1 is paired: the rounds and the cut were announced" in words(response)
    world.event.refresh_from_db()
    assert (world.event.swiss_rounds, world.event.top_cut) == (4, 0)
    assert not world.event.log.filter(action="plan").exists()


def test_a_field_too_small_for_the_table_says_so(login, make_world):
    world = make_world(4, name="Tiny Cup", paired=False, accounts=False)
    text = words(login(world.organiser).get(path(world.event)))
    assert "The table recommends nothing for fewer than 5 players." in text
    assert "Accept the recommendation" not in text


def test_a_table_with_a_day_two_gate_sets_the_gate_too(login, make_world, tmp_path, monkeypatch):
    tables = tmp_path / "tables.toml"
    tables.write_text(
        '[tables.two-day]\ntitle = "Two days"\nsource = "a test"\n'
        "[[tables.two-day.rows]]\nmin = 8\nswiss_rounds = 5\ntop_cut = 8\n"
        "gate_points = 9\ngate_top = 16\nday2_rounds = 3\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("ARBITER_PLAN_TABLES", str(tables))
    world = make_world(24, name="Gate Cup", paired=False, accounts=False, plan_table="two-day")
    client = login(world.organiser)
    text = words(client.get(path(world.event)))
    assert "at least 9 points or the top 16, whichever lets more through" in text
    assert "Players reaching Day 2: 16 to" in text
    accept(client, world.event)
    world.event.refresh_from_db()
    assert (world.event.gate_points, world.event.gate_top) == (9, 16)
    assert world.event.swiss_rounds == 5


def test_a_field_past_the_pages_limit_is_not_simulated_and_it_says_so(login, world, monkeypatch):
    monkeypatch.setattr(field_plan, "SIMULATED_UP_TO", 39)
    text = words(login(world.organiser).get(path(world.event)))
    assert "Fields over 39 players are not simulated on this page" in text
    assert "python -m pairing.plan --simulate" in text
    assert "Estimated end" not in text
