"""A penalty's effect on a result: read in words before confirming, confirmed on the page
form, written as a ResultChange naming the penalty and its rule, and told to both players;
voiding shows and records the reverse."""

import pytest

from judging.models import Penalty
from judging.penalties import issue_penalty, preview_penalty, void_penalty
from tests.conftest import database_rows, refused
from tournaments.models import Match, Registration, ResultChange
from tournaments.record.match_games import GameWinner, Score
from tournaments.results import services as results
from tournaments.results.penalties import JudgeSays
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

ADA = "Ada Lovelace"
CONFIRMED_CHANGE = (
    f"This penalty makes game 2 a Game Loss for {ADA} (905.1): "
    "the confirmed result 2-1 becomes 1-2."
)
NOTICE = (
    "A judge changed your result: round 1, table 1, 2-1 became 1-2 "
    f"(Game Loss in game 2 for {ADA}: Slow Play Warning), rule 905.1."
)


@pytest.fixture
def hall(make_world):
    """Round 1 of a 4-player best-of-three event; table 1's first player is Ada Lovelace."""
    world = make_world(4)
    table = world.table(1)
    Registration.objects.filter(pk=table.player_a_id).update(name=ADA)
    return world.event, world.table(1)


def confirm(table, score="2-1"):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score.parse(score), a.user)
    results.confirm_result(table, b, b.user)
    table.refresh_from_db()


def form(table, game=2, infraction="slow_play", player=None):
    """The penalty form, with the judge's answers for a Game Loss on a result already in:
    not in the players' result yet, and the penalised player won that game (a score alone
    cannot tell who won game 2 of a 2-1)."""
    return {
        "match": table.pk,
        "player": player or table.player_a_id,
        "infraction": infraction,
        "game": game,
        "in_result": "no",
        "game_winner": player or table.player_a_id,
    }


def says(player_id):
    """Not in the players' result yet; ``player_id`` won that game."""
    return JudgeSays(in_result=False, winner=GameWinner(True, player_id))


def warn(table, judge, times, game=2, infraction="slow_play", player=None):
    player = player or table.player_a
    return [
        issue_penalty(player, infraction, judge, game=game, match=table, says=says(player.pk))
        for _ in range(times)
    ]


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --- the issue, as a judge and the players live it ---------------------------------------


def test_three_slow_play_warnings_in_a_confirmed_match_are_confirmed_recorded_and_told(
    client, hall, judge
):
    """Issue 15: the third Slow Play Warning in game 2 of a match confirmed 2-1 changed the
    result to 1-2 with no prompt, no notice and no rule in the log."""
    event, table = hall
    confirm(table)
    client.force_login(judge)
    new = f"/events/{event.pk}/penalties/new/"
    for _ in range(2):  # warnings change no result: no confirmation needed
        assert client.post(new, {**form(table), "confirm_change": ""}).status_code == 302

    before = database_rows()
    refused_page = client.post(new, form(table))  # the page form, without the confirmation
    assert refused_page.status_code == 400
    assert database_rows() == before
    text = refused_page.content.decode()
    assert "This penalty changes the result: read the change below and confirm it." in text
    assert CONFIRMED_CHANGE in text
    token = "game_loss:2:confirmed:2-1:1-2"
    assert f'name="confirm_change" value="{token}"' in text

    preview = client.post(f"/events/{event.pk}/penalties/preview/", form(table))
    assert CONFIRMED_CHANGE in preview.content.decode()
    assert f'value="{token}"' in preview.content.decode()

    done = client.post(new, {**form(table), "confirm_change": token}, follow=True)
    assert "Result changed: 2-1 became 1-2" in done.content.decode()
    third = Penalty.objects.filter(match=table).latest("pk")
    (change,) = ResultChange.objects.filter(source=f"penalty:{third.pk}")
    assert (change.action, change.rule, change.changed_by) == ("game_loss", "905.1", judge)
    assert change.reason == f"Game Loss in game 2 for {ADA}: Slow Play Warning"
    assert (change.before["score"], change.after["score"]) == ("2-1", "1-2")
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED

    client.force_login(table.player_a.user)
    assert NOTICE in page(client, f"/events/{event.pk}/my-match/")
    assert NOTICE in page(client, f"/events/{event.pk}/matches/{table.pk}/")
    client.force_login(table.player_b.user)  # their own side: their wins first
    theirs = NOTICE.replace("2-1 became 1-2", "1-2 became 2-1")
    assert theirs in page(client, f"/events/{event.pk}/my-match/")
    assert theirs in page(client, f"/events/{event.pk}/matches/{table.pk}/")


