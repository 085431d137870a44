"""Issue 30, point 3: a late Game Loss on a result already in. Games are kept in the order
played where a player reported them game by game; from a score alone the order is unknown
and never assumed. The judge says whether the players' result already includes the Game
Loss and, where the result cannot tell, who won that game; both players are told."""

import re

import pytest

from judging.models import Penalty
from judging.penalties import issue_penalty, preview_penalty
from tests.conftest import database_rows, refused
from tournaments.models import Match, Registration, ResultChange
from tournaments.record.match_games import GameWinner, Score
from tournaments.results import services as results
from tournaments.results.penalties import JudgeSays

pytestmark = pytest.mark.django_db

ADA = "Ada Lovelace"


@pytest.fixture
def table(make_world):
    """Table 1 of round 1 of a best-of-three event; its first player is Ada Lovelace."""
    world = make_world(4)
    match = world.table(1)
    Registration.objects.filter(pk=match.player_a_id).update(name=ADA)
    return world.table(1)


def confirm(table, score="2-1"):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score.parse(score), a.user)
    results.confirm_result(table, b, b.user)
    table.refresh_from_db()


def slow_play(table, judge, times, game=3, says=None):
    a = table.player_a
    kwargs = {"says": says} if says is not None else {}
    return [
        issue_penalty(a, "slow_play", judge, game=game, match=table, **kwargs) for _ in range(times)
    ]


def form(table, game=3, **answers):
    return {
        "match": table.pk,
        "player": table.player_a_id,
        "infraction": "slow_play",
        "game": game,
        **answers,
    }


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --- the service -------------------------------------------------------------------------


def test_a_game_loss_in_game_3_against_the_winner_of_a_2_1_makes_it_1_2(table, judge):
    """The winner of a 2-1 in a best of three won game 3: a Game Loss there, not yet in the
    players' result, turns it into 1-2 (905.1), one ResultChange naming the penalty."""
    confirm(table)
    slow_play(table, judge, 2)
    (third,) = slow_play(table, judge, 1, says=JudgeSays(in_result=False))
    (change,) = ResultChange.objects.filter(source=f"penalty:{third.pk}")
    assert (change.action, change.rule, change.changed_by) == ("game_loss", "905.1", judge)
    assert (change.before["score"], change.after["score"]) == ("2-1", "1-2")
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED
    assert results.games_of(table).winner == table.player_b_id


def test_a_game_loss_the_players_result_already_includes_changes_no_result(table, judge):
    confirm(table, "1-2")  # Bea won 2-1: game 3 was hers, Ada's Game Loss
    (third,) = slow_play(table, judge, 3, says=JudgeSays(in_result=True))[-1:]
    assert not ResultChange.objects.filter(source=f"penalty:{third.pk}").exists()
    table.refresh_from_db()
    assert results.games_of(table).score == Score(1, 2)
    assert third.consequences[0]["in_result"] is True


def test_the_service_asks_whether_the_result_already_includes_it(table, judge):
    confirm(table)
    slow_play(table, judge, 2)
    before = database_rows()
    with refused("already includes this Game Loss") as caught:
        slow_play(table, judge, 1)
    assert caught.value.fields == ["in_result"]
    assert database_rows() == before


def test_a_game_the_score_cannot_tell_asks_the_judge_who_won_it(table, judge):
    """Game 1 of a 2-1 known only as a score: nobody knows who won it; the judge says."""
    confirm(table)
    slow_play(table, judge, 2, game=1)
    preview = preview_penalty(table.player_a, "slow_play", 1, table, JudgeSays(in_result=False))
    assert preview.asks_game_winner == 1
    assert "cannot tell who won game 1: say below who won it" in preview.change
    assert "becomes" not in preview.change
    with refused("cannot tell who won game 1") as caught:
        slow_play(table, judge, 1, game=1, says=JudgeSays(in_result=False))
    assert caught.value.fields == ["game_winner"]
    said = JudgeSays(in_result=False, winner=GameWinner(True, table.player_a_id))
    (third,) = slow_play(table, judge, 1, game=1, says=said)
    (change,) = ResultChange.objects.filter(source=f"penalty:{third.pk}")
    assert (change.before["score"], change.after["score"]) == ("2-1", "1-2")


