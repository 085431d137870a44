"""search-time (904.2-904.6) and penalties (203.1, 903.1, 905-907)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate
from rules_engine.iacta.tournament import INFRACTIONS


def search(seconds, judged):
    return adjudicate("iacta", "search-time", {"seconds": seconds, "judged": judged})


@pytest.mark.parametrize(("seconds", "warnings"), [(0, 0), (60, 0), (60.5, 1), (180, 2), (181, 3)])
def test_judged_one_warning_per_minute_mark_passed_904_4_904_6(seconds, warnings):
    """904.2/904.4: over one minute, a warning; 904.6: one more each further minute."""
    r = search(seconds, True)
    assert r["max_warnings"] == warnings
    assert {"904.2", "904.4", "904.6"} <= set(r["citations"])


@pytest.mark.parametrize(("seconds", "warnings"), [(74, 0), (75, 0), (135, 1), (195.5, 3)])
def test_unjudged_first_warning_after_fifteen_more_seconds_904_5(seconds, warnings):
    """904.5: unjudged, the opponent waits 15 s more after the minute; 904.6 thereafter."""
    r = search(seconds, False)
    assert r["max_warnings"] == warnings
    assert "904.5" in r["citations"]


def test_search_reports_next_warning_time():
    """904.6: the next warning becomes possible a minute after the last mark."""
    assert search(200, True)["next_warning_after"] == 240
    assert search(76, False)["next_warning_after"] == 135


def test_search_payload_errors():
    """904.2: seconds is non-negative and judged is required."""
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "search-time", {"seconds": -1})
    assert {e["field"] for e in caught.value.errors} == {"seconds", "judged"}


# --- penalties --------------------------------------------------------------------------


def escalate(*penalties):
    issued = [{"player": p, "infraction": i, "game": g} for p, i, g in penalties]
    return adjudicate("iacta", "penalties", {"penalties": issued})["consequences"]


def c(player, result, game, at, rule):
    return {"player": player, "result": result, "game": game, "at": at, "rule": rule}


def test_three_slow_play_warnings_in_a_game_905_1():
    """905.1: three in one game is a Game Loss; spread over games it is not."""
    assert escalate(("A", "slow_play", 1), ("A", "slow_play", 2), ("A", "slow_play", 1)) == []
    got = escalate(*[("A", "slow_play", 2)] * 3)
    assert got == [c("A", "game_loss", 2, 2, "905.1")]


def test_five_slow_play_warnings_in_the_match_905_2():
    """905.2: five cumulative Slow Play Warnings across the match is a Match Loss."""
    got = escalate(*[("A", "slow_play", g) for g in (1, 1, 2, 2, 3)])
    assert got == [c("A", "match_loss", 3, 4, "905.2")]


def test_one_warning_completing_both_lists_only_the_match_loss():
    """Contract: a warning completing a Game Loss and a Match Loss lists only the Match Loss."""
    got = escalate(*[("A", "slow_play", g) for g in (1, 1, 2, 2, 2)])
    assert got == [c("A", "match_loss", 2, 4, "905.2")]


def test_unsporting_conduct_warning_is_a_match_loss_905_2():
    assert escalate(("B", "unsporting_conduct_warning", 1)) == [c("B", "match_loss", 1, 0, "905.2")]


def test_three_rule_violation_warnings_907_3c():
    """907.3c: three Rule Violation Warnings in a match is a Match Loss."""
    got = escalate(
        ("A", "rule_violation", 1), ("A", "rule_violation", 2), ("A", "rule_violation", 3)
    )
    assert got == [c("A", "match_loss", 3, 2, "907.3c")]


def test_game_losses_903_1b_and_203_1():
    """903.1b: failing to present a legal deck after resleeving; 203.1: illegal deck."""
    assert escalate(("A", "sleeves_not_replaced", 1)) == [c("A", "game_loss", 1, 0, "903.1b")]
    assert escalate(("A", "illegal_deck", 2)) == [c("A", "game_loss", 2, 0, "203.1")]


@pytest.mark.parametrize(
    ("infraction", "rule"),
    [
        ("hate_symbols", "903.1c"),
        ("stalling", "906.2"),
        ("abusive_language", "906.3"),
        ("assault", "906.4"),
        ("cheating", "906.5"),
        ("theft_or_damage", "906.6"),
        ("refused_acknowledgement", "906.7c"),
        ("hidden_trigger", "907.4"),
    ],
)
def test_disqualifying_offences(infraction, rule):
    """906.1-906.7, 903.1c, 907.4: immediate Disqualification."""
    assert escalate(("A", infraction, 1)) == [c("A", "disqualification", 1, 0, rule)]


def test_hygiene_is_match_loss_then_disqualification_906_8():
    assert escalate(("A", "hygiene_not_remedied", 2)) == [
        c("A", "match_loss", 2, 0, "906.8"),
        c("A", "disqualification", 2, 0, "906.8"),
    ]


def test_after_match_loss_only_a_disqualification_is_added():
    """Contract: no further game/match loss after a Match Loss, but a DQ still."""
    got = escalate(
        ("A", "unsporting_conduct_warning", 1),
        ("A", "illegal_deck", 2),
        *[("A", "slow_play", 2)] * 5,
        ("A", "hygiene_not_remedied", 2),
    )
    assert got == [
        c("A", "match_loss", 1, 0, "905.2"),
        c("A", "disqualification", 2, 7, "906.8"),
    ]


def test_after_disqualification_nothing_more():
    """906.1 / contract: after a Disqualification nothing more is added."""
    got = escalate(("A", "cheating", 1), ("A", "assault", 1), ("A", "illegal_deck", 1))
    assert got == [c("A", "disqualification", 1, 0, "906.5")]


def test_a_lost_game_is_not_lost_twice():
    """905.1 / 203.1: a game already lost is not lost again."""
    got = escalate(("A", "illegal_deck", 1), *[("A", "slow_play", 1)] * 3)
    assert got == [c("A", "game_loss", 1, 0, "203.1")]


def test_players_are_counted_separately():
    """905.1: each player's warnings count on their own."""
    got = escalate(
        ("A", "slow_play", 1),
        ("B", "slow_play", 1),
        ("A", "slow_play", 1),
        ("B", "slow_play", 1),
        ("B", "slow_play", 1),
    )
    assert got == [c("B", "game_loss", 1, 4, "905.1")]


