"""Turn rules: Curse at the beginning of the turn and the per-turn play limits.

Per turn: up to two Base troops, one Update troop, one Cheat (and only with an
eligible target), one Method, and any number of Settings. The text sets no
limit for Ritual troops (their cost or condition is on the card), so the
limits never stop one.
"""

from __future__ import annotations

from typing import Any

from rules_engine.dataclysm import refs
from rules_engine.dataclysm.schemas import field, flag, number
from rules_engine.registry import question
from rules_engine.ruling import ruling

CURSE_DECAY = 5

#: kind -> (per-turn limit or None for none, citation, what the text calls it)
LIMITS: dict[str, tuple[int | None, str, str]] = {
    "base_troop": (2, refs.TROOP_LIMIT, "Base troop"),
    "update_troop": (1, refs.TROOP_LIMIT, "Update troop"),
    "ritual_troop": (None, refs.TROOP_KINDS, "Ritual troop"),
    "cheat": (1, refs.CHEAT, "Cheat"),
    "method": (1, refs.METHOD, "Method"),
    "settings": (None, refs.SETTINGS, "Settings card"),
}

CURSE_SCHEMA = {
    "type": "object",
    "required": ["hp", "curse"],
    "properties": {
        "hp": number("HP", "The player's HP at the beginning of their turn.", -999, 999),
        "curse": number("Curse", "The player's Curse value.", 0, 999),
    },
}


@question(
    "dataclysm",
    "curse",
    title="What does Curse do this turn?",
    summary="At the beginning of the turn the player takes their Curse in damage, then Curse "
    "drops by 5 (not below 0).",
    schema=CURSE_SCHEMA,
    example={"hp": 30, "curse": 12},
)
def curse(payload: dict[str, Any]) -> dict[str, Any]:
    """Apply Curse before the draw step, damage first and decay second, as the text orders."""
    hp, value = payload["hp"], payload["curse"]
    after = max(value - CURSE_DECAY, 0)
    if value:
        explanation = (
            f"Before the draw step the player takes {value} damage from Curse ({hp} to "
            f"{hp - value} HP), then Curse drops by {CURSE_DECAY} to {after}."
        )
    else:
        explanation = "Curse is 0, so the player takes no damage and Curse stays 0."
    return ruling(explanation, [refs.CURSE], hp=hp - value, curse=after, damage=value)


KINDS = list(LIMITS)

PLAY_SCHEMA = {
    "type": "object",
    "required": ["played", "proposed", "has_target"],
    "properties": {
        "played": field(
            "Already played",
            "The kinds of card already played this turn, in order.",
            type="array",
            maxItems=60,
            items=field("Kind", "The kind of card played.", enum=KINDS),
        ),
        "proposed": field("Proposed", "The kind of card the player wants to play now.", enum=KINDS),
        "has_target": flag(
            "Has a target", "An eligible target exists (it decides whether a Cheat may be played)."
        ),
    },
}


@question(
    "dataclysm",
    "play-limit",
    title="May the player play this card now?",
    summary="Per-turn limits: two Base troops, one Update troop, one Cheat (with a target), "
    "one Method, any Settings.",
    schema=PLAY_SCHEMA,
    example={"played": ["base_troop", "cheat"], "proposed": "base_troop", "has_target": True},
)
def play_limit(payload: dict[str, Any]) -> dict[str, Any]:
    """Count only the proposed card's kind, since each limit is independent of the others."""
    kind = payload["proposed"]
    limit, citation, name = LIMITS[kind]
    used = payload["played"].count(kind)
    citations = [citation]
    if kind == "ritual_troop":
        citations.append(refs.TROOP_LIMIT)
    if limit is not None and used >= limit:
        legal = False
        explanation = (
            f"No: a player may play up to {limit} {name}{'s' if limit > 1 else ''} a turn and "
            f"has already played {used}."
        )
    elif kind == "cheat" and not payload["has_target"]:
        legal = False
        explanation = "No: a Cheat needs an eligible target to be played, and there is none."
    else:
        legal = True
        if limit is None and kind == "ritual_troop":
            explanation = (
                "Yes as far as play limits go: the rules set no per-turn limit for Ritual troops "
                "(only the card's own cost or condition)."
            )
        elif limit is None:
            explanation = "Yes: a player may play as many Settings cards as they can in a turn."
        else:
            explanation = f"Yes: this is {name} {used + 1} of the {limit} allowed this turn."
    return ruling(explanation, citations, legal=legal, played_of_kind=used, limit=limit)
