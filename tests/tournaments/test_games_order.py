"""Issue 30: games are kept in the order played where a player reported them game by game;
a score alone keeps them with the order unknown. Point 9: who entered a result is said
from their role, one notice box, and the result history names players as the claims do."""

import re

import pytest

from tests.conftest import database_rows
from tournaments.models import Match, Registration
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_world):
    return make_world(4)


def my_match(world):
    return f"/events/{world.event.pk}/my-match/"


def test_a_typed_score_keeps_the_order_unknown(client, world):
    table = world.table(1)
    a, b = table.player_a, table.player_b
    client.force_login(a.user)
    assert client.post(my_match(world), {"action": "report", "score": "2-1"}).status_code == 302
    client.force_login(b.user)
    assert client.post(my_match(world), {"action": "confirm"}).status_code == 302
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED
    assert table.games_in_order is False
    assert sorted(table.games) == sorted([a.pk, a.pk, b.pk])


def test_a_game_by_game_report_keeps_the_order_played(client, world):
    table = world.table(1)
    a, b = table.player_a, table.player_b
    client.force_login(b.user)  # the second player, from their own side
    text = client.get(my_match(world)).content.decode()
    assert "Report the result: who won each game?" in text
    assert "<legend>Game 1</legend>" in text and 'name="game_1" value="opponent"' in text
    picks = {"action": "report_games", "game_1": "me", "game_2": "opponent", "game_3": "me"}
    picks["game_4"] = "me"  # after the decider: not a game of the match
    response = client.post(my_match(world), picks, follow=True)
    assert "Result reported" in response.content.decode()
    table.refresh_from_db()
    assert table.status == Match.Status.REPORTED
    assert table.games == [b.pk, a.pk, b.pk] and table.games_in_order is True
    client.force_login(a.user)
    client.post(my_match(world), {"action": "report", "score": "1-2"})  # the same, typed
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED
    assert table.games == [b.pk, a.pk, b.pk] and table.games_in_order is True


def test_a_game_by_game_report_names_the_field_when_a_game_is_missing(client, world):
    table = world.table(1)
    client.force_login(table.player_a.user)
    before = database_rows()
    response = client.post(my_match(world), {"action": "report_games", "game_2": "me"}, follow=True)
    assert "Say who won game 1." in response.content.decode()
    assert database_rows() == before


# --- point 9 -----------------------------------------------------------------------------


def test_a_result_the_organiser_typed_says_the_organiser_and_a_judges_says_a_judge(
    client, world, organiser, judge
):
    first, second = world.table(1), world.table(2)
    results.enter_result(first, Score(2, 0), organiser)
    results.enter_result(second, Score(2, 0), judge)
    client.force_login(first.player_a.user)
    text = client.get(my_match(world)).content.decode()
    assert "The organiser entered your result: round 1, table 1, 2-0." in text
    assert "A judge entered" not in text
    client.force_login(second.player_a.user)
    assert "A judge entered your result: round 1, table 2, 2-0." in (
        client.get(my_match(world)).content.decode()
    )


def test_five_staff_entries_show_one_notice_box_the_latest(client, world, organiser):
    table = world.table(1)
    for score in ("2-0", "2-1", "1-2", "0-2", "2-0"):
        results.enter_result(table, Score.parse(score), organiser, "recount")
    client.force_login(table.player_a.user)
    text = client.get(my_match(world)).content.decode()
    assert len(re.findall(r'class="[^"]*result-notice"', text)) == 1
    assert "0-2 became 2-0 (recount)" in text


def test_the_result_history_names_players_as_the_claims_do(client, world, judge):
    table = world.table(1)
    a, b = table.player_a, table.player_b
    Registration.objects.filter(pk=a.pk).update(name="Ada Lovelace")
    Registration.objects.filter(pk=b.pk).update(name="Bea Brown")
    a.refresh_from_db()
    results.report_result(table, a, Score(2, 1), a.user)
    client.force_login(judge)
    text = client.get(f"/events/{world.event.pk}/judge/tables/{table.pk}/").content.decode()
    history = text[text.index('id="history"') :]
    assert "reported by Ada Lovelace" in history
    assert f"by {a.user.username}" not in history
