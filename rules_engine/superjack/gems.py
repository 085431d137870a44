"""Gems and what they make: straights (§6.2) and the runs Royal Charge accepts (§6.4).

A straight is three or more untapped gems of one colour with consecutive ranks;
colour, not suit, matters, so a red straight may mix hearts and diamonds. Two
red (or black) gems can share a rank, which gives several straights over the
same ranks; the judge sees every one, since which gem is tapped can matter
(for a pair, say).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import pairwise, product
from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling
from rules_engine.superjack import refs
from rules_engine.superjack.cards import COLORS, GEM_PATTERN, color, gem_value
from rules_engine.superjack.data import DATA_SCHEMA, data_for, straight_power
from rules_engine.superjack.schemas import card, field, flag

MIN_STRAIGHT = 3


def is_run(gems: Sequence[str]) -> bool:
    """Whether ``gems`` are one colour with distinct consecutive ranks (any length ≥ 1)."""
    if not gems or len({color(g) for g in gems}) != 1:
        return False
    values = sorted(gem_value(g) for g in gems)
    return all(b == a + 1 for a, b in pairwise(values))


def duplicate_cards(cards: Iterable[tuple[str, str]]) -> list[dict[str, str]]:
    """A PayloadError entry for every card listed again: each card exists once."""
    seen: dict[str, str] = {}
    errors = []
    for path, code in cards:
        if code in seen:
            errors.append({"field": path, "message": f"{code} is already listed at {seen[code]}."})
        else:
            seen[code] = path
    return errors


def find_straights(untapped: Iterable[str], data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every straight (maximal or not) the untapped gems can make, by colour then rank."""
    by_color: dict[str, dict[int, list[str]]] = {c: defaultdict(list) for c in COLORS}
    for gem in untapped:
        by_color[color(gem)][gem_value(gem)].append(gem)
    found = []
    for col in COLORS:
        ranks = by_color[col]
        for low in sorted(ranks):
            high = low
            while high + 1 in ranks:
                high += 1
            # low..high is the longest run starting at low; every window of it counts.
            for end in range(low + MIN_STRAIGHT - 1, high + 1):
                window = range(low, end + 1)
                maximal = low - 1 not in ranks and end + 1 not in ranks
                power = straight_power(data, len(window))
                for cards in product(*(ranks[v] for v in window)):
                    found.append(
                        {
                            "cards": list(cards),
                            "length": len(window),
                            "color": col,
                            "maximal": maximal,
                            "power": power.get("name"),
                            "sacrifice": power.get("sacrifice"),
                        }
                    )
    return found


SCHEMA = {
    "type": "object",
    "required": ["gems"],
    "properties": {
        "gems": field(
            "Gems",
            "The gems the player controls, tapped or not.",
            type="array",
            maxItems=24,
            items=field(
                "Gem",
                "One gem in play.",
                type="object",
                required=["card", "tapped"],
                properties={
                    "card": card("Card", "The gem, rank 2-7 then suit (e.g. 3H).", GEM_PATTERN),
                    "tapped": flag("Tapped", "A tapped (or equipped) gem cannot join a straight."),
                },
            ),
        ),
        "data": DATA_SCHEMA,
    },
}

EXAMPLE = {
    "gems": [
        {"card": "3H", "tapped": False},
        {"card": "4D", "tapped": False},
        {"card": "5H", "tapped": False},
        {"card": "6D", "tapped": True},
        {"card": "2S", "tapped": False},
    ]
}


@question(
    "superjack",
    "straights",
    title="Which straights can these gems make?",
    summary="Every run of three or more untapped same-colour consecutive gems (§6.2).",
    schema=SCHEMA,
    example=EXAMPLE,
)
def straights(payload: dict[str, Any]) -> dict[str, Any]:
    """List the straights so a judge can check a claimed activation against all of them."""
    gems = payload["gems"]
    errors = duplicate_cards((f"gems[{i}].card", g["card"]) for i, g in enumerate(gems))
    if errors:
        raise PayloadError(errors)
    found = find_straights((g["card"] for g in gems if not g["tapped"]), data_for(payload))
    citations = [refs.STRAIGHTS, refs.A_STRAIGHTS_COLOR]
    if not found:
        explanation = (
            "No straight: a straight needs three or more untapped gems of one colour "
            "with consecutive ranks."
        )
    else:
        longest = max(s["length"] for s in found)
        explanation = (
            f"{len(found)} straight{'s' if len(found) > 1 else ''} can be made from untapped "
            f"same-colour consecutive gems, the longest of {longest} cards."
        )
        if any(s["power"] is None for s in found):
            explanation += (
                " The game data does not say which power a "
                + " or ".join(sorted({f"{s['length']}-card" for s in found if s["power"] is None}))
                + " straight has (the §6.2 table is missing from the rules text)."
            )
        if any(s["sacrifice"] for s in found):
            citations.append(refs.A_STRAIGHT_SACRIFICE)
    return ruling(explanation, citations, straights=found)