def test_in_play_order_every_game_is_known(table, judge, client):
    """A game-by-game report: Ada lost game 1, won games 2 and 3. A Game Loss in game 1 is
    the game Bea won: the result stays, and the judge is not asked who won it."""
    a, b = table.player_a, table.player_b
    client.force_login(a.user)
    url = f"/events/{table.round.event_id}/my-match/"
    client.post(
        url, {"action": "report_games", "game_1": "opponent", "game_2": "me", "game_3": "me"}
    )
    results.confirm_result(table, b, b.user)
    slow_play(table, judge, 2, game=1)
    preview = preview_penalty(a, "slow_play", 1, table, JudgeSays(in_result=False))
    assert preview.asks_game_winner is None
    assert preview.change.endswith(
        "the confirmed result 2-1 stays as it is: game 1 already went to the opponent."
    )


# --- the judge's page and the players' ---------------------------------------------------


def test_the_penalty_form_asks_then_applies_the_game_loss_and_both_players_are_told(
    client, table, judge
):
    """Issue 30: the preview said "Ada already lost that game, so the confirmed result 2-1
    stays", and neither player was told of the penalty."""
    event_id = table.round.event_id
    confirm(table)
    slow_play(table, judge, 2)
    client.force_login(judge)
    preview = client.post(f"/events/{event_id}/penalties/preview/", form(table)).content.decode()
    assert "already lost" not in preview
    assert "Does the players' result already include this Game Loss?" in preview
    assert 'name="in_result" value="no"' in preview
    assert 'name="game_winner"' not in preview  # game 3 of a 2-1: the winner's, known

    new = f"/events/{event_id}/penalties/new/"
    before = database_rows()
    asked = client.post(new, {**form(table), "confirm_change": ""})
    assert asked.status_code == 400
    assert database_rows() == before
    assert "Say whether the players&#x27; result already includes this Game Loss." in (
        asked.content.decode()
    )

    applied = client.post(f"/events/{event_id}/penalties/preview/", form(table, in_result="no"))
    text = applied.content.decode()
    assert f"makes game 3 a Game Loss for {ADA} (905.1): the confirmed result 2-1 becomes 1-2." in (
        text
    )
    token = re.search(r'name="confirm_change" value="([^"]*)"', text).group(1)
    assert token == "game_loss:3:confirmed:2-1:1-2"
    done = client.post(new, {**form(table, in_result="no"), "confirm_change": token}, follow=True)
    assert "Result changed: 2-1 became 1-2" in done.content.decode()
    third = Penalty.objects.filter(match=table).latest("pk")
    assert ResultChange.objects.get(source=f"penalty:{third.pk}").after["score"] == "1-2"

    notice = (
        "A judge changed your result: round 1, table 1, 2-1 became 1-2 "
        f"(Game Loss in game 3 for {ADA}: Slow Play Warning), rule 905.1."
    )
    client.force_login(table.player_a.user)
    assert notice in page(client, f"/events/{event_id}/my-match/")
    client.force_login(table.player_b.user)
    theirs = notice.replace("2-1 became 1-2", "1-2 became 2-1")
    assert theirs in page(client, f"/events/{event_id}/my-match/")


def test_the_penalty_form_asks_who_won_a_game_the_result_cannot_tell(client, table, judge):
    event_id = table.round.event_id
    confirm(table)
    slow_play(table, judge, 2, game=1)
    client.force_login(judge)
    preview = client.post(
        f"/events/{event_id}/penalties/preview/", form(table, game=1, in_result="no")
    ).content.decode()
    assert "Who won game 1? (the result cannot tell)" in preview
    assert f'<option value="{table.player_a_id}">{ADA}</option>' in preview
    refused_page = client.post(
        f"/events/{event_id}/penalties/new/",
        {**form(table, game=1, in_result="no"), "confirm_change": ""},
    )
    assert refused_page.status_code == 400
    assert "The result cannot tell who won game 1: say who won it." in (
        refused_page.content.decode()
    )
    answered = form(table, game=1, in_result="no", game_winner=table.player_a_id)
    done = client.post(
        f"/events/{event_id}/penalties/new/",
        {**answered, "confirm_change": "game_loss:1:confirmed:2-1:1-2"},
    )
    assert done.status_code == 302
    table.refresh_from_db()
    assert results.games_of(table).score == Score(1, 2)


# --- the penalty form's players ----------------------------------------------------------


