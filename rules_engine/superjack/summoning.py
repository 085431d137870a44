"""Paying for a creature: exact cost and colour (§3.2, §5.2), the Paid-Pair Bonus
(§6.3) and Royal Charge (§6.4).

The payment is the gems tapped at this moment plus energy spent from the pool.
Pool energy a gem made earlier this phase still counts as that gem for the
Paid-Pair Bonus, but only gems tapped at this moment can make the straight of a
Royal Charge: pool energy (Mine's included) never counts for it. An Ace is taken
to be played in Creature Mode (the only mode that summons).
"""

from __future__ import annotations

from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling, violation
from rules_engine.superjack import refs
from rules_engine.superjack.cards import (
    COLORS,
    CREATURE_NAMES,
    CREATURE_PATTERN,
    GEM_PATTERN,
    a_creature,
    color,
    rank,
)
from rules_engine.superjack.data import DATA_SCHEMA, creature, data_for, pair_bonus
from rules_engine.superjack.gems import duplicate_cards, is_run
from rules_engine.superjack.schemas import card, field

EQUIP_SLOTS = 2

SCHEMA = {
    "type": "object",
    "required": ["creature", "gems", "pool"],
    "properties": {
        "creature": card(
            "Creature", "The creature being played: J, Q, K or A, then suit.", CREATURE_PATTERN
        ),
        "gems": field(
            "Gems tapped now",
            "The gems tapped at this moment to pay (only these can make a Royal Charge).",
            type="array",
            maxItems=10,
            items=card("Gem", "A gem, rank 2-7 then suit (e.g. 2H).", GEM_PATTERN),
        ),
        "pool": field(
            "Pool energy spent",
            "Energy units spent from the energy pool, one entry per unit; empty if none.",
            type="array",
            maxItems=10,
            items=field(
                "Energy unit",
                "One unit of pool energy and the gem that made it.",
                type="object",
                required=["color", "gem"],
                properties={
                    "color": field("Colour", "The energy's colour.", enum=list(COLORS)),
                    "gem": field(
                        "Made by gem",
                        "The gem tapped earlier this phase that made this unit; "
                        "null for energy no single gem made (Mine).",
                        type=["string", "null"],
                        pattern=GEM_PATTERN,
                        maxLength=2,
                    ),
                },
            ),
        ),
        "data": DATA_SCHEMA,
    },
}

EXAMPLE = {"creature": "QH", "gems": ["2H", "2D", "3H", "3D"], "pool": []}


def _payment_errors(gems: list[str], pool: list[dict[str, Any]]) -> list[dict[str, str]]:
    cards = [(f"gems[{i}]", g) for i, g in enumerate(gems)]
    cards += [(f"pool[{i}].gem", u["gem"]) for i, u in enumerate(pool) if u["gem"]]
    errors = duplicate_cards(cards)
    for i, unit in enumerate(pool):
        if unit["gem"] and color(unit["gem"]) != unit["color"]:
            errors.append(
                {
                    "field": f"pool[{i}].color",
                    "message": f"{unit['gem']} makes {color(unit['gem'])} energy, "
                    f"not {unit['color']}.",
                }
            )
    return errors


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def paid_pairs(paid: list[str]) -> list[list[str]]:
    """Pairs (same rank, same colour) among the paid gems, in order of payment."""
    pairs: list[list[str]] = []
    waiting: dict[tuple[str, str], str] = {}
    for gem in paid:
        key = (rank(gem), color(gem))
        if key in waiting:
            pairs.append([waiting.pop(key), gem])
        else:
            waiting[key] = gem
    return pairs


