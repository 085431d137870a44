"""The 40-card deck (§1 What You Need to Play, §2 Deck Composition).

A Superjack deck is a standard deck without its 8s, 9s and 10s: each of the 40
cards exactly once. An 8, 9 or 10 is a real playing card, so it makes the deck
illegal rather than the payload malformed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules_engine.registry import question
from rules_engine.ruling import ruling, violation
from rules_engine.superjack import refs
from rules_engine.superjack.cards import DECK
from rules_engine.superjack.schemas import card, field

_DECK_SET = frozenset(DECK)

SCHEMA = {
    "type": "object",
    "required": ["cards"],
    "properties": {
        "cards": field(
            "Cards",
            "Every card of the deck, rank then suit (e.g. 4D, QS, 10C).",
            type="array",
            maxItems=120,
            items=card("Card", "A playing card: rank 2-10, J, Q, K or A, then suit H, D, S or C."),
        )
    },
}

EXAMPLE = {"cards": list(DECK)}


@question(
    "superjack",
    "deck-legality",
    title="Is this deck legal?",
    summary="The 40-card deck: 2-7 and J Q K A of each suit, each exactly once.",
    schema=SCHEMA,
    example=EXAMPLE,
)
def deck_legality(payload: dict[str, Any]) -> dict[str, Any]:
    """List every way the deck differs from the 40 cards, so one fix makes it legal."""
    counts = Counter(payload["cards"])
    violations = []
    total = len(payload["cards"])
    if total != len(DECK):
        violations.append(
            violation(refs.DECK_COMPOSITION, f"The deck has {total} cards; it must have 40.")
        )
    for code, n in counts.items():
        if code not in _DECK_SET:
            violations.append(
                violation(
                    refs.WHAT_YOU_NEED,
                    f"{code}: 8s, 9s and 10s are removed from a Superjack deck.",
                )
            )
        elif n > 1:
            violations.append(
                violation(refs.DECK_COMPOSITION, f"{code} appears {n} times; each card once.")
            )
    for code in DECK:
        if code not in counts:
            violations.append(violation(refs.DECK_COMPOSITION, f"{code} is missing."))
    if violations:
        explanation = (
            f"The deck is illegal ({len(violations)} problem"
            f"{'s' if len(violations) > 1 else ''}): a Superjack deck is 2-7 and J, Q, K, A "
            "of each suit, each card exactly once, with the 8s, 9s and 10s removed."
        )
    else:
        explanation = "The deck is legal: it is the 40 Superjack cards, each exactly once."
    return ruling(
        explanation,
        [refs.WHAT_YOU_NEED, refs.DECK_COMPOSITION],
        legal=not violations,
        violations=violations,
        size=total,
    )
