"""Deck legality: 30 to 50 cards, at most three of a name, at most one [GPU] card.

"A player can only have up to one [GPU] card in their deck": up to one, so a
deck without a Great Power Unit is legal. Names match ignoring case and
surrounding spaces (card-pools.md), so two spellings of one card are counted
together.
"""

from __future__ import annotations

from typing import Any

from rules_engine.dataclysm import refs
from rules_engine.dataclysm.schemas import field, flag, number
from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling, violation

MIN_CARDS, MAX_CARDS = 30, 50
MAX_COPIES = 3
MAX_GPU = 1

SCHEMA = {
    "type": "object",
    "required": ["cards"],
    "properties": {
        "cards": field(
            "Cards",
            "The deck as card names with how many copies of each.",
            type="array",
            maxItems=100,
            items=field(
                "Entry",
                "One card name and its number of copies.",
                type="object",
                required=["name", "count", "gpu"],
                properties={
                    "name": field(
                        "Name",
                        "The card's name, e.g. DRAGON.",
                        type="string",
                        pattern=r"\S",
                        maxLength=80,
                    ),
                    "count": number("Copies", "How many copies of it the deck has.", 1, 99),
                    "gpu": flag("[GPU]", "The card has the [GPU] keyword (a Great Power Unit)."),
                },
            ),
        )
    },
}

EXAMPLE = {
    "cards": [
        {"name": "DRAGON", "count": 3, "gpu": False},
        {"name": "FIREWALL", "count": 3, "gpu": False},
        {"name": "OVERCLOCK", "count": 1, "gpu": True},
        {"name": "PING", "count": 3, "gpu": False},
        {"name": "PATCH", "count": 3, "gpu": False},
        {"name": "ROOTKIT", "count": 3, "gpu": False},
        {"name": "SANDBOX", "count": 3, "gpu": False},
        {"name": "TROJAN", "count": 3, "gpu": False},
        {"name": "CACHE", "count": 3, "gpu": False},
        {"name": "DAEMON", "count": 3, "gpu": False},
        {"name": "KERNEL", "count": 2, "gpu": False},
    ]
}


@question(
    "dataclysm",
    "deck-legality",
    title="Is this deck legal?",
    summary="30 to 50 cards, up to three of a name, up to one [GPU] card.",
    schema=SCHEMA,
    example=EXAMPLE,
)
def deck_legality(payload: dict[str, Any]) -> dict[str, Any]:
    """List every violation so a player fixes the list once."""
    entries = payload["cards"]
    totals: dict[str, int] = {}
    shown: dict[str, str] = {}
    gpu: dict[str, tuple[bool, int]] = {}
    errors = []
    for i, entry in enumerate(entries):
        key = entry["name"].strip().casefold()
        shown.setdefault(key, entry["name"].strip())
        totals[key] = totals.get(key, 0) + entry["count"]
        is_gpu = entry["gpu"]
        if key in gpu and gpu[key][0] != is_gpu:
            errors.append(
                {
                    "field": f"cards[{i}].gpu",
                    "message": f"{shown[key]} is listed at cards[{gpu[key][1]}] with a "
                    "different [GPU] flag; cards with the same name are the same card.",
                }
            )
        gpu.setdefault(key, (is_gpu, i))
    if errors:
        raise PayloadError(errors)

    size = sum(totals.values())
    violations = []
    if not MIN_CARDS <= size <= MAX_CARDS:
        violations.append(
            violation(
                refs.DECK_SIZE,
                f"The deck has {size} card{'' if size == 1 else 's'}; it must have "
                f"{MIN_CARDS} to {MAX_CARDS}.",
            )
        )
    for key, n in totals.items():
        if n > MAX_COPIES:
            violations.append(
                violation(
                    refs.SAME_NAME,
                    f"{shown[key]}: {n} copies; at most {MAX_COPIES} cards may share a name.",
                )
            )
    gpu_cards = sum(totals[key] for key, (flagged, _) in gpu.items() if flagged)
    if gpu_cards > MAX_GPU:
        names = ", ".join(shown[key] for key, (flagged, _) in gpu.items() if flagged)
        violations.append(
            violation(
                refs.GPU, f"{gpu_cards} [GPU] cards ({names}); a deck may have at most {MAX_GPU}."
            )
        )
    if len(violations) == 1:
        explanation = f"The deck is illegal. {violations[0]['message']}"
    elif violations:
        # The first problem read out; every one is in ``violations`` with its rule.
        explanation = (
            f"The deck is illegal for {len(violations)} reasons. "
            f"The first: {violations[0]['message']}"
        )
    else:
        explanation = (
            f"The deck is legal: {size} cards, no name more than {MAX_COPIES} times and "
            f"{gpu_cards} [GPU] card{'' if gpu_cards == 1 else 's'} (up to one is allowed)."
        )
    return ruling(
        explanation,
        [refs.DECK_SIZE, refs.SAME_NAME, refs.GPU],
        legal=not violations,
        violations=violations,
        size=size,
        gpu_cards=gpu_cards,
    )