def test_a_stale_confirmation_is_refused_and_shows_the_change_as_it_now_is(
    client, hall, judge, organiser
):
    event, table = hall
    confirm(table)
    warn(table, judge, 2)
    results.enter_result(table, Score(2, 0), organiser, "recount")  # meanwhile
    client.force_login(judge)
    before = database_rows()
    response = client.post(
        f"/events/{event.pk}/penalties/new/",
        {**form(table), "confirm_change": "game_loss:2:confirmed:2-1:1-2"},
    )
    assert response.status_code == 400
    assert database_rows() == before
    text = response.content.decode()
    assert "The result changed since the preview" in text
    assert "the entered result 2-0 becomes 1-1." in text
    assert 'value="game_loss:2:final:2-0:1-1"' in text


def test_the_service_refuses_an_unconfirmed_change_and_names_the_field(hall, judge):
    _, table = hall
    confirm(table)
    warn(table, judge, 2)
    with refused("read the change below") as caught:
        issue_penalty(
            table.player_a,
            "slow_play",
            judge,
            game=2,
            match=table,
            confirmed="",
            says=says(table.player_a_id),
        )
    assert caught.value.fields == ["confirm_change"]


# --- the preview in words ----------------------------------------------------------------


def change_of(table, infraction="slow_play", game=2, player=None, answers=None):
    player = player or table.player_a
    answers = answers or says(player.pk)
    return preview_penalty(player, infraction, game, table, answers).change


def test_preview_before_any_result_says_the_report_must_count_the_game(hall, judge):
    _, table = hall
    warn(table, judge, 2)
    assert change_of(table) == (
        f"This penalty makes game 2 a Game Loss for {ADA} (905.1): "
        "the match has no result yet, so the result reported must count it."
    )
    assert preview_penalty(table.player_a, "slow_play", 2, table).confirmation == ""


def test_preview_of_game_3_of_a_2_1_asks_and_never_says_the_winner_lost_it(hall, judge):
    """Issue 30: the score's order (A, A, B) was read as play order: "Ada already lost that
    game, so the confirmed result 2-1 stays". The winner of a 2-1 won game 3."""
    _, table = hall
    confirm(table, "2-1")
    warn(table, judge, 2, game=3)
    preview = preview_penalty(table.player_a, "slow_play", 3, table)
    assert preview.change == (
        f"This penalty makes game 3 a Game Loss for {ADA} (905.1): say below whether the "
        "players' result (the confirmed result 2-1) already includes it."
    )
    assert "already lost" not in preview.change
    assert preview.asks_in_result and preview.asks_game_winner is None  # game 3 is known
    applied = preview_penalty(table.player_a, "slow_play", 3, table, JudgeSays(False))
    assert applied.change == (
        f"This penalty makes game 3 a Game Loss for {ADA} (905.1): "
        "the confirmed result 2-1 becomes 1-2."
    )
    assert applied.confirmation == "game_loss:3:confirmed:2-1:1-2"
    with refused("says the penalised player won game 3") as caught:  # Ada won game 3
        preview_penalty(table.player_a, "slow_play", 3, table, JudgeSays(True))
    assert caught.value.fields == ["in_result"]


def test_preview_of_a_match_loss(hall, judge):
    _, table = hall
    confirm(table)
    assert change_of(table, "unsporting_conduct_warning", game=1) == (
        f"This penalty makes the match a Match Loss for {ADA} (905.2): "
        "the confirmed result 2-1 becomes 0-2."
    )


def test_preview_of_a_reported_result_and_of_a_match_loss_without_result(hall, judge):
    _, table = hall
    assert change_of(table, "unsporting_conduct_warning", game=1) == (
        f"This penalty makes the match a Match Loss for {ADA} (905.2): "
        "the match has no result yet, so it is recorded as 0-2."
    )
    results.report_result(table, table.player_a, Score(2, 1), table.player_a.user)
    assert change_of(table, "illegal_deck", game=2) == (
        f"This penalty makes game 2 a Game Loss for {ADA} (203.1): "
        "the reported result 2-1 becomes 1-2."
    )


