"""Every example of the adjudication contract's "## iacta" section gives exactly its response."""

import pytest

from rules_engine import adjudicate


def ask(slug, payload):
    return adjudicate("iacta", slug, payload)


def test_flush_score_contract_example_full_house():
    """Quick-start Scoring Combinations: [4,4,4,2,2] is a Full House, 16 + 15."""
    r = ask("flush-score", {"dice": [4, 4, 4, 2, 2]})
    assert (r["sum"], r["combo"], r["bonus"], r["score"]) == (16, "full_house", 15, 31)


def test_pay_cost_contract_example():
    """Quick-start Playing Cards: one die per symbol, none for X."""
    r = ask("pay-cost", {"cost": ["4+", "ODD", "3", "X", "-2", "EVN"], "reserve": [5, 1, 3, 2, 6]})
    assert r["payable"] is True
    assert r["assignment"][0] == {"cost": "4+", "die": 5}
    assert [a["cost"] for a in r["assignment"]] == ["4+", "ODD", "3", "-2", "EVN"]


def test_pay_cost_contract_example_with_payment():
    """Contract: the example's own Reserve as payment is legal (Quick-start: Playing Cards)."""
    r = ask(
        "pay-cost",
        {
            "cost": ["4+", "ODD", "3", "X", "-2", "EVN"],
            "reserve": [5, 1, 3, 2, 6],
            "payment": [5, 1, 3, 2, 6],
        },
    )
    assert r["payable"] is True and r["payment_legal"] is True


def test_iacta_check_contract_example():
    """104.2d: three of each value 1-6 in all 18 slots."""
    r = ask(
        "iacta-check", {"registers": [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4], [5, 5, 5, 6, 6, 6]]}
    )
    assert r["iacta"] is True


def test_turn_action_contract_example():
    """Quick-start Phase 2: Play: Flush costs two, the first Set is free."""
    r = ask(
        "turn-action",
        {
            "is_first_players_first_turn": False,
            "taken": ["set", "roll", "card_play"],
            "proposed": "flush",
        },
    )
    assert r["legal"] is False
    assert r["variable_actions_used"] == 1
    assert r["card_plays_used"] == 1


def test_maintenance_contract_example():
    """Quick-start Phase 1: Maintenance with 401.2."""
    r = ask("maintenance", {"hand": 4, "deck": 1, "reserve": 5, "is_first_turn": False})
    assert (r["draw"], r["discard"], r["return_to_supply"]) == (1, 0, 2)


def test_modified_value_contract_example():
    """102.1a-c: set 6, -2, cap 5 -> 4."""
    r = ask(
        "modified-value",
        {
            "kind": "die",
            "base": 4,
            "effects": [
                {"op": "set", "value": 6, "order": 1},
                {"op": "add", "value": -2, "order": 2},
                {"op": "max", "value": 5, "order": 3},
            ],
        },
    )
    assert r["value"] == 4


def test_era_order_contract_example():
    """Quick-start ERA and 502.1: top down, then pending placed from the active player."""
    r = ask(
        "era-order",
        {
            "players": ["A", "B"],
            "active_player": "A",
            "declared": [
                {"id": "roll", "player": "A"},
                {"id": "trap-1", "player": "B"},
                {"id": "counter", "player": "A"},
            ],
            "pending": [{"id": "p-b", "player": "B"}, {"id": "p-a", "player": "A"}],
        },
    )
    assert r["occurs"] == ["counter", "trap-1", "roll"]
    assert r["then_placed"] == ["p-a", "p-b"]
    assert r["then_occurs"] == ["p-b", "p-a"]


def test_cash_out_contract_example():
    """Quick-start How to Win: flush everything, highest total wins."""
    r = ask(
        "cash-out",
        {
            "players": [
                {"id": "A", "banked": 40, "registers": [[2, 3, 4], [], [6]]},
                {"id": "B", "banked": 52, "registers": [[], [], []]},
            ]
        },
    )
    assert r["totals"] == {"A": 60, "B": 52}
    assert r["winner"] == "A"
    assert r["roll_off"] is False


def test_cash_out_tie_is_a_roll_off():
    """Quick-start How to Win: ties are broken by a 2d6 roll-off."""
    r = ask(
        "cash-out",
        {
            "players": [
                {"id": "A", "banked": 10, "registers": [[], [], []]},
                {"id": "B", "banked": 10, "registers": [[], [], []]},
            ]
        },
    )
    assert r["winner"] is None and r["roll_off"] is True


def test_deck_legality_contract_shape_splash_violation():
    """202.3: the contract's cards, with too many Splash Cards, give a 202.3 violation."""
    r = ask(
        "deck-legality",
        {
            "main": [{"name": "Card A", "count": 4}, {"name": "Card B", "count": 4}]
            + [{"name": f"Splash {i}", "count": 4} for i in range(3)]
            + [{"name": f"Filler {i}", "count": 4} for i in range(5)],
            "sideboard": [{"name": "Card C", "count": 2}],
            "main_syndicate": "EMB",
            "cards": {
                "Card A": {"syndicate": "EMB", "tier": "major"},
                "Card B": {"syndicate": None, "tier": "neutral", "max_copies": 4},
                "Card C": {"syndicate": "RUST", "tier": "major"},
                **{f"Splash {i}": {"syndicate": "VOX", "tier": "minor"} for i in range(3)},
                **{f"Filler {i}": {"syndicate": None, "tier": "neutral"} for i in range(5)},
            },
        },
    )
    assert r["legal"] is False
    assert [v["rule"] for v in r["violations"]] == ["202.3"]
    assert set(r["violations"][0]) == {"rule", "message"}


@pytest.mark.parametrize(
    ("seconds", "judged", "warnings"),
    [
        (61, True, 1),
        (120, True, 1),
        (121, True, 2),
        (200, True, 3),
        (76, False, 1),
        (136, False, 2),
        (75, False, 0),
    ],
)
def test_search_time_contract_numbers(seconds, judged, warnings):
    """904.4-904.6: the contract's table of searches and warnings."""
    assert ask("search-time", {"seconds": seconds, "judged": judged})["max_warnings"] == warnings


def test_penalties_contract_example_game_loss():
    """905.1: the third Slow Play Warning in game 1 is a Game Loss at index 2."""
    r = ask(
        "penalties",
        {"penalties": [{"player": "A", "infraction": "slow_play", "game": 1}] * 3},
    )
    assert r["consequences"] == [
        {"player": "A", "result": "game_loss", "game": 1, "at": 2, "rule": "905.1"}
    ]
