"""Time extensions on the judge's pages and in the API: granted from the table page or
the console's form, removed with a reason, refused with the field named and nothing
written, and shown on every page that has the table's clock (903.1b)."""

import html
import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from tests.conftest import database_rows, play_out
from tournaments.clock import extensions as clock
from tournaments.models import EventLog, TimeExtension
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(make_world):
    """Round 1 of a 4-player event (50-minute rounds), started; its first table."""
    world = make_world(4, started=True)
    return world.event, world.table(1)


def text(response) -> str:
    return html.unescape(response.content.decode())


def grant_url(event) -> str:
    return f"/events/{event.pk}/judge/extensions/"


def table_url(event, match) -> str:
    return f"/events/{event.pk}/judge/tables/{match.pk}/"


def confirm(table):
    results.report_result(table, table.player_a, Score(2, 1), table.player_a.user)
    results.confirm_result(table, table.player_b, table.player_b.user)


# --- the table page -----------------------------------------------------------------------


def test_granted_from_the_table_page_it_is_listed_there(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    response = client.post(
        grant_url(event), {"match": table.pk, "minutes": "5", "reason": "Deck check"}
    )
    assert response.status_code == 302 and response["Location"] == table_url(event, table)
    page = text(client.get(response["Location"]))
    assert "Table 1: +5 min granted" in page
    section = page[page.index('id="extensions"') :]
    assert "+5 min" in section and "by jude" in section and "Deck check" in section
    assert 'data-extra="5"' in section  # the table's own clock
    table.refresh_from_db()
    assert table.extension_minutes == 5


def test_the_table_page_warns_before_granting_time_to_a_table_with_a_result(client, hall, judge):
    event, table = hall
    confirm(table)
    client.force_login(judge)
    warning = (
        "Table 1 already has a result (2-1, confirmed): the extra time changes nothing "
        "unless the result is corrected."
    )
    before = text(client.get(table_url(event, table)))
    assert warning in before  # up front, by the form
    after = client.post(
        grant_url(event), {"match": table.pk, "minutes": "3", "reason": "Late ruling"}, follow=True
    )
    messages = [str(m) for m in after.context["messages"]]
    assert warning in messages and "Table 1: +3 min granted" in messages[0]
    assert TimeExtension.objects.get().minutes == 3


def test_no_warning_for_a_table_still_playing(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    assert "already has a result" not in text(client.get(table_url(event, table)))


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"minutes": "0", "reason": "R"}, "minutes", "at least one minute"),
        ({"minutes": "51", "reason": "R"}, "minutes", "at most the round's length, 50 minutes"),
        ({"minutes": "five", "reason": "R"}, "minutes", "whole number"),
        ({"minutes": "", "reason": "R"}, "minutes", "Give the minutes"),
        ({"minutes": "5", "reason": "  "}, "reason", "Give the reason"),
        ({"minutes": "5", "reason": "x" * 2001}, "reason", "keep it to 2,000"),
    ],
)
def test_a_refused_grant_shows_the_table_page_again_naming_the_field(
    client, hall, judge, form, field, message
):
    event, table = hall
    client.force_login(judge)
    before = database_rows()
    response = client.post(grant_url(event), {"match": table.pk, **form})
    assert response.status_code == 400
    page = text(response)
    assert message in page
    assert re.search(rf'name="{field}"[^>]*aria-invalid="true"', page), field
    assert message in response.context["extension_errors"][field]
    assert database_rows() == before


def test_the_console_form_names_the_table_by_number(client, hall, judge):
    event, _ = hall
    client.force_login(judge)
    response = client.post(grant_url(event), {"table": "2", "minutes": "4", "reason": "Judge"})
    table_two = event.rounds.get().matches.get(table=2)
    assert response["Location"] == table_url(event, table_two)
    assert table_two.extensions.get().minutes == 4


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"table": "", "minutes": "4", "reason": "R"}, "table", "Give the table number"),
        ({"table": "two", "minutes": "4", "reason": "R"}, "table", "The table is a number"),
        ({"table": "9", "minutes": "4", "reason": "R"}, "table", "Round 1 has no table 9"),
        ({"match": "999999", "minutes": "4", "reason": "R"}, "match", "Choose a table"),
        ({"match": "x", "minutes": "4", "reason": "R"}, "match", "Choose a table"),
    ],
)
def test_an_unknown_table_shows_the_form_again_naming_it(client, hall, judge, form, field, message):
    event, _ = hall
    client.force_login(judge)
    before = database_rows()
    response = client.post(grant_url(event), form)
    assert response.status_code == 400
    assert message in text(response)
    assert field in response.context["extension_errors"]
    assert database_rows() == before


