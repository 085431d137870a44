"""§2 Starting the Game, §8 Match Play and Appendix C Version 2.3: the first player."""

import pytest

from rules_engine import PayloadError, adjudicate


def first(game, previous):
    return adjudicate("superjack", "first-player", {"game": game, "previous": previous})


def test_contract_example_the_previous_loser_goes_first():
    result = first(2, {"winner": "A", "loser": "B", "draw": False})
    assert (result["first"], result["random"]) == ("B", False)
    assert "Appendix C: Version 2.3" in result["citations"]


def test_s2_game_one_is_random():
    assert (first(1, None)["first"], first(1, None)["random"]) == (None, True)


def test_s8_after_a_draw_the_first_player_is_random_again():
    result = first(3, {"winner": None, "loser": None, "draw": True})
    assert (result["first"], result["random"]) == (None, True)
    assert "draw" in result["explanation"]


def test_appendix_c_v2_3_nobody_chooses():
    """v2.3 supersedes A5/D5: the loser does not choose."""
    assert "no choice" in first(2, {"winner": "A", "loser": "B", "draw": False})["explanation"]


@pytest.mark.parametrize(
    "game, previous, fields",
    [
        (1, {"winner": "A", "loser": "B", "draw": False}, {"previous"}),
        (3, None, {"previous"}),
        (2, {"winner": "A", "loser": "B", "draw": True}, {"previous.winner", "previous.loser"}),
        (2, {"winner": "A", "draw": False}, {"previous.loser"}),
        (2, {"winner": "A", "loser": "A", "draw": False}, {"previous.loser"}),
        (6, None, {"game"}),
    ],
)
def test_payload_errors_name_their_fields(game, previous, fields):
    with pytest.raises(PayloadError) as caught:
        first(game, previous)
    assert {e["field"] for e in caught.value.errors} == fields


def test_after_a_draw_the_explanation_says_so_in_plain_grammar():
    text = first(2, {"winner": None, "loser": None, "draw": True})["explanation"]
    assert text.startswith(
        "The first player is determined at random because the previous game was a draw"
    )
    assert "this is the first game" in first(1, None)["explanation"]
