"""The phone page's words for a seat and the scores a tap reports, per match format."""

from types import SimpleNamespace

import pytest

from tournaments.match_games import InvalidResult, Score, check_score
from tournaments.my_match import seat_text, tap_score, tap_scores


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
