"""Final placings: the top cut's bands, then the Swiss order (the pure placings module)."""

import pytest

from pairing.bracket import first_round
from pairing.placings import (
    PlacingsInputError,
    final_placings,
    ordinal,
    place_label,
    winner,
)


def swiss(n: int, **marks: dict) -> list[dict]:
    """Standings rows p1 … pn in rank order, with marks ({"p9": {"dropped": True}})."""
    return [
        {"rank": i, "player": f"p{i}", "record": f"{n - i}-{i - 1}-0", **marks.get(f"p{i}", {})}
        for i in range(1, n + 1)
    ]


def cut_of(seeds: list[tuple[int, int]], won: dict[int, int | None]) -> list[dict]:
    """Matches of seeds (high, low) with the winning seed given per high seed."""
    return [
        {
            "players": [f"p{a}", f"p{b}"],
            "winner": None if won.get(a) is None else f"p{won[a]}",
        }
        for a, b in seeds
    ]


# A whole top 8: seeds 1, 4, 2, 3 win their quarterfinals; 4 and 3 win the semifinals;
# seed 3 wins the final.
QUARTERS = cut_of(first_round(8), {1: 1, 4: 4, 2: 2, 3: 3})
SEMIS = cut_of([(1, 4), (2, 3)], {1: 4, 2: 3})
FINAL = cut_of([(4, 3)], {4: 3})


def places(rows: list[dict]) -> list[tuple[str, str]]:
    return [(row["player"], row["place_label"]) for row in rows]


def test_ordinals_and_bands_read_as_results_are_printed():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip
    assert place_label(5, 8) == "5th\u20138th"
    assert place_label(2, 2) == "2nd"


def test_a_finished_top_8_places_by_the_round_each_player_lost_in():
    rows = final_placings(swiss(10), [QUARTERS, SEMIS, FINAL])
    assert places(rows) == [
        ("p3", "1st"),
        ("p4", "2nd"),
        ("p1", "3rd\u20134th"),  # semifinal losers, in Swiss order
        ("p2", "3rd\u20134th"),
        ("p5", "5th\u20138th"),  # quarterfinal losers, in Swiss order
        ("p6", "5th\u20138th"),
        ("p7", "5th\u20138th"),
        ("p8", "5th\u20138th"),
        ("p9", "9th"),  # then the Swiss standings
        ("p10", "10th"),
    ]
    assert [row["cut"] for row in rows[:5]] == [
        "winner", "final", "semifinal", "semifinal", "quarterfinal",
    ]  # fmt: skip
    assert rows[8]["cut"] is None
    assert all(row["decided"] for row in rows)
    assert (rows[2]["place"], rows[2]["place_to"]) == (3, 4)
    assert winner(rows) == "p3"


def test_a_cut_in_progress_shows_who_is_still_playing_and_no_winner():
    half_semis = cut_of([(1, 4), (2, 3)], {1: 4})
    rows = final_placings(swiss(8), [QUARTERS, half_semis])
    assert places(rows) == [
        ("p4", "Top 2"),  # through to the final
        ("p2", "Top 4"),  # still playing their semifinal
        ("p3", "Top 4"),
        ("p1", "3rd\u20134th"),
        ("p5", "5th\u20138th"),
        ("p6", "5th\u20138th"),
        ("p7", "5th\u20138th"),
        ("p8", "5th\u20138th"),
    ]
    assert [row["decided"] for row in rows[:4]] == [False, False, False, True]
    assert winner(rows) is None


def test_a_final_not_played_yet_has_no_winner():
    semis = cut_of([(1, 4), (2, 3)], {1: 1, 2: 3})
    rows = final_placings(swiss(4), [semis])  # the final is not paired yet
    assert places(rows)[:2] == [("p1", "Top 2"), ("p3", "Top 2")]
    assert winner(rows) is None
    rows = final_placings(swiss(4), [semis, cut_of([(1, 3)], {})])  # paired, no result
    assert places(rows)[:2] == [("p1", "Top 2"), ("p3", "Top 2")]
    assert winner(rows) is None


def test_without_a_cut_the_placings_are_the_swiss_order_with_marks_kept():
    rows = final_placings(swiss(4, p2={"dropped": True}, p4={"disqualified": True}))
    assert places(rows) == [("p1", "1st"), ("p2", "2nd"), ("p3", "3rd"), ("p4", "4th")]
    assert rows[1]["dropped"] is True and rows[3]["disqualified"] is True
    assert rows[0]["record"] == "3-0-0"  # the standings row is carried whole
    assert winner(rows) is None  # a Swiss-only event's winner is its 1st: the caller says


def test_a_dropped_player_outside_the_cut_keeps_their_swiss_place_and_mark():
    rows = final_placings(swiss(6, p3={"dropped": True}), [cut_of([(1, 5), (2, 4)], {1: 1, 2: 2})])
    assert places(rows)[4:] == [("p3", "5th"), ("p6", "6th")]
    assert rows[4]["dropped"] is True


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        ([[{"players": ["p1", "p9"], "winner": "p1"}]], r"cut_rounds\[0\]\[0\]: player 'p9'"),
        ([[{"players": ["p1"], "winner": "p1"}]], r'"players" must name two'),
        ([[{"players": ["p1", "p2"], "winner": "p3"}]], r"winner 'p3' is not a player"),
        ([[]], r"cut_rounds\[0\]: a round needs"),
        (
            [cut_of([(1, 4), (2, 3)], {1: 1}), cut_of([(1, 2)], {})],
            r"cut_rounds\[0\]: a later round is paired",
        ),
        (
            [cut_of([(1, 4), (2, 3)], {1: 1, 2: 2}), cut_of([(1, 3)], {})],
            r"cut_rounds\[1\]: its players are not the winners",
        ),
        ([cut_of([(1, 4), (1, 3)], {})], r"two matches in this round"),
    ],
)
def test_malformed_cuts_are_refused_naming_the_match(cut, message):
    with pytest.raises(PlacingsInputError, match=message):
        final_placings(swiss(4), cut)