def test_another_events_match_is_not_found_here(client, hall, judge, make_world):
    event, _ = hall
    elsewhere = make_world(2, name="Elsewhere", started=True).table(1)
    client.force_login(judge)
    response = client.post(grant_url(event), {"match": elsewhere.pk, "minutes": "4", "reason": "R"})
    assert response.status_code == 400 and not TimeExtension.objects.exists()


def test_removed_from_the_table_page_with_a_reason(client, hall, judge, organiser):
    event, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    client.force_login(organiser)
    url = f"/events/{event.pk}/judge/extensions/{granted.pk}/remove/"
    response = client.post(url, {"reason": "Wrong table"}, follow=True)
    page = text(response)
    assert "the +5 min extension was removed (no extension left" in page
    section = page[page.index('id="extensions"') :]
    assert 'class="void"' in section and "Removed" in section and "by olive: Wrong table" in section
    table.refresh_from_db()
    assert table.extension_minutes == 0


def test_a_removal_without_a_reason_is_refused_on_the_table_page(client, hall, judge):
    event, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    client.force_login(judge)
    before = database_rows()
    response = client.post(f"/events/{event.pk}/judge/extensions/{granted.pk}/remove/", {})
    assert response.status_code == 400
    assert "Give the reason for removing the extension" in text(response)
    assert response.context["removing"] == granted.pk
    assert "reason" not in (response.context.get("extension_errors") or {})
    assert database_rows() == before


def test_a_closed_round_offers_no_form_and_refuses_a_grant(client, hall, judge, organiser):
    event, table = hall
    clock.grant_extension(table, 5, "Deck check", judge)
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    client.force_login(judge)
    page = text(client.get(table_url(event, table)))
    assert "Grant extension" not in page and "Round 1 is closed: no more time" in page
    assert "Why remove it" not in page
    before = database_rows()
    response = client.post(grant_url(event), {"match": table.pk, "minutes": "5", "reason": "R"})
    assert response.status_code == 400 and "Round 1 is closed" in text(response)
    assert database_rows() == before


def test_players_may_not_grant_time(client, hall):
    event, table = hall
    client.force_login(table.player_a.user)
    response = client.post(grant_url(event), {"match": table.pk, "minutes": "5", "reason": "R"})
    assert response.status_code == 403 and not TimeExtension.objects.exists()


# --- the include the console uses ---------------------------------------------------------


def test_the_extension_form_stands_alone_with_only_the_event(hall, judge):
    event, table = hall
    request = RequestFactory().get("/")
    request.user = judge
    alone = render_to_string("judging/_extension_form.html", {"event": event}, request)
    assert 'name="table"' in alone and 'name="match"' not in alone
    assert f'action="{grant_url(event)}"' in alone and 'max="50"' in alone
    fixed = render_to_string("judging/_extension_form.html", {"event": event, "m": table}, request)
    assert f'name="match" value="{table.pk}"' in fixed and 'name="table"' not in fixed


# --- shown everywhere ---------------------------------------------------------------------


def test_the_players_page_shows_their_tables_clock_with_the_extension(client, hall, judge):
    event, table = hall
    clock.grant_extension(table, 5, "Deck check", judge)
    client.force_login(table.player_b.user)
    page = text(client.get(f"/events/{event.pk}/my-match/"))
    assert "Time extension: +5 minutes" in page
    ends = table.round.ends_at.isoformat()
    assert re.search(rf'class="clock" data-ends="{re.escape(ends)}" data-extra="5"', page)
    assert "round-clock.js" in page


def test_the_match_page_shows_the_extension_and_the_tables_clock(client, hall, judge):
    event, table = hall
    clock.grant_extension(table, 7, "Ruling", judge)
    client.force_login(judge)
    page = text(client.get(f"/events/{event.pk}/matches/{table.pk}/"))
    assert "Time extension: +7 minutes" in page and 'data-extra="7"' in page


def test_the_projector_lists_extended_tables_with_their_own_clock(client, hall, judge):
    event, table = hall
    clock.grant_extension(table, 5, "Deck check", judge)
    page = text(client.get(f"/events/{event.pk}/projector/"))
    shown = r'<li>Table 1: <strong>\+5 min</strong> <span class="clock"[^>]*data-extra="5"'
    assert re.search(shown, page)


