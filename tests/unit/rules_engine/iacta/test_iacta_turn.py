"""turn-action (quick-start Phase 2: Play, 503.3, 503.4) and maintenance (Phase 1, 401.2)."""

import pytest

from rules_engine import PayloadError, adjudicate


def action(taken, proposed, first=False):
    return adjudicate(
        "iacta",
        "turn-action",
        {"is_first_players_first_turn": first, "taken": taken, "proposed": proposed},
    )


def test_two_variable_actions_a_turn():
    """Phase 2: Play: up to two variable actions."""
    assert action(["roll"], "prune")["legal"] is True
    r = action(["roll", "prune"], "cycle")
    assert r["legal"] is False and r["variable_actions_used"] == 2


def test_flush_costs_two_variable_actions():
    """Phase 2: Play: Flush (Costs 2 Variable actions)."""
    assert action([], "flush")["legal"] is True
    assert action(["roll"], "flush")["legal"] is False
    assert action(["flush"], "roll")["legal"] is False
    assert action(["flush"], "roll")["variable_actions_used"] == 2


def test_no_variable_action_twice():
    """Phase 2: Play: not the same variable action more than once per turn."""
    r = action(["roll"], "roll")
    assert r["legal"] is False
    assert [v["rule"] for v in r["violations"]] == ["503.3"]


def test_cancelled_action_still_counts_503_3():
    """503.3: a cancelled variable action was still made (taken lists cancelled ones)."""
    r = action(["cycle"], "cycle")
    assert r["legal"] is False and "503.3" in r["citations"]


def test_first_set_is_free_and_outside_the_repeat_rule():
    """Phase 2: Play: the first Set ignores the repeat rule and costs no variable action."""
    r = action(["set", "roll", "prune"], "card_play")
    assert r["legal"] is True and r["variable_actions_used"] == 2
    assert action([], "set")["action_cost"] == 0
    r = action(["set"], "set")
    assert r["legal"] is True and r["action_cost"] == 1
    assert action(["set", "set"], "set")["legal"] is False
    assert action(["set", "set", "roll"], "prune")["legal"] is False


def test_two_card_plays_a_turn_503_4():
    """Phase 2: Play: two card play actions; 503.4: a cancelled card play is not refunded."""
    assert action(["card_play"], "card_play")["legal"] is True
    r = action(["card_play", "card_play"], "card_play")
    assert r["legal"] is False and r["card_plays_used"] == 2 and "503.4" in r["citations"]


def test_no_card_play_on_first_players_first_turn():
    """Phase 2: Play: during the first turn of the first player, no card play actions."""
    assert action([], "card_play", first=True)["legal"] is False
    assert action([], "roll", first=True)["legal"] is True


def test_every_violation_is_listed():
    """Contract: every violation is listed, not only the first."""
    r = action(["flush"], "flush")
    assert len(r["violations"]) == 2


def test_unknown_action_is_a_payload_error():
    """Quick-start Phase 2: Play: only the listed actions exist."""
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "turn-action", {"taken": ["roll", "dance"], "proposed": "jump"})
    assert {e["field"] for e in caught.value.errors} == {
        "taken[1]",
        "proposed",
        "is_first_players_first_turn",
    }


# --- maintenance ------------------------------------------------------------------------


def maint(**payload):
    payload.setdefault("is_first_turn", False)
    return adjudicate("iacta", "maintenance", payload)


def test_draw_two_discard_to_five_return_dice_above_three():
    """Phase 1: Maintenance: draw 2, discard down to 5, Reserve down to 3."""
    r = maint(hand=5, deck=20, reserve=4)
    assert (r["draw"], r["discard"], r["return_to_supply"]) == (2, 2, 1)
    assert (r["hand_after"], r["deck_after"], r["reserve_after"]) == (5, 18, 3)


def test_draw_only_what_is_left_401_2():
    """401.2: draw as many as you are able to."""
    r = maint(hand=1, deck=0, reserve=0)
    assert r["draw"] == 0 and "401.2" in r["citations"]


def test_no_discard_on_first_turn():
    """Phase 1: Maintenance: discard down to 5 unless it is your first turn."""
    r = maint(hand=5, deck=30, reserve=0, is_first_turn=True)
    assert (r["draw"], r["discard"], r["hand_after"]) == (2, 0, 7)


def test_card_effects_change_the_limits_101_1():
    """101.1: cards may change the numbers, e.g. a Reserve that holds 4 dice."""
    r = maint(hand=3, deck=9, reserve=5, reserve_limit=4, draw=3)
    assert (r["draw"], r["discard"], r["return_to_supply"]) == (3, 1, 1)
    assert "101.1" in r["citations"]


def test_maintenance_negative_counts_are_payload_errors():
    """Quick-start Phase 1: Maintenance: counts are whole numbers from 0."""
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "maintenance", {"hand": -1, "deck": -2})
    assert {e["field"] for e in caught.value.errors} == {"hand", "deck", "reserve", "is_first_turn"}


def test_maintenance_counts_one_die_and_one_card_in_the_singular():
    """Quick-start Phase 1: Maintenance, read aloud: "1 die", "1 card", never "1 dice"."""
    text = maint(hand=4, deck=1, reserve=1)["explanation"]
    assert "Draw 1 card," in text and "the Reserve's 1 die stays" in text
    text = maint(hand=6, deck=20, reserve=4)["explanation"]
    assert "discard 3 cards down to 5" in text and "return 1 of the 4 Reserve dice" in text
