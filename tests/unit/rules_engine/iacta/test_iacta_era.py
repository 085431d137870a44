"""era-order: quick-start "The Effect Resolution Area (ERA)", 502.1, 502.2."""

import pytest

from rules_engine import PayloadError, adjudicate


def era(players, active, declared, pending=()):
    return adjudicate(
        "iacta",
        "era-order",
        {
            "players": players,
            "active_player": active,
            "declared": [{"id": i, "player": p} for i, p in declared],
            "pending": list(pending),
        },
    )


def test_occurs_top_to_bottom():
    """Quick-start ERA: from top to bottom, most recently declared first."""
    r = era(["A", "B"], "A", [("flush", "A"), ("trap", "B")])
    assert r["occurs"] == ["trap", "flush"]
    assert r["then_placed"] == [] and r["then_occurs"] == []
    assert "502.1" not in r["citations"]


def test_pending_placed_in_turn_order_from_the_active_player_502_1():
    """502.1: placed in turn order starting with the active player, who places first."""
    pending = [
        {"id": "a1", "player": "A"},
        {"id": "c1", "player": "C"},
        {"id": "b1", "player": "B"},
        {"id": "b2", "player": "B"},
    ]
    r = era(["A", "B", "C"], "B", [("roll", "B")], pending)
    assert r["placing_order"] == ["B", "C", "A"]
    assert r["then_placed"] == ["b1", "b2", "c1", "a1"]
    assert r["then_occurs"] == ["a1", "c1", "b2", "b1"]
    assert "502.1" in r["citations"]


def test_each_player_chooses_their_own_order_502_1():
    """502.1: a player with several effects chooses their order (their list order)."""
    pending = [{"id": "second", "player": "A"}, {"id": "first", "player": "A"}]
    r = era(["A", "B"], "A", [], pending)
    assert r["then_placed"] == ["second", "first"]


def test_same_perpetual_triggered_twice_is_placed_once_502_2():
    """502.2: placed once, occurs that many times in sequence."""
    pending = [
        {"id": "engine-1", "player": "A", "source": "Engine"},
        {"id": "engine-2", "player": "A", "source": "Engine"},
        {"id": "b", "player": "B"},
    ]
    r = era(["A", "B"], "A", [], pending)
    assert r["then_placed"] == ["engine-1", "b"]
    assert r["then_occurs"] == ["b", "engine-1", "engine-1"]
    assert r["repeats"] == {"engine-1": 2} and "502.2" in r["citations"]


def test_inconsistent_players_are_payload_errors():
    """502.1 needs consistent players: every inconsistency is named with its field."""
    with pytest.raises(PayloadError) as caught:
        era(
            ["A", "B", "A"],
            "Z",
            [("x", "A"), ("x", "Q")],
            [{"id": "p", "player": "R"}],
        )
    assert [e["field"] for e in caught.value.errors] == [
        "players[2]",
        "active_player",
        "declared[1].player",
        "declared[1].id",
        "pending[0].player",
    ]
