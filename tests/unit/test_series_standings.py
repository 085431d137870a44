"""Series standings as a pure rule: points per event, best N, tiebreakers, the table."""

import pytest

from pairing.series import (
    Finish,
    SeriesRule,
    SeriesRuleError,
    event_points,
    parse_points_table,
    rule_problems,
    series_standings,
    table_text,
)

TABLE = (10, 8, 6, 6, 4, 4, 4, 4)


def finish(event, player, place, points=0, wins=0, omw=0.5, dq=False):
    return Finish(event, player, player.title(), place, points, wins, omw, dq)


def test_a_typed_table_reads_bands_and_writes_back_the_same():
    assert parse_points_table("1: 10, 2: 8\n3-4: 6; 5\u20138: 4") == TABLE
    assert table_text(TABLE) == "1: 10, 2: 8, 3-4: 6, 5-8: 4"
    assert parse_points_table("") == ()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("1: 10, 3: 6", "Place 2 has no points"),
        ("1: 10, 2: -1", "points cannot be negative"),
        ("1: 10, 1: 8", "Place 1 is given points twice"),
        ("1: 6, 2: 8", "Place 2 earns more than place 1"),
        ("first: 10", "is not a place and its points"),
        ("0: 10", "Places run from 1 upwards"),
        ("4-2: 3", "is not a range of places"),
    ],
)
def test_a_bad_table_is_refused_naming_what_is_wrong(typed, said):
    with pytest.raises(SeriesRuleError) as refused:
        parse_points_table(typed)
    assert refused.value.problems[0].field == "placing_points"
    assert said in refused.value.problems[0].message


def test_best_n_larger_than_the_events_and_no_events_are_refused():
    def said(rule, events):
        return {p.field: p.message for p in rule_problems(rule, events)}

    assert set(said(SeriesRule(best_of=3), 2)) == {"best_of"}
    said_of_best = said(SeriesRule(best_of=3), 2)["best_of"]
    assert said_of_best == "Best 3 cannot be counted: the series has 2 events."
    assert said(SeriesRule(best_of=3), 1)["best_of"].endswith("the series has 1 event.")
    assert said(SeriesRule(), 0)["events"] == "A series needs at least one event."
    assert rule_problems(SeriesRule(best_of=2), 2) == []
    assert "placing_points" in said(SeriesRule(method="placings"), 1)
    assert "tiebreakers" in said(SeriesRule(tiebreakers=("luck",)), 1)
    assert "participation" in said(SeriesRule(participation=-1), 1)


def test_placing_points_give_a_tied_band_its_best_place_and_a_participation_point():
    rule = SeriesRule(method="placings", placing_points=TABLE, participation=1)
    assert event_points(finish(1, "a", 1), rule) == 11
    assert event_points(finish(1, "a", 3), rule) == 7  # 3rd-4th band: place 3's points
    assert event_points(finish(1, "a", 40), rule) == 1  # past the table: taking part
    assert event_points(finish(1, "a", 1, dq=True), rule) == 0


def test_only_the_best_n_count_and_an_earlier_equal_score_counts_first():
    rule = SeriesRule(method="placings", placing_points=TABLE, best_of=2)
    rows = series_standings(
        [finish(1, "ada", 2), finish(2, "ada", 1), finish(3, "ada", 2), finish(1, "bo", 1)],
        rule,
        [1, 2, 3],
    )
    ada = next(r for r in rows if r.player == "ada")
    assert ada.total == 18 and ada.events_played == 3
    assert [(s.event, s.counted) for s in ada.scores] == [(1, True), (2, True), (3, False)]
    assert [r.player for r in rows] == ["ada", "bo"]


def test_match_points_mode_adds_the_events_match_points():
    rows = series_standings(
        [
            finish(1, "ada", 3, points=9),
            finish(2, "ada", 1, points=12),
            finish(1, "bo", 1, points=12),
        ],
        SeriesRule(),
        [1, 2],
    )
    assert [(r.player, r.total) for r in rows] == [("ada", 21), ("bo", 12)]


def test_ties_break_in_the_chosen_order_and_full_ties_share_a_rank():
    rule = SeriesRule(method="placings", placing_points=(5, 3, 1), tiebreakers=("best_finish",))
    rows = series_standings(
        [
            finish(1, "ada", 3),
            finish(2, "ada", 1),  # 1 + 5 = 6, best 1st
            finish(1, "bo", 1),
            finish(2, "bo", 3),  # 6, best 1st
            finish(1, "cy", 2),
            finish(2, "cy", 2),  # 6, best 2nd
        ],
        rule,
        [1, 2],
    )
    assert [(r.rank, r.player) for r in rows] == [(1, "ada"), (1, "bo"), (3, "cy")]
    wins_first = SeriesRule(
        method="placings", placing_points=(5, 3, 1), tiebreakers=("match_wins",)
    )
    rows = series_standings(
        [finish(1, "ada", 1, wins=2), finish(1, "bo", 1, wins=3)], wins_first, [1]
    )
    assert [r.player for r in rows] == ["bo", "ada"]


def test_standings_are_deterministic_whatever_order_the_finishes_come_in():
    finishes = [
        finish(e, p, (e + i) % 4 + 1, wins=i) for e in (1, 2, 3) for i, p in enumerate("abcd")
    ]
    rule = SeriesRule(method="placings", placing_points=(4, 3, 2, 1), best_of=2)
    first = series_standings(finishes, rule, [1, 2, 3])
    again = series_standings(list(reversed(finishes)), rule, [1, 2, 3])
    assert [(r.rank, r.player, r.total) for r in first] == [
        (r.rank, r.player, r.total) for r in again
    ]


def test_a_points_list_is_checked_as_a_typed_table_is():
    from pairing.series import checked_points

    assert (
        checked_points([10, 8, 6, 6]) == (10, 8, 6, 6) == parse_points_table("1: 10, 2: 8, 3-4: 6")
    )
    assert checked_points([]) == ()
    for bad, said in (([10, -1], "cannot be negative"), ([6, 8], "earns more than place 1")):
        with pytest.raises(SeriesRuleError) as refused:
            checked_points(bad)
        assert said in refused.value.problems[0].message