def test_preview_of_a_disqualification(hall, judge):
    _, table = hall
    assert change_of(table, "cheating", game=1) == (
        f"This penalty is a Disqualification for {ADA} (906.5): they are dropped from the "
        "event, and the match has no result yet, so it is recorded as 0-2."
    )
    confirm(table)
    preview = preview_penalty(table.player_a, "cheating", 1, table)
    assert preview.change == (
        f"This penalty is a Disqualification for {ADA} (906.5): they are dropped from the "
        "event, and the confirmed result 2-1 stays as it is."
    )
    assert preview.confirmation == ""


def test_preview_outside_a_match(hall, judge):
    _, table = hall
    ada = Registration.objects.get(pk=table.player_a_id)
    assert preview_penalty(ada, "illegal_deck", 1).change == (
        f"This penalty makes game 1 a Game Loss for {ADA} (203.1): "
        "it is outside a match, so no result changes."
    )
    assert preview_penalty(ada, "assault", 1).change == (
        f"This penalty is a Disqualification for {ADA} (906.4): they are dropped from the event."
    )
    assert preview_penalty(ada, "slow_play", 1).change == (
        "This penalty is a warning: no result changes."
    )


def test_preview_of_the_match_loss_that_a_result_already_is(hall, judge, organiser):
    _, table = hall
    results.enter_result(table, Score(0, 2), organiser)
    preview = preview_penalty(table.player_a, "unsporting_conduct_warning", 1, table)
    assert preview.change.endswith("the entered result 0-2 stays as it is.")
    assert preview.confirmation == ""


# --- the API: the sentence in the preview, the change in the answer ----------------------


def post(client, url, body):
    return client.post(url, body, content_type="application/json")


def test_api_preview_states_the_change_and_the_post_returns_it(client, hall, judge):
    event, table = hall
    confirm(table)
    warn(table, judge, 2)
    client.force_login(judge)
    base = f"/api/v1/events/{event.pk}/penalties/"
    preview = post(client, base + "preview/", form(table)).json()
    assert preview["change"] == CONFIRMED_CHANGE
    assert preview["result_change"] == {"status": "confirmed", "before": "2-1", "after": "1-2"}
    assert preview["confirm_change"] == "game_loss:2:confirmed:2-1:1-2"

    stale = post(client, base, {**form(table), "confirm_change": "game_loss:2:confirmed:2-0:1-1"})
    assert stale.status_code == 400
    assert stale.json()["errors"][0]["field"] == "confirm_change"
    assert Penalty.objects.filter(match=table).count() == 2

    issued = post(client, base, form(table))  # without confirm_change: as before
    assert issued.status_code == 201
    (change,) = issued.json()["result_changes"]
    assert change["before"] == "2-1" and change["after"] == "1-2"
    assert change["rule"] == "905.1" and change["action"] == "game_loss"
    assert change["reason"] == f"Game Loss in game 2 for {ADA}: Slow Play Warning"


# --- notices -----------------------------------------------------------------------------


def test_staff_correction_is_a_notice_and_the_players_own_reports_are_not(client, hall, organiser):
    event, table = hall
    confirm(table)
    client.force_login(table.player_a.user)
    assert "A judge" not in page(client, f"/events/{event.pk}/my-match/")
    results.enter_result(table, Score(2, 0), organiser, "the slip said 2-0")
    expected = (
        "The organiser changed your result: round 1, table 1, 2-1 became 2-0 (the slip said 2-0)."
    )
    assert expected in page(client, f"/events/{event.pk}/my-match/")
    client.force_login(table.player_b.user)
    assert expected.replace("2-1 became 2-0", "1-2 became 0-2") in page(
        client, f"/events/{event.pk}/my-match/"
    )


def test_a_settled_dispute_is_a_notice_to_both_players(client, hall, organiser):
    event, table = hall
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 1), a.user)
    results.dispute_result(table, b, b.user, "I won game 3")
    results.enter_result(table, Score(1, 2), organiser, "both agreed on a recount")
    client.force_login(b.user)
    settled = "The organiser settled your result: round 1, table 1, 2-1 (both agreed on a recount)."
    assert settled in page(client, f"/events/{event.pk}/my-match/")


def test_notices_show_on_my_match_for_an_earlier_round_the_latest_alone(
    client, hall, judge, organiser
):
    event, table = hall
    confirm(table)
    warn(table, judge, 3)
    results.enter_result(table, Score(2, 1), organiser, "video review")
    for match in table.round.matches.exclude(pk=table.pk):
        results.enter_result(match, Score(2, 0), organiser)
    rounds.close_round(table.round, organiser)
    rounds.pair_next_round(event, organiser)
    client.force_login(table.player_a.user)
    text = page(client, f"/events/{event.pk}/my-match/")
    newer = "The organiser changed your result: round 1, table 1, 1-2 became 2-1 (video review)"
    assert newer in text and NOTICE not in text  # one box: the latest change


