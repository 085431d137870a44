"""modified-value: 102.1a (most recent set), 102.1b (add all), 102.1c (limits, floors), 101.2."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate


def value(kind, base, effects, **extra):
    return adjudicate(
        "iacta", "modified-value", {"kind": kind, "base": base, "effects": effects, **extra}
    )


def e(op, v, order):
    return {"op": op, "value": v, "order": order}


def test_most_recent_set_wins_102_1a():
    """102.1a: if several effects set a number, the most recently played one counts."""
    r = value("die", 2, [e("set", 6, 5), e("set", 1, 2)])
    assert r["value"] == 6 and "102.1a" in r["citations"]


def test_all_adds_apply_after_the_set_102_1b():
    """102.1b: every plus and minus applies, after the set, whatever their order."""
    assert value("die", 2, [e("add", 1, 1), e("set", 3, 2), e("add", 2, 3)])["value"] == 6


def test_minimums_and_caps_come_last_102_1c():
    """102.1c: caps apply after modifiers; a floor effect raises the value."""
    assert value("die", 6, [e("max", 4, 1), e("add", 3, 2)])["value"] == 4
    assert value("die", 1, [e("min", 3, 1)])["value"] == 3


def test_conflicting_limits_most_recent_wins_101_2():
    """101.2: competing effects, the one played most recently takes precedence."""
    r = value("die", 4, [e("max", 3, 2), e("min", 5, 1)])
    assert r["value"] == 3 and "101.2" in r["citations"]
    assert value("die", 4, [e("max", 3, 1), e("min", 5, 2)])["value"] == 5


def test_rule_floors_102_1c():
    """102.1c: a die is never below 1, a cost or a count never below 0."""
    assert value("die", 2, [e("add", -5, 1)])["value"] == 1
    assert value("cost", 1, [e("add", -3, 1)])["value"] == 0
    r = value("count", 2, [e("add", -3, 1)])
    assert r["value"] == 0 and r["floored"] is True


def test_an_effect_may_allow_going_below_the_floor():
    """102.1c "unless an effect explicitly states otherwise": allow_below_floor."""
    r = value("die", 2, [e("add", -5, 1)], allow_below_floor=True)
    assert r["value"] == -3 and r["floored"] is False


def test_die_above_six_cites_102_2():
    r = value("die", 6, [e("add", 2, 1)])
    assert r["value"] == 8 and "102.2" in r["citations"]


def test_ambiguous_orders_are_payload_errors():
    """Two sets with different values at the same most recent order: say which came last."""
    with pytest.raises(PayloadError) as caught:
        value(
            "die",
            3,
            [e("set", 2, 4), e("add", 1, 4), e("set", 5, 4), e("min", 6, 7), e("max", 2, 7)],
        )
    assert [x["field"] for x in caught.value.errors] == [
        "effects[0].order",
        "effects[2].order",
        "effects[3].order",
        "effects[4].order",
    ]


def test_bad_op_and_kind_are_payload_errors():
    """102.1: only set/add/min/max effects on a die, cost or count."""
    with pytest.raises(PayloadError) as caught:
        adjudicate(
            "iacta",
            "modified-value",
            {"kind": "card", "base": 1, "effects": [{"op": "times", "value": 2}]},
        )
    assert {x["field"] for x in caught.value.errors} == {
        "kind",
        "effects[0].op",
        "effects[0].order",
    }


effects = st.lists(
    st.builds(
        e,
        st.sampled_from(["set", "add", "min", "max"]),
        st.integers(-20, 20),
        st.integers(0, 1000),
    ),
    max_size=8,
    unique_by=lambda x: x["order"],
)


@given(st.sampled_from(["die", "cost", "count"]), st.integers(-10, 20), effects, st.booleans())
def test_property_floors_hold_unless_allowed(kind, base, effs, allow):
    """102.1c: never a die below 1 or a cost/count below 0 unless the payload allows it."""
    r = value(kind, base, effs, allow_below_floor=allow)
    floor = 1 if kind == "die" else 0
    if not allow:
        assert r["value"] >= floor
    else:
        assert r["floored"] is False