def test_the_projector_drops_a_removed_extension(client, hall, judge):
    event, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    clock.remove_extension(granted, judge, "Mistake")
    assert "Time extensions" not in text(client.get(f"/events/{event.pk}/projector/"))


# --- the API ------------------------------------------------------------------------------


def post(client, url, body):
    return client.post(url, body, content_type="application/json")


def errors(response) -> dict:
    found: dict = {}
    for error in response.json()["errors"]:
        found.setdefault(error["field"], []).append(error["message"])
    return found


def test_api_grant_list_and_remove(client, hall, judge):
    _, table = hall
    client.force_login(judge)
    granted = post(
        client, f"/api/v1/matches/{table.pk}/extensions/", {"minutes": 6, "reason": "Deck check"}
    )
    assert granted.status_code == 201, granted.content
    body = granted.json()
    assert body["minutes"] == 6 and body["table"] == 1 and body["granted_by"] == "jude"
    assert body["standing"] is True and body["match_extension_minutes"] == 6
    assert body["warning"] is None
    listed = client.get(f"/api/v1/matches/{table.pk}/extensions/").json()
    assert [x["id"] for x in listed] == [body["id"]]
    removed = post(client, f"/api/v1/extensions/{body['id']}/remove/", {"reason": "Mistake"})
    assert removed.status_code == 200, removed.content
    assert removed.json()["standing"] is False and removed.json()["removal_reason"] == "Mistake"
    assert removed.json()["match_extension_minutes"] == 0
    again = post(client, f"/api/v1/extensions/{body['id']}/remove/", {"reason": "Again"})
    assert again.status_code == 400 and "already removed" in again.json()["errors"][0]["message"]


def test_api_grant_to_a_table_with_a_result_carries_the_warning(client, hall, judge):
    _, table = hall
    confirm(table)
    client.force_login(judge)
    body = post(
        client, f"/api/v1/matches/{table.pk}/extensions/", {"minutes": 2, "reason": "R"}
    ).json()
    assert body["warning"].startswith("Table 1 already has a result (2-1, confirmed)")


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"reason": "R"}, "minutes", "minutes is required"),
        ({"minutes": 0, "reason": "R"}, "minutes", "at least one minute"),
        ({"minutes": 51, "reason": "R"}, "minutes", "at most the round's length"),
        ({"minutes": "ten", "reason": "R"}, "minutes", "whole number"),
        ({"minutes": True, "reason": "R"}, "minutes", "whole number"),
        ({"minutes": 5}, "reason", "reason is required"),
        ({"minutes": 5, "reason": "  "}, "reason", "reason is required"),
        ({"minutes": 5, "reason": ["R"]}, "reason", "must be text"),
    ],
)
def test_api_grant_refusals_name_the_field(client, hall, judge, body, field, message):
    _, table = hall
    client.force_login(judge)
    before = database_rows()
    response = post(client, f"/api/v1/matches/{table.pk}/extensions/", body)
    assert response.status_code == 400
    assert any(message in m for m in errors(response)[field]), errors(response)
    assert database_rows() == before


def test_api_remove_needs_a_reason(client, hall, judge):
    _, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    client.force_login(judge)
    response = post(client, f"/api/v1/extensions/{granted.pk}/remove/", {})
    assert response.status_code == 400 and "reason" in errors(response)
    table.refresh_from_db()
    assert table.extension_minutes == 5


def test_api_refuses_a_closed_round(client, hall, judge, organiser):
    _, table = hall
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    client.force_login(judge)
    body = {"minutes": 5, "reason": "R"}
    response = post(client, f"/api/v1/matches/{table.pk}/extensions/", body)
    assert response.status_code == 400 and "is closed" in response.json()["errors"][0]["message"]
    assert not EventLog.objects.filter(action="time_extension").exists()


def test_api_is_for_the_events_staff(client, hall, judge):
    _, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    client.force_login(table.player_a.user)
    refused = post(client, f"/api/v1/matches/{table.pk}/extensions/", {"minutes": 5, "reason": "R"})
    assert refused.status_code == 403
    assert client.get(f"/api/v1/matches/{table.pk}/extensions/").status_code == 403
    removal = post(client, f"/api/v1/extensions/{granted.pk}/remove/", {"reason": "R"})
    assert removal.status_code == 403
    assert post(client, "/api/v1/extensions/999999/remove/", {"reason": "R"}).status_code == 404
    assert TimeExtension.objects.get().is_standing
