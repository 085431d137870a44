"""Result forms are answered once, and a staff form never overwrites a change it did not show.

Each form that writes a result carries a one-time token: sent twice (a double tap, a
browser's retry after a worker died), the second gets the first's answer, the same
redirect and message, and writes nothing. Staff forms carry the version of the result
they were drawn with.
"""

import html
import re

import pytest

from tests.conftest import database_rows
from tournaments import once
from tournaments.models import Match, ResultChange
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_world):
    return make_world(4)


@pytest.fixture
def table(world) -> Match:
    return world.table(1)


def hidden(page, name: str, index: int = 0) -> str:
    """The value of the ``index``-th hidden ``name`` field the page drew."""
    values = re.findall(rf'name="{name}" value="([^"]*)"', page.content.decode())
    return values[index]


def words(response) -> str:
    text = html.unescape(response.content.decode())
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


def test_a_report_form_sent_twice_reports_once_and_says_the_same(client, world, table):
    client.force_login(table.player_a.user)
    url = f"/events/{world.event.pk}/my-match/"
    page = client.get(url)
    form = {"action": "report", "score": "2-1", once.FORM_FIELD: hidden(page, once.FORM_FIELD)}
    first = client.post(url, form)
    again = client.post(url, form)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert ResultChange.objects.filter(match=table).count() == 1
    assert table.claims.count() == 1
    shown = words(client.get(url))
    assert shown.count("Result reported: your opponent confirms it on their page.") == 2


def test_every_result_form_of_the_players_carries_a_fresh_token(client, world, table):
    client.force_login(table.player_a.user)
    results.report_result(table, table.player_a, Score(2, 1), table.player_a.user)
    client.force_login(table.player_b.user)
    page = client.get(f"/events/{world.event.pk}/matches/{table.pk}/")
    tokens = re.findall(rf'name="{once.FORM_FIELD}" value="([^"]+)"', page.content.decode())
    assert len(tokens) == 2  # confirm and dispute
    assert len(set(tokens)) == len(tokens)


def test_a_confirmation_sent_twice_from_the_match_page_confirms_once(client, world, table):
    results.report_result(table, table.player_a, Score(2, 1), table.player_a.user)
    client.force_login(table.player_b.user)
    url = f"/events/{world.event.pk}/matches/{table.pk}/"
    form = {"action": "confirm", once.FORM_FIELD: hidden(client.get(url), once.FORM_FIELD)}
    client.post(url, form)
    again = client.post(url, form, follow=True)
    assert "Result confirmed. Thank you!" in words(again)
    assert "There is no reported result to confirm" not in words(again)
    assert ResultChange.objects.filter(match=table, action="confirm").count() == 1


def test_a_refused_form_is_not_remembered(client, world, table):
    client.force_login(table.player_a.user)
    url = f"/events/{world.event.pk}/my-match/"
    token = hidden(client.get(url), once.FORM_FIELD)
    refused = client.post(url, {"action": "report", "score": "9-9", once.FORM_FIELD: token})
    assert refused.status_code == 302
    assert not ResultChange.objects.exists()
    client.post(url, {"action": "report", "score": "2-0", once.FORM_FIELD: token})
    assert ResultChange.objects.filter(match=table).count() == 1


def test_a_token_sent_again_with_other_values_is_refused_and_writes_nothing(client, world, table):
    client.force_login(table.player_a.user)
    url = f"/events/{world.event.pk}/my-match/"
    token = hidden(client.get(url), once.FORM_FIELD)
    client.post(url, {"action": "report", "score": "2-1", once.FORM_FIELD: token})
    before = database_rows()
    other = client.post(
        url, {"action": "report", "score": "2-0", once.FORM_FIELD: token}, follow=True
    )
    assert "This form was already sent with other values" in words(other)
    assert database_rows() == before


def dashboard_form(client, world, table) -> dict:
    page = client.get(f"/events/{world.event.pk}/manage/")
    body = page.content.decode()
    row = body[body.index(f'id="match-{table.pk}"') :]
    return {
        once.FORM_FIELD: re.search(rf'name="{once.FORM_FIELD}" value="([^"]+)"', row)[1],
        "version": re.search(r'name="version" value="(\d+)"', row)[1],
    }


def test_a_dashboard_entry_over_a_change_it_did_not_show_is_refused(client, world, table):
    client.force_login(world.organiser)
    form = dashboard_form(client, world, table)
    assert form["version"] == "0"
    results.report_result(table, table.player_a, Score(2, 0), table.player_a.user)
    before = database_rows()
    url = f"/events/{world.event.pk}/matches/{table.pk}/result/"
    row = client.post(url, {**form, "score": "0-2", "reason": "typo"}, HTTP_HX_REQUEST="true")
    assert "The result changed since you saw it: reported by p01" in words(row)
    assert database_rows() == before
    current = results.result_version(Match.objects.get(pk=table.pk))
    assert f'name="version" value="{current}"' in row.content.decode()


def test_a_dashboard_row_sent_twice_enters_once(client, world, table):
    client.force_login(world.organiser)
    form = {**dashboard_form(client, world, table), "score": "2-1"}
    url = f"/events/{world.event.pk}/matches/{table.pk}/result/"
    first = client.post(url, form, HTTP_HX_REQUEST="true")
    again = client.post(url, form, HTTP_HX_REQUEST="true")
    assert first.status_code == again.status_code == 200
    assert "field-error" not in again.content.decode()
    assert ResultChange.objects.filter(match=table).count() == 1


def test_a_token_kept_on_a_page_from_an_earlier_round_does_not_replay_it(client, world, table):
    """My match posts to one address whatever the round: the token is bound to the match."""
    from tests.conftest import play_out
    from tournaments.rounds import services as rounds

    client.force_login(table.player_a.user)
    url = f"/events/{world.event.pk}/my-match/"
    token = hidden(client.get(url), once.FORM_FIELD)
    client.post(url, {"action": "report", "score": "2-0", once.FORM_FIELD: token})
    play_out(world.round, world.organiser)
    rounds.close_round(world.round, world.organiser)
    next_round = rounds.pair_next_round(world.event, world.organiser)
    mine = next_round.matches.get(player_a=table.player_a)
    before = database_rows()
    stale = client.post(
        url, {"action": "report", "score": "2-0", once.FORM_FIELD: token}, follow=True
    )
    assert "This form was already sent with other values" in words(stale)
    assert database_rows() == before
    assert Match.objects.get(pk=mine.pk).status == Match.Status.PENDING
