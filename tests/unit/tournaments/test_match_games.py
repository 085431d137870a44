"""The match games value type: score, winner, forced games and match losses, without a database."""

import subprocess
import sys
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.record.match_games import (
    BEST_OF,
    ForcedGame,
    GameWinner,
    InvalidResult,
    MatchGames,
    Score,
    UnknownGameWinner,
    check_game_number,
    check_score,
    games_needed,
)

A, B = 11, 22


def games(*winners, forced=()) -> MatchGames:
    return MatchGames(A, B, tuple(winners), tuple(forced))


def test_the_module_imports_nothing_of_django():
    code = (
        "import sys, tournaments.record.match_games; "
        "sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# --- score ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "score"),
    [("2-1", Score(2, 1)), ("1-1-1", Score(1, 1, 1)), (" 2 \u2013 0 ", Score(2, 0))],
)
def test_scores_are_read_as_typed(text, score):
    assert Score.parse(text) == score


@pytest.mark.parametrize("text", ["x", "2", "2-1-0-0", "²-0", "-1-2", "2-"])
def test_text_that_is_no_score_is_refused(text):
    with pytest.raises(InvalidResult, match="is not a score"):
        Score.parse(text)


@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5))
def test_a_score_reads_back_what_it_writes(a, b, draws):
    score = Score(a, b, draws)
    assert Score.parse(str(score)) == score
    assert MatchGames.from_score(score, A, B).score == score


def test_a_score_without_draws_is_written_without_them():
    assert str(Score(2, 1)) == "2-1" and str(Score(1, 1, 1)) == "1-1-1"
    assert Score(2, 1, 0).swapped() == Score(1, 2)


@pytest.mark.parametrize(
    ("score", "words"),
    [
        (Score(3, 0), "nobody wins more than 2"),
        (Score(2, 2), "Both players cannot have won"),
        (Score(0, 0, 4), "cannot have 4 drawn games"),
        (Score(-1, 0), "cannot be negative"),
    ],
)
def test_scores_the_format_does_not_allow_are_refused(score, words):
    with pytest.raises(InvalidResult, match=words):
        check_score(score, "bo3")


def test_unfinished_matches_are_allowed_but_a_top_cut_needs_a_winner():
    check_score(Score(1, 1), "bo3")
    check_score(Score(1, 0), "bo3")
    with pytest.raises(InvalidResult, match="top-cut match needs a winner"):
        check_score(Score(1, 1), "bo3", top_cut=True)


def test_games_needed_follow_the_format():
    assert BEST_OF == {"bo1": 1, "bo3": 3, "bo5": 5}
    assert [games_needed(f) for f in ("bo1", "bo3", "bo5")] == [1, 2, 3]


def test_a_penalty_may_name_the_formats_games_and_two_for_draws():
    check_game_number(1, "bo3")
    check_game_number(5, "bo3")
    for game in (0, 6):
        with pytest.raises(InvalidResult, match=f"Game {game} is not a game of a best-of-3"):
            check_game_number(game, "bo3")


# --- winner and encoding -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winners", "winner"),
    [((A, A, B), A), ((B, None), B), ((A, B), None), ((A, B, None), None), ((), None)],
)
def test_more_game_wins_win_the_match(winners, winner):
    assert games(*winners).winner == winner


def test_a_bye_is_a_two_nil_win():
    bye = MatchGames.bye(A)
    assert bye.winner == A and str(bye.score) == "2-0" and bye.stored() == [A, A]


def test_games_are_stored_and_read_back_as_the_row_keeps_them():
    row = SimpleNamespace(
        player_a_id=A,
        player_b_id=B,
        games=[A, None, B],
        forced_games=[{"game": 3, "winner": B, "penalty": 7}],
    )
    read = MatchGames.of(row)
    assert read.stored() == [A, None, B]
    assert read.forced == (ForcedGame(3, B, 7),)
    assert read.forced_stored() == [{"game": 3, "winner": B, "penalty": 7}]
    assert read.public({A: "p1", B: "p2"}) == ["p1", None, "p2"]


def test_no_games_is_no_score_yet():
    assert not games().played and games().score_text() is None
    assert games(A).score_text() == "1-0"


def test_the_same_result_in_another_order_is_the_same():
    assert games(A, B, A).same_result(games(A, A, B))
    assert not games(A, B).same_result(games(A, A))


# --- penalties -----------------------------------------------------------------------------


def test_a_game_loss_gives_that_game_to_the_opponent():
    played = MatchGames.in_play_order((A, A, B), A, B)  # the order the games were played
    lost = played.with_game_loss(A, 2, penalty=5, in_result=False)
    assert lost.stored() == [A, B, B] and lost.winner == B
    assert lost.forced == (ForcedGame(2, B, 5),)


def test_the_winner_of_a_2_1_won_the_deciding_game_3():
    """Issue 30: a score alone, kept A, A, B, was read as play order (game 3 B's)."""
    two_one = games(A, A, B)
    assert two_one.game_winner(3, "bo3") == GameWinner(True, A)
    assert not two_one.game_winner(1, "bo3").known and not two_one.game_winner(2, "bo3").known
    assert games(A, A).game_winner(2, "bo3") == GameWinner(True, A)
    assert not games(A, B).game_winner(2, "bo3").known  # 1-1: time called, nobody decided
    lost = two_one.with_game_loss(A, 3, penalty=5, match_format="bo3", in_result=False)
    assert lost.score == Score(1, 2) and lost.winner == B


def test_a_game_the_score_cannot_tell_needs_someone_to_say_who_won_it():
    with pytest.raises(UnknownGameWinner):
        games(A, A, B).with_game_loss(A, 1, penalty=5, in_result=False)
    said = games(A, A, B).with_game_loss(
        A, 1, penalty=5, in_result=False, said_winner=GameWinner(True, B)
    )
    assert said.score == Score(2, 1)  # B won it already: the result stays
    included = games(A, A, B).with_game_loss(A, 1, penalty=5, in_result=True)
    assert included.score == Score(2, 1) and included.forced == (ForcedGame(1, B, 5),)


def test_a_game_loss_past_the_games_played_adds_the_game():
    assert games(A).with_game_loss(A, 3, penalty=5).stored() == [A, B]


def test_a_game_loss_before_any_result_is_only_remembered():
    lost = games().with_game_loss(B, 1, penalty=5)
    assert lost.stored() == [] and lost.forced == (ForcedGame(1, A, 5),)


def test_taking_back_a_game_loss_keeps_the_others():
    two = games().with_game_loss(A, 1, penalty=5).with_game_loss(A, 2, penalty=6)
    assert two.without_forced_game(5).forced == (ForcedGame(2, B, 6),)


def test_a_result_must_count_every_forced_game():
    forced = (ForcedGame(1, B, 5), ForcedGame(2, B, 6))
    assert games(A, A, B, forced=forced).uncounted_forced_game() == ForcedGame(1, B, 5)
    assert games(A, B, B, forced=forced).uncounted_forced_game() is None
    assert games(forced=()).uncounted_forced_game() is None


@pytest.mark.parametrize(("match_format", "count"), [("bo1", 1), ("bo3", 2), ("bo5", 3)])
def test_a_match_loss_is_a_nil_win_for_the_opponent(match_format, count):
    lost = games(A, B).forfeit(A, match_format)
    assert lost.stored() == [B] * count and lost.winner == B