def test_notice_sentence_is_pure_and_reads_each_kind_of_change():
    from tournaments.results.notices import from_side, notice_sentence

    assert notice_sentence(
        round_number=2,
        table=3,
        before="2-1",
        after="1-2",
        reason=f"Game Loss in game 2 for {ADA}: Slow Play Warning",
        rule="905.1",
    ) == (
        "A judge changed your result: round 2, table 3, 2-1 became 1-2 "
        f"(Game Loss in game 2 for {ADA}: Slow Play Warning), rule 905.1."
    )
    assert notice_sentence(round_number=2, table=3, before=None, after="2-0") == (
        "A judge entered your result: round 2, table 3, 2-0."
    )
    assert notice_sentence(
        round_number=1, table=2, before="2-1", after="1-2", reason="video", action="settle"
    ) == ("A judge settled your result: round 1, table 2, 1-2 (video).")
    assert from_side("2-1", second_player=True) == "1-2"
    assert from_side("1-1-1", second_player=True) == "1-1-1"
    assert from_side(None, second_player=True) is None


# --- voiding shows and records the reverse -----------------------------------------------


def test_void_shows_what_it_takes_back_then_records_and_tells_it(client, hall, judge):
    event, table = hall
    confirm(table)
    *_, third = warn(table, judge, 3)
    client.force_login(judge)
    takes_back = (
        f"Voiding this penalty takes back the Game Loss in game 2 for {ADA}: "
        "the result 1-2 becomes 2-1 again."
    )
    listed = page(client, f"/events/{event.pk}/penalties/")
    assert listed.count(takes_back) == 3  # the third, and each warning it counted
    at_table = page(client, f"/events/{event.pk}/judge/tables/{table.pk}/")
    assert takes_back in at_table

    response = client.post(
        f"/events/{event.pk}/penalties/{third.pk}/void/",
        {"reason": "the clock was wrong", "from": "table"},
    )
    assert response["Location"] == f"/events/{event.pk}/judge/tables/{table.pk}/"
    undo = ResultChange.objects.filter(source=f"penalty:{third.pk}").latest("pk")
    assert undo.action == "undo_game_loss" and undo.rule == "905.1"
    assert (undo.before["score"], undo.after["score"]) == ("1-2", "2-1")
    table.refresh_from_db()
    assert results.games_of(table).score == Score(2, 1)
    after = page(client, f"/events/{event.pk}/penalties/")
    assert takes_back not in after
    assert after.count("Voiding this penalty changes no result.") == 2

    client.force_login(table.player_b.user)
    assert (
        "A judge changed your result: round 1, table 1, 2-1 became 1-2 "
        f"(Game Loss in game 2 for {ADA} taken back, Slow Play Warning voided: "
        "the clock was wrong), rule 905.1."
    ) in page(client, f"/events/{event.pk}/my-match/")


def test_void_of_a_match_loss_once_the_next_round_is_paired_says_it_stays(
    client, hall, judge, organiser
):
    event, table = hall
    warn(table, judge, 1, infraction="unsporting_conduct_warning", game=1)
    for match in table.round.matches.exclude(pk=table.pk):
        results.enter_result(match, Score(2, 0), organiser)
    rounds.close_round(table.round, organiser)
    rounds.pair_next_round(event, organiser)
    client.force_login(judge)
    assert (
        f"Voiding this penalty takes back the Match Loss for {ADA}: round 2 is already "
        "paired, so the result 0-2 stays: correct it by hand if needed."
    ) in page(client, f"/events/{event.pk}/penalties/")


def test_void_of_a_game_loss_before_any_result(client, hall, judge):
    event, table = hall
    warn(table, judge, 3, game=1)
    client.force_login(judge)
    assert (
        f"Voiding this penalty takes back the Game Loss in game 1 for {ADA}: the match has "
        "no result yet: the result reported need not count it."
    ) in page(client, f"/events/{event.pk}/penalties/")


def test_void_of_a_disqualification_says_the_player_is_reinstated(client, hall, judge):
    event, table = hall
    warn(table, judge, 1, infraction="cheating", game=1)
    client.force_login(judge)
    assert (
        f"Voiding this penalty takes back the Disqualification for {ADA}: the player is "
        "reinstated, and the result 0-2 is taken back: the match has no result again."
    ) in page(client, f"/events/{event.pk}/penalties/")


