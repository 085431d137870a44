"""Dice Costs: which Reserve dice can pay which cost symbols.

Paying is a bipartite matching of cost symbols to distinct dice, not a greedy
pass: with cost ``["ODD", "5"]`` and Reserve ``[5, 3]`` a greedy 5→ODD strands
the exact 5, yet 3→ODD, 5→5 pays. Rules: quick-start "Playing Cards"; 102.2
(a die above six pays thresholds "N+" and parity, never an exact cost it isn't).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.iacta.common import (
    QS_PLAYING_CARDS,
    array,
    dice,
    join_words,
    obj,
    plural,
    show_dice,
)
from rules_engine.iacta.data import DATA
from rules_engine.registry import question
from rules_engine.ruling import ruling

_NUMBER = r"(0|[1-9][0-9]?)"
_SYMBOL = re.compile(
    rf"^(?:(?P<at_least>{_NUMBER})\+|-(?P<at_most>{_NUMBER})|(?P<exact>{_NUMBER})"
    r"|(?P<word>ODD|EVN|X))$"
)
SYMBOL_HELP = "use N+, -N, ODD, EVN, N or X, with N a whole number from 0 to 99"


@dataclass(frozen=True)
class CostSymbol:
    """One symbol of a Dice Cost; ``kind`` is at_least, at_most, exact, odd, even or free."""

    text: str
    kind: str
    number: int = 0

    def accepts(self, die: int) -> bool:
        """Whether ``die`` pays this symbol (quick-start Playing Cards, 102.2)."""
        if self.kind == "at_least":
            return die >= self.number
        if self.kind == "at_most":
            return die <= self.number
        if self.kind == "exact":
            return die == self.number
        if self.kind == "odd":
            return die % 2 == 1
        if self.kind == "even":
            return die % 2 == 0
        return False  # X consumes no die


@lru_cache(maxsize=256)
def parse_symbol(text: str) -> CostSymbol | None:
    """The symbol ``text`` spells, or None when it is not a Dice Cost symbol."""
    match = _SYMBOL.match(text)
    if match is None:
        return None
    for kind in ("at_least", "at_most", "exact"):
        if match.group(kind) is not None:
            return CostSymbol(text, kind, int(match.group(kind)))
    return CostSymbol(text, {"ODD": "odd", "EVN": "even", "X": "free"}[match.group("word")])


def parse_cost(cost: Sequence[str], field: str = "cost") -> list[CostSymbol]:
    """Parse every symbol; one PayloadError names every malformed one (``cost[2]``)."""
    symbols, problems = [], []
    for i, text in enumerate(cost):
        symbol = parse_symbol(text)
        if symbol is None:
            problems.append(
                {
                    "field": f"{field}[{i}]",
                    "message": f"{text!r} is not a cost symbol: {SYMBOL_HELP}.",
                }
            )
        symbols.append(symbol)
    if problems:
        raise PayloadError(problems)
    return symbols


def match_dice(
    symbols: Sequence[CostSymbol], dice_: Sequence[int]
) -> tuple[list[int] | None, list[int]]:
    """Maximum matching of die-consuming symbols to distinct dice (Kuhn's augmenting paths).

    Returns ``(die_index_per_symbol, [])`` when every non-X symbol gets its own die
    (``-1`` for X), else ``(None, blocking)``: the indices of a set of symbols that
    together can use fewer dice than they need (Hall's condition), for the explanation.
    """
    eligible = [
        [j for j, d in enumerate(dice_) if s.accepts(d)] if s.kind != "free" else []
        for s in symbols
    ]
    owner = [-1] * len(dice_)  # die index -> symbol index

    def augment(i: int, seen: list[bool]) -> bool:
        # A free die first (keeps the assignment in Reserve order), then re-route.
        for j in eligible[i]:
            if owner[j] == -1:
                owner[j] = i
                return True
        for j in eligible[i]:
            if not seen[j]:
                seen[j] = True
                if augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i, symbol in enumerate(symbols):
        if symbol.kind == "free":
            continue
        seen = [False] * len(dice_)
        if not augment(i, seen):
            reached = [j for j, flag in enumerate(seen) if flag]
            blocking = sorted({i, *(owner[j] for j in reached)})
            return None, blocking
    chosen = [-1] * len(symbols)
    for j, i in enumerate(owner):
        if i != -1:
            chosen[i] = j
    return chosen, []


def _assignment(
    symbols: Sequence[CostSymbol], dice_: Sequence[int], chosen: list[int]
) -> list[dict[str, Any]]:
    return [
        {"cost": s.text, "die": dice_[j]} for s, j in zip(symbols, chosen, strict=True) if j != -1
    ]


def find_assignment(cost: Sequence[str], reserve: Sequence[int]) -> list[dict[str, Any]] | None:
    """``[{"cost", "die"}]`` in cost order (no entry for X) paying ``cost``, or None."""
    symbols = parse_cost(cost)
    chosen, _ = match_dice(symbols, reserve)
    return None if chosen is None else _assignment(symbols, reserve, chosen)


def _why_not(
    symbols: list[CostSymbol], reserve: Sequence[int], blocking: list[int], where: str = "Reserve"
) -> str:
    """Why no assignment exists, naming the symbols that compete for too few dice."""
    needed = sum(1 for s in symbols if s.kind != "free")
    if needed > len(reserve):
        held = f"only {len(reserve)}" if reserve else "none"
        return (
            f"the cost takes {plural(needed, 'die', 'dice')} but the {where} "
            f"{show_dice(reserve)} holds {held}"
        )
    names = [symbols[i].text for i in blocking]
    usable = [d for d in reserve if any(symbols[i].accepts(d) for i in blocking)]
    if not usable:
        return f"no die in the {where} {show_dice(reserve)} pays {join_words(names, 'or')}"
    return (
        f"{join_words(names)} need {len(blocking)} different dice but only "
        f"{show_dice(usable)} of the {where} {show_dice(reserve)} can pay any of them"
    )


def pay_cost(
    cost: Sequence[str], reserve: Sequence[int], payment: Sequence[int] | None = None
) -> dict[str, Any]:
    """Can ``reserve`` pay ``cost`` (and is the proposed ``payment`` a legal way to pay it)?"""
    symbols = parse_cost(cost)
    chosen, blocking = match_dice(symbols, reserve)
    payable = chosen is not None
    assignment = None if chosen is None else _assignment(symbols, reserve, chosen)
    shown_cost = " ".join(cost) if cost else "nothing"
    if payable:
        pairs = ", ".join(f"{a['cost']} with {a['die']}" for a in assignment)
        first = f"The Reserve {show_dice(reserve)} can pay {shown_cost}" + (
            f": {pairs}" if pairs else " without spending a die"
        )
    else:
        first = f"The Reserve cannot pay {shown_cost}: {_why_not(symbols, reserve, blocking)}"
    answer: dict[str, Any] = {"payable": payable, "assignment": assignment}
    citations = [QS_PLAYING_CARDS]
    second = None
    if payment is not None:
        legal, paid, why = _check_payment(symbols, reserve, payment)
        answer["payment_legal"] = legal
        answer["payment_assignment"] = paid
        second = f"The payment {show_dice(payment)} is " + (
            "legal" if legal else f"not legal: {why}"
        )
    # One clause, not a sentence of its own, so a ruling stays two sentences (102.2).
    high = (
        f" (a die above {DATA.faces} pays N+, ODD and EVN costs by its value, "
        "but an exact cost only of its own number, 102.2)"
    )
    if any(d > DATA.faces for d in reserve):
        first += high
    if any(d > DATA.faces for d in [*reserve, *(payment or ())]):
        citations.append("102.2")
    text = f"{first}." + (f" {second}." if second else "")
    return ruling(text, citations, **answer)


def _check_payment(
    symbols: list[CostSymbol], reserve: Sequence[int], payment: Sequence[int]
) -> tuple[bool, list[dict[str, Any]] | None, str]:
    """One die per non-X symbol, all drawn from the Reserve, each paying its own symbol."""
    problems = []
    absent = Counter(payment) - Counter(reserve)
    if absent:
        problems.append(
            f"it spends {show_dice(sorted(absent.elements()))}, which the Reserve "
            f"{show_dice(reserve)} does not hold"
        )
    needed = sum(1 for s in symbols if s.kind != "free")
    if len(payment) != needed:
        takes = plural(needed, "die", "dice") if needed else "none"
        problems.append(
            f"it spends {plural(len(payment), 'die', 'dice')} where the cost takes {takes}"
        )
    if problems:
        return False, None, "; ".join(problems)
    chosen, blocking = match_dice(symbols, payment)
    if chosen is None:
        return False, None, _why_not(symbols, payment, blocking, "payment")
    return True, _assignment(symbols, payment, chosen), ""


# --- question -------------------------------------------------------------------

_MAX_COST = 20
_MAX_RESERVE = 30


@question(
    "iacta",
    "pay-cost",
    title="Can this Reserve pay this Dice Cost?",
    summary=(
        "Matches each cost symbol to its own Reserve die (N+, -N, ODD, EVN, N, X; "
        "quick-start Playing Cards, 102.2); optionally checks one proposed payment."
    ),
    schema=obj(
        "Pay a Dice Cost",
        "The card's Dice Cost and the dice in the Reserve.",
        {
            "cost": array(
                "Dice Cost",
                f"The cost symbols in order; {SYMBOL_HELP} (X costs no die).",
                {
                    "type": "string",
                    "title": "Cost symbol",
                    "description": "One of N+, -N, ODD, EVN, N or X.",
                    "maxLength": 8,
                },
                _MAX_COST,
            ),
            "reserve": dice(
                "Reserve", "The final values of the dice in the Reserve.", _MAX_RESERVE
            ),
            "payment": dice(
                "Proposed payment",
                "Optional: the dice the player wants to spend, one per non-X symbol.",
                _MAX_RESERVE,
            ),
        },
        required=["cost", "reserve"],
    ),
    example={"cost": ["4+", "ODD", "3", "X", "-2", "EVN"], "reserve": [5, 1, 3, 2, 6]},
)
def _pay_cost(payload: dict[str, Any]) -> dict[str, Any]:
    return pay_cost(payload["cost"], payload["reserve"], payload.get("payment"))
