"""pay-cost: Dice Costs as a matching (quick-start Playing Cards, 102.2)."""

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import PayloadError, adjudicate
from rules_engine.iacta.costs import parse_symbol


def pay(cost, reserve, payment=None):
    payload = {"cost": cost, "reserve": reserve}
    if payment is not None:
        payload["payment"] = payment
    return adjudicate("iacta", "pay-cost", payload)


def test_matching_not_greedy():
    """Playing Cards: ODD and 5 from [5, 3] are payable (3 pays ODD, 5 pays 5)."""
    r = pay(["ODD", "5"], [5, 3])
    assert r["payable"] is True
    assert r["assignment"] == [{"cost": "ODD", "die": 3}, {"cost": "5", "die": 5}]


def test_x_costs_no_die():
    """Playing Cards: [X] costs 0 dice and gets no assignment entry."""
    r = pay(["X", "X"], [])
    assert r["payable"] is True and r["assignment"] == []
    assert pay([], [1])["assignment"] == []


def test_threshold_parity_exact_meanings():
    """Playing Cards: [4+] is 4-6, [-2] is 1-2, ODD 1/3/5, EVN 2/4/6, [3] only 3."""
    assert pay(["4+"], [4])["payable"] and not pay(["4+"], [3])["payable"]
    assert pay(["-2"], [2])["payable"] and not pay(["-2"], [3])["payable"]
    assert pay(["ODD"], [5])["payable"] and not pay(["ODD"], [4])["payable"]
    assert pay(["EVN"], [6])["payable"] and not pay(["EVN"], [1])["payable"]
    assert pay(["3"], [3])["payable"] and not pay(["3"], [4])["payable"]


def test_dice_above_six_102_2():
    """102.2: a 7 pays 4+ and ODD; an exact 5 needs exactly 5; a 7 never pays [6]."""
    assert pay(["4+"], [7])["payable"] and pay(["ODD"], [7])["payable"]
    assert not pay(["5"], [7])["payable"]
    r = pay(["6"], [7])
    assert r["payable"] is False and "102.2" in r["citations"]
    assert pay(["EVN"], [8])["payable"]


def test_each_die_pays_one_symbol():
    """Playing Cards: one die from the Reserve for each die in the cost."""
    r = pay(["ODD", "ODD"], [5])
    assert r["payable"] is False and r["assignment"] is None
    assert "holds only 1" in r["explanation"]


def test_unpayable_explanation_names_the_competing_symbols():
    """Quick-start Playing Cards: the explanation names the symbols competing for too few dice."""
    r = pay(["5", "ODD", "EVN"], [5, 2, 4])
    assert r["payable"] is False
    assert "5 and ODD need 2 different dice" in r["explanation"]


def test_payment_legal_and_illegal():
    """Playing Cards: a payment is one Reserve die per non-X symbol, each paying its symbol."""
    assert pay(["ODD", "5"], [5, 3], payment=[3, 5])["payment_legal"] is True
    # fewer or more dice than symbols
    assert pay(["ODD", "5"], [5, 3, 1], payment=[5])["payment_legal"] is False
    assert pay(["ODD", "5"], [5, 3, 1], payment=[5, 3, 1])["payment_legal"] is False
    # a die the Reserve does not hold (multiset: only one 5)
    r = pay(["ODD", "5"], [5, 3], payment=[5, 5])
    assert r["payment_legal"] is False and "does not hold" in r["explanation"]
    # right count, from the Reserve, but cannot cover the symbols
    r = pay(["ODD", "5"], [5, 3, 2], payment=[5, 2])
    assert r["payable"] is True and r["payment_legal"] is False
    # X takes no die
    assert pay(["X", "EVN"], [2], payment=[2])["payment_legal"] is True


def test_malformed_symbols_name_every_index():
    """PayloadError names cost[i] for each malformed symbol."""
    with pytest.raises(PayloadError) as caught:
        pay(["4+", "Q", "7x", "ODD", "+3", "odd", "100"], [1])
    assert [e["field"] for e in caught.value.errors] == [
        "cost[1]",
        "cost[2]",
        "cost[4]",
        "cost[5]",
        "cost[6]",
    ]


def test_schema_errors_list_every_field():
    """Contract: a payload that does not fit lists every problem with its field."""
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "pay-cost", {"cost": ["4+", 3], "reserve": [0, 2], "payment": "x"})
    assert {e["field"] for e in caught.value.errors} == {"cost[1]", "reserve[0]", "payment"}


# --- brute-force comparison -----------------------------------------------------------

symbols = st.one_of(
    st.sampled_from(["ODD", "EVN", "X"]),
    st.integers(1, 8).map(lambda n: f"{n}+"),
    st.integers(1, 8).map(lambda n: f"-{n}"),
    st.integers(1, 8).map(str),
)
small_dice = st.lists(st.integers(1, 9), max_size=6)


def brute_force(cost, reserve):
    needed = [parse_symbol(s) for s in cost if s != "X"]
    return any(
        all(sym.accepts(reserve[j]) for sym, j in zip(needed, chosen, strict=True))
        for chosen in permutations(range(len(reserve)), len(needed))
    )


def assignment_is_valid(cost, dice, assignment):
    needed = [s for s in cost if s != "X"]
    assert [a["cost"] for a in assignment] == needed
    assert all(parse_symbol(a["cost"]).accepts(a["die"]) for a in assignment)
    assert not Counter(a["die"] for a in assignment) - Counter(dice)


@given(st.lists(symbols, max_size=5), small_dice)
def test_property_agrees_with_brute_force(cost, reserve):
    """pay-cost is payable exactly when some permutation of Reserve dice pays every symbol."""
    r = pay(cost, reserve)
    assert r["payable"] == brute_force(cost, reserve)
    if r["payable"]:
        assignment_is_valid(cost, reserve, r["assignment"])
    else:
        assert r["assignment"] is None


@given(st.lists(symbols, max_size=4), small_dice, st.lists(st.integers(1, 9), max_size=5))
def test_property_payment_legal_agrees_with_brute_force(cost, reserve, payment):
    """Quick-start Playing Cards: payment_legal agrees with a brute-force search."""
    r = pay(cost, reserve, payment)
    needed = sum(1 for s in cost if s != "X")
    expected = (
        not Counter(payment) - Counter(reserve)
        and len(payment) == needed
        and brute_force(cost, payment)
    )
    assert r["payment_legal"] == expected
    if expected:
        assignment_is_valid(cost, payment, r["payment_assignment"])