def test_penalty_list_queries_do_not_grow_with_penalties(
    client, hall, judge, django_assert_max_num_queries
):
    event, table = hall
    confirm(table)
    warn(table, judge, 3)
    client.force_login(judge)
    with django_assert_max_num_queries(12) as few:
        page(client, f"/events/{event.pk}/penalties/")
    warn(table, judge, 3, game=3, player=table.player_b)
    warn(table, judge, 2, game=1)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page(client, f"/events/{event.pk}/penalties/")


# --- the table page: notes, judge, time, void reason -------------------------------------


def test_table_page_shows_penalty_notes_judge_time_and_void_reason(client, hall, judge):
    event, table = hall
    penalty = issue_penalty(
        table.player_a, "slow_play", judge, game=1, match=table, notes="took 3 minutes"
    )
    void_penalty(penalty, judge, "timer was not started")
    client.force_login(judge)
    text = page(client, f"/events/{event.pk}/judge/tables/{table.pk}/")
    section = text[text.index('id="penalties"') :]
    assert "took 3 minutes" in section
    assert f"{penalty.issued_at.astimezone().strftime('%H:%M')} · jude" in section
    assert "Voided" in section and "by jude: timer was not started" in section


# --- a game the match never reached ------------------------------------------------------


def test_a_game_past_the_end_of_the_result_is_refused_naming_the_game(client, hall, judge):
    event, table = hall
    confirm(table, "2-0")
    with refused("Game 3 was never played: the result 2-0 ended the match after game 2") as e:
        issue_penalty(table.player_a, "illegal_deck", judge, game=3, match=table)
    assert e.value.fields == ["game"]
    client.force_login(judge)
    before = database_rows()
    api = post(client, f"/api/v1/events/{event.pk}/penalties/", form(table, game=3))
    assert api.status_code == 400
    assert api.json()["errors"] == [
        {
            "field": "game",
            "message": "Game 3 was never played: the result 2-0 ended the match after game 2.",
        }
    ]
    page_form = client.post(f"/events/{event.pk}/penalties/new/", form(table, game=3))
    assert page_form.status_code == 400
    assert "Game 3 was never played" in page_form.content.decode()
    assert database_rows() == before


def test_after_a_match_loss_the_game_under_way_may_still_be_named(hall, judge):
    """A Match Loss's 0-2 says nothing of how far the games got: two judges' warnings for
    game 3, the first of which made the Match Loss, are both kept."""
    _, table = hall
    for game in (1, 1, 2, 2, 3):
        issue_penalty(table.player_b, "slow_play", judge, game=game, match=table)
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL
    late = issue_penalty(table.player_b, "slow_play", judge, game=3, match=table)
    assert late.game == 3 and Penalty.objects.filter(match=table).count() == 6


def test_a_game_above_the_format_is_refused_naming_the_game(hall, judge):
    _, table = hall
    with refused("Game 6 is not a game of a best-of-3 match") as e:
        issue_penalty(table.player_a, "slow_play", judge, game=6, match=table)
    assert e.value.fields == ["game"]


def test_a_match_still_playing_may_lose_its_next_game(hall, judge):
    _, table = hall
    (penalty,) = warn(table, judge, 1, infraction="sleeves_not_replaced", game=3)
    assert [c["game"] for c in penalty.consequences] == [3]


def test_time_called_at_one_all_reached_the_third_game_but_not_a_fourth(hall, judge, organiser):
    _, table = hall
    results.enter_result(table, Score(1, 1), organiser)
    with refused("Game 4 was never played"):
        issue_penalty(table.player_a, "illegal_deck", judge, game=4, match=table)
    (penalty,) = warn(table, judge, 1, infraction="illegal_deck", game=3)
    table.refresh_from_db()
    assert results.games_of(table).score == Score(1, 2)
    assert penalty.consequences[0]["game"] == 3


# --- a reported result counts the game loss when confirmed -------------------------------


def test_a_game_loss_in_a_reported_result_stays_when_the_opponent_confirms(hall, judge):
    _, table = hall
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 1), a.user)
    warn(table, judge, 1, infraction="illegal_deck", game=2)
    results.confirm_result(table, b, b.user)
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED
    assert results.games_of(table).score == Score(1, 2)