def test_with_a_table_chosen_the_form_offers_and_accepts_only_its_two_players(client, table, judge):
    event_id = table.round.event_id
    client.force_login(judge)
    text = page(client, f"/events/{event_id}/penalties/new/?match={table.pk}")
    select = re.search(r'<select name="player".*?</select>', text, re.S).group(0)
    offered = re.findall(r'<option value="(\d+)"', select)
    assert sorted(map(int, offered)) == sorted([table.player_a_id, table.player_b_id])
    other = Registration.objects.filter(event_id=event_id).exclude(
        pk__in=[table.player_a_id, table.player_b_id]
    )[0]
    before = database_rows()
    response = client.post(
        f"/events/{event_id}/penalties/new/",
        {"match": table.pk, "player": other.pk, "infraction": "slow_play", "game": 1},
    )
    assert response.status_code == 400
    assert f"{other.display_name} is not a player of table 1" in response.content.decode()
    assert database_rows() == before


def test_a_game_loss_already_in_the_result_is_still_told_to_both_players(client, table, judge):
    """No result changes, yet both players see the penalty on My match."""
    event_id = table.round.event_id
    confirm(table, "1-2")
    slow_play(table, judge, 3, says=JudgeSays(in_result=True))
    client.force_login(table.player_a.user)
    mine = page(client, f"/events/{event_id}/my-match/")
    assert (
        "A judge gave you a Slow Play Warning (904.4): round 1, table 1, game 3 "
        "(Game Loss in game 3 (905.1)); your result stays as it is."
    ) in mine
    client.force_login(table.player_b.user)
    assert (
        f"A judge gave {ADA} a Slow Play Warning (904.4): round 1, table 1, game 3 "
        "(Game Loss in game 3 (905.1)); your result stays as it is."
    ) in page(client, f"/events/{event_id}/my-match/")


def test_a_penalty_tells_both_players_pages_once_it_commits(table, judge, monkeypatch):
    from live import notify

    sent = []
    monkeypatch.setattr(notify, "deliver", lambda batch: sent.extend(batch))
    with __import__("django.test", fromlist=["TestCase"]).TestCase.captureOnCommitCallbacks(
        execute=True
    ):
        slow_play(table, judge, 1, game=1)
    groups = {group for group, body in sent if body.get("type") == "my_match"}
    assert groups == {
        notify.player_group(table.round.event_id, table.player_a_id),
        notify.player_group(table.round.event_id, table.player_b_id),
    }


def test_the_api_takes_the_judges_answers(client, table, judge):
    event_id = table.round.event_id
    confirm(table)
    slow_play(table, judge, 2)
    client.force_login(judge)
    url = f"/api/v1/events/{event_id}/penalties/"
    body = {"match": table.pk, "player": table.player_a_id, "infraction": "slow_play", "game": 3}
    asked = client.post(url, body, content_type="application/json")
    assert asked.status_code == 400 and "in_result" in asked.content.decode()
    done = client.post(url, {**body, "in_result": False}, content_type="application/json")
    assert done.status_code == 201
    table.refresh_from_db()
    assert results.games_of(table).score == Score(1, 2)


def test_a_game_loss_moving_to_a_later_warning_keeps_the_judges_answers(table, judge):
    """Four warnings in game 3; the third (the Game Loss, applied to the result) is voided:
    the fourth is now the third, and the result it changed stays changed."""
    from judging.penalties import void_penalty

    confirm(table)
    slow_play(table, judge, 2)
    (third,) = slow_play(table, judge, 1, says=JudgeSays(in_result=False))
    (fourth,) = slow_play(table, judge, 1, says=JudgeSays(in_result=False))
    table.refresh_from_db()
    assert results.games_of(table).score == Score(1, 2)
    void_penalty(third, judge, "logged at the wrong table")
    table.refresh_from_db()
    fourth.refresh_from_db()
    assert [c["result"] for c in fourth.consequences] == ["game_loss"]
    assert results.games_of(table).score == Score(1, 2)


def test_a_result_the_game_loss_cannot_be_in_is_refused_naming_the_field(table, judge):
    """Ada won 2-1, so she won game 3: her result cannot already include her Game Loss there."""
    confirm(table)
    slow_play(table, judge, 2)
    before = database_rows()
    with refused("says the penalised player won game 3") as caught:
        slow_play(table, judge, 1, says=JudgeSays(in_result=True))
    assert caught.value.fields == ["in_result"]
    assert database_rows() == before


def test_an_answer_the_result_contradicts_is_said_and_asked_again(client, table, judge):
    event_id = table.round.event_id
    confirm(table)
    slow_play(table, judge, 2)
    client.force_login(judge)
    text = client.post(
        f"/events/{event_id}/penalties/preview/", form(table, in_result="yes")
    ).content.decode()
    assert "says the penalised player won game 3" in text
    assert 'name="in_result" value="no"' in text  # asked again, nothing chosen
