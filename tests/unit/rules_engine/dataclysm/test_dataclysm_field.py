"""Dataclysm: Selection Order and Simultaneous triggers."""

import pytest

from rules_engine import PayloadError, adjudicate


def order(active, opponent):
    return adjudicate("dataclysm", "selection-order", {"active": active, "opponent": opponent})


def slots(*ids):
    return [None if i is None else {"id": i} for i in ids]


def test_selection_order_active_front_back_then_opponent_front_back():
    result = order(
        {"front": slots("t1", None, "t3", None), "back": slots(None, "t2", None, "t4")},
        {"front": slots(None, None, None, "e1"), "back": slots("e2", None, None, None)},
    )
    assert result["order"] == ["t1", "t3", "t2", "t4", "e1", "e2"]
    assert result["citations"] == ["Dataclysm: Selection Order", "Dataclysm: Simultaneous triggers"]


def test_selection_order_empty_field():
    empty = {"front": slots(None, None, None, None), "back": slots(None, None, None, None)}
    assert order(empty, empty)["order"] == []


def test_payload_error_duplicate_ids_and_short_rows():
    with pytest.raises(PayloadError) as caught:
        order(
            {"front": slots("t1", None, None, None), "back": slots(None, None)},
            {"front": slots("t1", None, None, None), "back": slots(None, None, None, None)},
        )
    assert {e["field"] for e in caught.value.errors} == {"active.back"}
    with pytest.raises(PayloadError) as caught:
        order(
            {"front": slots("t1", None, None, None), "back": slots(None, None, None, None)},
            {"front": slots("t1", None, None, None), "back": slots(None, None, None, None)},
        )
    assert [e["field"] for e in caught.value.errors] == ["opponent.front[0].id"]