@question(
    "superjack",
    "summon",
    title="Can this creature be paid for like this?",
    summary="Exact cost and colour, Royal Charge and the Paid-Pair Bonus (§3.2, §5.2, §6.3, §6.4).",
    schema=SCHEMA,
    example=EXAMPLE,
)
def summon(payload: dict[str, Any]) -> dict[str, Any]:
    """Rule on a payment and what the creature gets from it, so no judge recounts gems."""
    gems: list[str] = payload["gems"]
    pool: list[dict[str, Any]] = payload["pool"]
    errors = _payment_errors(gems, pool)
    if errors:
        raise PayloadError(errors)

    data = data_for(payload)
    played = payload["creature"]
    name = CREATURE_NAMES[rank(played)]
    stats = creature(data, rank(played))
    cost, needed = stats["cost"], color(played)
    paid = len(gems) + len(pool)
    citations = [refs.COLOR_REQUIREMENT, refs.PLAYING_CREATURES]
    violations = []
    if paid != cost:
        verb = "is" if paid == 1 else "are"
        why = "no overpaying" if paid > cost else "too little"
        violations.append(
            violation(
                refs.COLOR_REQUIREMENT,
                f"{a_creature(name, starts_sentence=True)} costs exactly {cost} energy; "
                f"{paid} {verb} paid ({why}).",
            )
        )
    off_color = [g for g in gems if color(g) != needed]
    off_color += [f"pool energy {i + 1}" for i, u in enumerate(pool) if u["color"] != needed]
    if off_color:
        violations.append(
            violation(
                refs.COLOR_REQUIREMENT,
                f"{played} needs {needed} energy; {_and(off_color)} "
                f"{'is' if len(off_color) == 1 else 'are'} not {needed}.",
            )
        )
    legal = not violations
    if pool:
        citations.append(refs.ENERGY_POOL)

    royal_charge = legal and not pool and is_run(gems)
    pairs = paid_pairs(gems + [u["gem"] for u in pool if u["gem"]]) if legal else []
    equipped, unequipped = pairs[:EQUIP_SLOTS], pairs[EQUIP_SLOTS:]
    citations.append(refs.ROYAL_CHARGE)
    if pairs:
        citations += [refs.PAID_PAIR_BONUS, refs.EQUIP_SLOTS, refs.PAIR_BONUSES]
    if royal_charge:
        citations.append(refs.A_ROYAL_CHARGE_DURATION)
    if rank(played) == "A":
        citations.append(refs.ACE_MODES)
    power, toughness, unknown = _stats_with_pairs(stats, name, equipped, data)

    explanation = _explain(
        played, name, cost, legal, violations, royal_charge, pool, equipped, power, toughness
    )
    if legal and unknown:
        explanation += (
            f" The game data has no number for {' or '.join(unknown)} (the rules text's tables "
            "are missing), so power and toughness are not given."
        )
    return ruling(
        explanation,
        citations,
        legal=legal,
        violations=violations,
        cost=cost,
        paid=paid,
        royal_charge=royal_charge,
        royal_charge_expires="end_of_turn" if royal_charge else None,
        rush=legal and (royal_charge or bool(stats.get("rush"))),
        rank_blocking=royal_charge,
        equipped_pairs=equipped,
        unequipped_pairs=unequipped,
        power=power if legal else None,
        toughness=toughness if legal else None,
    )


def _stats_with_pairs(
    stats: dict[str, Any], name: str, equipped: list[list[str]], data: dict[str, Any]
) -> tuple[int | None, int | None, list[str]]:
    """Printed stats plus pair bonuses; None (and what is unknown) if any number is missing."""
    unknown = []
    power, toughness = stats.get("power"), stats.get("toughness")
    if power is None or toughness is None:
        unknown.append(f"{a_creature(name)}'s stats")
    for pair in equipped:
        bonus = pair_bonus(data, rank(pair[0]))
        if bonus.get("power") is None or bonus.get("toughness") is None:
            unknown.append(f"a pair of {rank(pair[0])}s")
        elif power is not None and toughness is not None:
            power, toughness = power + bonus["power"], toughness + bonus["toughness"]
    if unknown:
        return None, None, unknown
    return power, toughness, []


def _explain(
    played: str,
    name: str,
    cost: int,
    legal: bool,
    violations: list[dict[str, str]],
    royal_charge: bool,
    pool: list[dict[str, Any]],
    equipped: list[list[str]],
    power: int | None,
    toughness: int | None,
) -> str:
    if not legal:
        return f"{played} cannot be played this way: " + " ".join(v["message"] for v in violations)
    text = f"The {name} ({played}) is paid exactly with {cost} {color(played)} energy"
    if royal_charge:
        text += (
            " from a same-colour straight, so it gains Royal Charge (Rush and Rank-Blocking) "
            "until end of turn"
        )
    elif pool:
        text += "; pool energy never counts toward Royal Charge"
    if equipped:
        worn = ", ".join("+".join(p) for p in equipped)
        text += f", and wears the paid pair{'s' if len(equipped) > 1 else ''} {worn} until your "
        text += "next untap step"
    text += "."
    if power is not None and toughness is not None:
        text += f" It is a {power}/{toughness}."
    return text
