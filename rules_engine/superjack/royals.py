"""Royal Sacrifice (§6.5, Appendix A): the one rule that looks at suits.

Royal Charge, the other royal rule, is decided when a creature is paid for
(``summoning``).
"""

from __future__ import annotations

from typing import Any

from rules_engine.registry import question
from rules_engine.ruling import ruling, violation
from rules_engine.superjack import refs
from rules_engine.superjack.cards import suit
from rules_engine.superjack.schemas import card, field, flag


def _and(cards: list[str]) -> str:
    return cards[0] if len(cards) == 1 else f"{', '.join(cards[:-1])} and {cards[-1]}"


_FRESH = "Entered play this turn (untrained); untrained royals may still be tapped."


def _royal(name: str, letter: str, extra: dict[str, Any], required: tuple[str, ...] = ()) -> dict:
    return field(
        name,
        f"The {name} to tap.",
        type="object",
        required=["card", "tapped", *required],
        properties={
            "card": card("Card", f"The {name}: {letter} then suit.", f"^{letter}[HDSC]$"),
            "tapped": flag("Tapped", f"The {name} is tapped."),
            **extra,
        },
    )


SCHEMA = {
    "type": "object",
    "required": ["jack", "queen", "king"],
    "properties": {
        "jack": _royal(
            "Jack",
            "J",
            {
                "stacked": flag("Stacked", "The Jack is part of a stack."),
                "fresh": flag("Fresh", _FRESH),
            },
            required=("stacked",),
        ),
        "queen": _royal("Queen", "Q", {"fresh": flag("Fresh", _FRESH)}),
        "king": _royal("King", "K", {"fresh": flag("Fresh", _FRESH)}),
    },
}

EXAMPLE = {
    "jack": {"card": "JH", "tapped": False, "stacked": False, "fresh": True},
    "queen": {"card": "QH", "tapped": False, "fresh": False},
    "king": {"card": "KH", "tapped": False},
}


@question(
    "superjack",
    "royal-sacrifice",
    title="Can these royals be sacrificed?",
    summary="Jack, Queen and King of one suit, untapped, with a single unstacked Jack (§6.5).",
    schema=SCHEMA,
    example=EXAMPLE,
)
def royal_sacrifice(payload: dict[str, Any]) -> dict[str, Any]:
    """Check every requirement at once, since a judge must name each one that fails."""
    royals = [payload["jack"], payload["queen"], payload["king"]]
    cards = [r["card"] for r in royals]
    citations = [refs.ROYAL_SACRIFICE]
    violations = []
    reasons = []  # each violation as a clause, so the ruling reads as one sentence
    if len({suit(c) for c in cards}) != 1:
        citations.append(refs.A_SUIT_REQUIREMENT)
        violations.append(
            violation(
                refs.ROYAL_SACRIFICE,
                f"{', '.join(cards)} are not all one suit; the same colour is not enough.",
            )
        )
        reasons.append(f"{_and(cards)} are not all one suit (the same colour is not enough)")
    tapped = [r["card"] for r in royals if r["tapped"]]
    if tapped:
        violations.append(
            violation(
                refs.ROYAL_SACRIFICE, f"{', '.join(tapped)} must be untapped to be tapped for it."
            )
        )
        reasons.append(f"{_and(tapped)} {'is' if len(tapped) == 1 else 'are'} already tapped")
    if payload["jack"]["stacked"]:
        citations.append(refs.A_SACRIFICE_STACKED)
        violations.append(
            violation(
                refs.ROYAL_SACRIFICE,
                f"{cards[0]} is stacked; only a single, unstacked Jack can be sacrificed.",
            )
        )
        reasons.append(
            f"{cards[0]} is stacked, and only a single, unstacked Jack can be sacrificed"
        )
    if any(r.get("fresh") for r in royals):
        citations.append(refs.A_UNTRAINED_ROYALS)
    legal = not violations
    if legal:
        explanation = (
            f"Legal: tap {', '.join(cards)} and sacrifice {cards[0]} to destroy target creature; "
            "it targets, so it opens a response window."
        )
        if any(r.get("fresh") for r in royals):
            explanation += " Being untrained only restricts attacking."
    else:
        explanation = f"Royal Sacrifice is not possible: {'; '.join(reasons)}."
    return ruling(
        explanation,
        citations,
        legal=legal,
        violations=violations,
        tap=cards if legal else [],
        sacrificed=cards[0] if legal else None,
        response_window=legal,
    )