def test_penalties_payload_errors_list_every_field():
    """Contract: infraction names and game numbers are checked field by field."""
    with pytest.raises(PayloadError) as caught:
        adjudicate(
            "iacta",
            "penalties",
            {
                "penalties": [
                    {"player": "A", "infraction": "jaywalking", "game": 0},
                    {"player": "B", "game": 1},
                ]
            },
        )
    assert {e["field"] for e in caught.value.errors} == {
        "penalties[0].infraction",
        "penalties[0].game",
        "penalties[1].infraction",
    }


def test_two_missing_keys_are_both_named():
    """Contract: every missing key is named, each once."""
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "penalties", {"penalties": [{"game": 1}]})
    assert {e["field"] for e in caught.value.errors} == {
        "penalties[0].player",
        "penalties[0].infraction",
    }


penalty = st.fixed_dictionaries(
    {
        "player": st.sampled_from(["A", "B"]),
        "infraction": st.sampled_from(sorted(INFRACTIONS)),
        "game": st.integers(1, 3),
    }
)


@given(st.lists(penalty, max_size=30))
def test_property_nothing_after_a_disqualification(penalties):
    """After a player's Disqualification no consequence is listed for them."""
    out = adjudicate("iacta", "penalties", {"penalties": penalties})["consequences"]
    for player in ("A", "B"):
        mine = [x for x in out if x["player"] == player]
        results = [x["result"] for x in mine]
        if "disqualification" in results:
            assert results.index("disqualification") == len(results) - 1
        assert results.count("match_loss") <= 1
        if "match_loss" in results:
            assert "game_loss" not in results[results.index("match_loss") :]
        games = [x["game"] for x in mine if x["result"] == "game_loss"]
        assert len(games) == len(set(games))
        assert [x["at"] for x in mine] == sorted(x["at"] for x in mine)
