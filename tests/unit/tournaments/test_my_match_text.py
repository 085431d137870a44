"""The phone page's words for a seat and the scores a tap reports, per match format."""

from types import SimpleNamespace

import pytest

from tournaments.record.match_games import InvalidResult, Score, check_score
from tournaments.rounds.my_match import idle_text, seat_text, tap_score, tap_scores


def texts(match_format: str, top_cut: bool = False) -> list[str]:
    return [tap.text for tap in tap_scores(match_format, top_cut)]


def test_best_of_three_offers_the_four_results_and_its_draws():
    assert texts("bo3") == ["2-0", "2-1", "1-2", "0-2", "1-1", "1-1-1"]


def test_best_of_one_and_five_offer_theirs():
    assert texts("bo1") == ["1-0", "0-1", "0-0-1"]
    assert texts("bo5") == ["3-0", "3-1", "3-2", "2-3", "1-3", "0-3", "1-1", "2-2", "2-2-1"]


@pytest.mark.parametrize("match_format", ["bo1", "bo3", "bo5"])
def test_a_top_cut_offers_no_draw_and_every_button_is_a_legal_score(match_format):
    for top_cut in (False, True):
        for tap in tap_scores(match_format, top_cut):
            check_score(tap.score, match_format, top_cut)
    assert not [t for t in tap_scores(match_format, True) if t.is_draw]
    with pytest.raises(InvalidResult):  # what the draws would be refused with there
        check_score(Score(1, 1), match_format, True)


def test_the_question_says_who_won_from_the_players_side():
    assert tap_score("2-1", "bo3").question == "Report 2-1 (you won)?"
    assert tap_score("0-2", "bo3").question == "Report 0-2 (you lost)?"
    assert tap_score("1-1-1", "bo3").question == "Report 1-1-1 (a draw)?"
    assert tap_score("3-0", "bo3") is None and tap_score("1-1", "bo3", top_cut=True) is None


def test_the_seat_reads_round_table_and_opponent_or_the_bye():
    grace = SimpleNamespace(pk=2, display_name="Grace Hopper")
    ada = SimpleNamespace(pk=1, display_name="Ada Lovelace")
    table = SimpleNamespace(
        round=SimpleNamespace(number=4),
        table=12,
        is_bye=False,
        player_a=ada,
        player_a_id=1,
        player_b=grace,
        player_b_id=2,
    )
    assert seat_text(table, ada) == "Round 4 — table 12 vs Grace Hopper"
    assert seat_text(table, grace) == "Round 4 — table 12 vs Ada Lovelace"
    bye = SimpleNamespace(
        round=SimpleNamespace(number=4),
        table=None,
        is_bye=True,
        player_a=ada,
        player_a_id=1,
        player_b=None,
        player_b_id=None,
    )
    assert seat_text(bye, ada) == "Round 4 — you have the bye"


# --- why a player has no match -----------------------------------------------------------


def player(status: str = "registered", dropped_after: int | None = None, dq: bool = False):
    return SimpleNamespace(status=status, dropped_after_round=dropped_after, disqualified=dq)


def placing(label: str, cut: str | None = None, decided: bool = True) -> dict:
    return {"place_label": label, "cut": cut, "decided": decided}


def test_a_knocked_out_player_reads_their_band_and_where_the_cut_is():
    idle = idle_text(
        player(), placing("5th\u20138th", "quarterfinal"), event_over=False, cut_now="semifinal"
    )
    assert idle.title == "You finished 5th\u20138th."
    assert idle.hint.startswith(
        "You lost in the quarterfinals. The top cut continues with the semifinals"
    )


def test_a_player_outside_the_cut_reads_their_swiss_place():
    idle = idle_text(player(), placing("9th"), event_over=False, cut_now="final")
    assert (idle.title, idle.hint.split(".")[0]) == (
        "You finished 9th.",
        "You did not make the top cut",
    )
    assert "continues with the final:" in idle.hint


def test_dropped_and_disqualified_players_are_told_so():
    assert idle_text(player("dropped", 3), None, event_over=False, cut_now=None).title == (
        "You dropped after round 3."
    )
    over = idle_text(player("dropped", 3), placing("12th"), event_over=True, cut_now=None)
    assert over.hint == "You will not be paired again. You finished 12th."
    assert idle_text(player("dropped"), None, event_over=False, cut_now=None).title == (
        "You dropped from this event."
    )
    dq = idle_text(player(dq=True), placing("16th"), event_over=True, cut_now=None)
    assert dq.title == "You were disqualified from this event."


def test_a_player_still_in_the_cut_or_between_rounds_waits_for_pairings():
    assert (
        idle_text(
            player(), placing("Top 4", "semifinal", False), event_over=False, cut_now="semifinal"
        )
        is None
    )
    assert idle_text(player(), None, event_over=False, cut_now=None) is None
    assert idle_text(player(), placing("3rd"), event_over=False, cut_now=None) is None
