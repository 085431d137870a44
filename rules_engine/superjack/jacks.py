"""Stacking Jacks (§3.2 Jack Special Rules, §6.6 Jack Stacking & Superjack, Appendix A).

Only untapped Jacks are added, but the base may be tapped: §6.6 allows stacking
onto an attacking (so tapped) Jack mid-combat, and the stack keeps the base's
role. Colour never matters. Marked damage carries over as the sum of the parts.
A stack of four or more Jacks is the Superjack and has Trample. Printed stats
come from the game data's power progression; sizes it has no numbers for give
null power and toughness.
"""

from __future__ import annotations

from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling, violation
from rules_engine.superjack import refs
from rules_engine.superjack.data import DATA_SCHEMA, data_for, jack_stats
from rules_engine.superjack.schemas import count, field, flag

EQUIP_SLOTS = 2
SUPERJACK_SIZE = 4
#: Four Jacks per deck; Mind Control can bring an opponent's four under your control.
MAX_JACKS = 8

_FRESH = "Entered play (or changed control) this turn, so it is untrained."

SCHEMA = {
    "type": "object",
    "required": ["base", "adding", "added_this_turn"],
    "properties": {
        "base": field(
            "Base",
            "The Jack or stack being added onto.",
            type="object",
            required=["jacks", "damage", "tapped", "fresh"],
            properties={
                "jacks": count(
                    "Jacks", "How many Jacks it already is (1 for a single Jack).", 1, MAX_JACKS - 1
                ),
                "damage": count("Marked damage", "Damage marked on it this turn."),
                "tapped": flag("Tapped", "It is tapped (e.g. attacking)."),
                "fresh": flag("Fresh", _FRESH),
            },
        ),
        "adding": field(
            "Jacks added",
            "The Jacks (or stacks) being added onto the base now.",
            type="array",
            minItems=1,
            maxItems=MAX_JACKS - 1,
            items=field(
                "Jack added",
                "One Jack, or a stack, added onto the base.",
                type="object",
                required=["damage", "tapped", "fresh"],
                properties={
                    "jacks": count(
                        "Jacks", "How many Jacks it is; leave empty for one.", 1, MAX_JACKS - 1
                    ),
                    "damage": count("Marked damage", "Damage marked on it this turn."),
                    "tapped": flag("Tapped", "It is tapped; tapped Jacks cannot be stacked."),
                    "fresh": flag("Fresh", _FRESH),
                },
            ),
        ),
        "added_this_turn": count(
            "Added earlier this turn",
            "Jacks already added to this base earlier this turn.",
            0,
            MAX_JACKS - 1,
        ),
        "data": DATA_SCHEMA,
    },
}

EXAMPLE = {
    "base": {"jacks": 2, "damage": 1, "tapped": False, "fresh": False},
    "adding": [{"damage": 0, "tapped": False, "fresh": True}],
    "added_this_turn": 0,
}


@question(
    "superjack",
    "stack-jacks",
    title="What does stacking these Jacks make?",
    summary="Untapped Jacks only, overencumbrance, training, marked damage and the power "
    "progression (§3.2, §6.6, Appendix A).",
    schema=SCHEMA,
    example=EXAMPLE,
)
def stack_jacks(payload: dict[str, Any]) -> dict[str, Any]:
    """Rule on a stack in one answer: legality, its size, stats, damage and what it may do."""
    base, adding = payload["base"], payload["adding"]
    added = sum(j.get("jacks", 1) for j in adding)
    jacks = base["jacks"] + added
    if jacks > MAX_JACKS:
        raise PayloadError.single(
            "adding", f"That makes {jacks} Jacks; two decks hold only {MAX_JACKS}."
        )
    citations = [refs.JACK_SPECIAL_RULES, refs.STACKING_RULES, refs.A_STACKING_COLOR]
    tapped = [i + 1 for i, j in enumerate(adding) if j["tapped"]]
    violations = []
    if tapped:
        violations.append(
            violation(
                refs.STACKING_RULES,
                f"Only untapped Jacks may be stacked; added Jack {', '.join(map(str, tapped))} "
                f"{'is' if len(tapped) == 1 else 'are'} tapped.",
            )
        )
    legal = not violations
    if not legal:
        jacks, added = base["jacks"], 0
        parts = [base]
    else:
        parts = [base, *adding]
    damage = sum(p["damage"] for p in parts)
    added_total = payload["added_this_turn"] + added
    overencumbered = added_total >= 2
    trained = not any(p["fresh"] for p in parts)
    superjack = jacks >= SUPERJACK_SIZE
    power, toughness = jack_stats(data_for(payload), jacks)

    if legal:
        citations.append(refs.POWER_PROGRESSION)
        if damage:
            citations.append(refs.A_MARKED_DAMAGE)
        if added_total:
            citations += [refs.OVERENCUMBERED, refs.A_OVERENCUMBERED]
        if base["tapped"]:
            citations.append(refs.STACKING_DURING_COMBAT)
        if superjack:
            citations.append(refs.SUPERJACK)
        if not trained:
            citations.append(refs.UNTRAINED_RULE)
        citations += [refs.A_STACKED_EQUIP_SLOTS, refs.A_GRAVEDIGGER_STACKED]
        stats = (
            f"a {power}/{toughness}"
            if power is not None and toughness is not None
            else "of unknown power and toughness (the game data has no number for "
            f"{jacks} Jacks; the §6.6 table is missing)"
        )
        title = " (the Superjack, with Trample)" if superjack else ""
        explanation = f"The stack becomes {jacks} Jacks{title}, {stats}, carrying {damage} damage."
        state = []
        if overencumbered:
            state.append(
                f"overencumbered ({added_total} Jacks added this turn), so it cannot "
                "attack this turn"
            )
        if not trained:
            state.append("untrained, since a component entered play this turn")
        if state:
            explanation += " It is " + " and ".join(state) + "."
    else:
        explanation = "The Jacks cannot be stacked: " + violations[0]["message"]
    return ruling(
        explanation,
        citations,
        legal=legal,
        violations=violations,
        jacks=jacks,
        damage=damage,
        overencumbered=overencumbered,
        trained=trained,
        superjack=superjack,
        trample=superjack,
        power=power,
        toughness=toughness,
        tapped=base["tapped"],
        may_attack=trained and not overencumbered and not base["tapped"],
        equip_slots=EQUIP_SLOTS,
        cards_to_graveyard_on_death=jacks,
    )
