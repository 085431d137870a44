"""Combat damage (§4.2 Damage Resolution, §5.5 Combat, Appendix A).

All combat damage is dealt at once, from the state the payload describes: the
creatures' current power and toughness (equipment included) and the damage
they already carry this turn. Two rules shape most disputes: once blocked,
always blocked (a blocked attacker whose blockers are gone deals no combat
damage, except a trampler's excess), and a creature that changed control has
left combat (it deals and receives nothing, and whoever it blocked stays
blocked). Trample gives each blocker exactly its remaining toughness and the
rest to the player.
"""

from __future__ import annotations

from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling
from rules_engine.superjack import refs
from rules_engine.superjack.cards import GEM_PATTERN
from rules_engine.superjack.schemas import card, count, field, flag

PLAYER = "player"
MAX_CREATURES = 32


def _creature(role: str, extra: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return field(
        role.capitalize(),
        f"One {role} as it stands now, equipment and effects included.",
        type="object",
        required=["id", "power", "toughness", "damage", *required, "left_combat"],
        properties={
            "id": field(
                "Id",
                "A name for this creature, unique in the payload.",
                type="string",
                minLength=1,
                maxLength=40,
            ),
            "power": count("Power", "Current power."),
            "toughness": count("Toughness", "Current toughness.", 1),
            "damage": count("Marked damage", "Damage already marked on it this turn."),
            **extra,
            "left_combat": flag(
                "Left combat", "It changed control (e.g. Mind Control) after being declared."
            ),
            "equipped": field(
                "Equipped pairs",
                "Pairs equipped to it; they return to play tapped if it dies or is stolen.",
                type="array",
                maxItems=2,
                items=field(
                    "Pair",
                    "Two gems of the same rank and colour.",
                    type="array",
                    minItems=2,
                    maxItems=2,
                    items=card("Gem", "A gem, rank 2-7 then suit.", GEM_PATTERN),
                ),
            ),
        },
    )


SCHEMA = {
    "type": "object",
    "required": ["defender_health", "attackers", "blockers"],
    "properties": {
        "defender_health": count(
            "Defender's health", "The defending player's health before damage.", 1, 999
        ),
        "attackers": field(
            "Attackers",
            "The attacking creatures.",
            type="array",
            maxItems=MAX_CREATURES,
            items=_creature(
                "attacker",
                {
                    "trample": flag("Trample", "It has Trample (the Superjack)."),
                    "blocked": flag(
                        "Blocked",
                        "Blockers were declared for it; stays true even if they were removed.",
                    ),
                },
                ["trample", "blocked"],
            ),
        ),
        "blockers": field(
            "Blockers",
            "The blocking creatures still on the battlefield.",
            type="array",
            maxItems=MAX_CREATURES,
            items=_creature(
                "blocker",
                {
                    "blocking": field(
                        "Blocking", "Id of the attacker it blocks.", type="string", maxLength=40
                    )
                },
                ["blocking"],
            ),
        ),
        "assignment": field(
            "Damage assignment",
            "For an attacker with several blockers: how it splits its damage, "
            "attacker id to {blocker id: damage}.",
            type="object",
            maxProperties=MAX_CREATURES,
            additionalProperties=field(
                "Split",
                "Blocker id to the damage this attacker assigns it.",
                type="object",
                maxProperties=MAX_CREATURES,
                additionalProperties=count("Damage", "Damage assigned to this blocker."),
            ),
        ),
    },
}

EXAMPLE = {
    "defender_health": 20,
    "attackers": [
        {
            "id": "a1",
            "power": 4,
            "toughness": 4,
            "damage": 0,
            "trample": False,
            "blocked": True,
            "left_combat": False,
        },
    ],
    "blockers": [
        {
            "id": "b1",
            "power": 2,
            "toughness": 2,
            "damage": 0,
            "blocking": "a1",
            "left_combat": False,
        },
    ],
    "assignment": {"a1": {"b1": 4}},
}


def _check(payload: dict[str, Any]) -> tuple[list[dict[str, str]], set[str]]:
    """Every inconsistency of the described combat, with its field, and the attackers
    whose assignment names creatures it cannot (their split is not checked further)."""
    errors = []
    bad: set[str] = set()
    seen: dict[str, str] = {}
    attackers = {a["id"]: a for a in payload["attackers"]}
    for group in ("attackers", "blockers"):
        for i, c in enumerate(payload[group]):
            where = f"{group}[{i}]"
            if c["id"] in seen:
                errors.append(
                    {
                        "field": f"{where}.id",
                        "message": f"Id {c['id']!r} is also used by {seen[c['id']]}.",
                    }
                )
            seen.setdefault(c["id"], where)
            if c["damage"] >= c["toughness"]:
                errors.append(
                    {
                        "field": f"{where}.damage",
                        "message": f"{c['id']} already has lethal damage, so it has died "
                        f"(§5.5 Creature Death) and cannot be in combat.",
                    }
                )
    for i, b in enumerate(payload["blockers"]):
        target = attackers.get(b["blocking"])
        if target is None:
            errors.append(
                {
                    "field": f"blockers[{i}].blocking",
                    "message": f"No attacker has id {b['blocking']!r}.",
                }
            )
        elif not target["blocked"]:
            errors.append(
                {
                    "field": f"blockers[{i}].blocking",
                    "message": f"{b['blocking']} is marked unblocked but {b['id']} blocks it.",
                }
            )
    for aid, split in (payload.get("assignment") or {}).items():
        attacker = attackers.get(aid)
        if attacker is None:
            errors.append({"field": f"assignment.{aid}", "message": f"No attacker has id {aid!r}."})
            continue
        live = {b["id"] for b in _live_blockers(payload, attacker)}
        for bid in split:
            if bid not in live:
                bad.add(aid)
                errors.append(
                    {
                        "field": f"assignment.{aid}.{bid}",
                        "message": f"{bid} is not blocking {aid} in combat; damage can "
                        "only be assigned to its blockers.",
                    }
                )
    return errors, bad


def _live_blockers(payload: dict[str, Any], attacker: dict[str, Any]) -> list[dict[str, Any]]:
    if attacker["left_combat"]:
        return []
    return [
        b for b in payload["blockers"] if b["blocking"] == attacker["id"] and not b["left_combat"]
    ]


def _split(
    attacker: dict[str, Any], live: list[dict[str, Any]], given: dict[str, int] | None
) -> tuple[dict[str, int], list[dict[str, str]]]:
    """How a blocked attacker's damage lands: {blocker id or "player": damage}, errors."""
    aid, power = attacker["id"], attacker["power"]
    where = f"assignment.{aid}"
    lethal = {b["id"]: b["toughness"] - b["damage"] for b in live}
    if attacker["trample"]:
        need = sum(lethal.values())
        if power >= need:
            split = {**lethal, PLAYER: power - need}
            if given is not None and any(given.get(b, 0) != n for b, n in lethal.items()):
                return split, [
                    {
                        "field": where,
                        "message": f"With Trample, {aid} gives each "
                        "blocker exactly its remaining toughness "
                        f"({_show(lethal)}) and the rest to the player (§5.5 Trample "
                        "Math).",
                    }
                ]
            return split, []
        if len(live) == 1:
            return {live[0]["id"]: power}, []
        if given is None:
            return {}, [
                {
                    "field": where,
                    "message": f"{aid} cannot kill all its blockers; "
                    "its controller chooses how to split its damage (§4.2 Damage "
                    "Resolution).",
                }
            ]
        over = [b for b, n in given.items() if n > lethal[b]]
        if over or sum(given.values()) != power:
            return {}, [
                {
                    "field": where,
                    "message": f"A trampler short of killing every "
                    f"blocker assigns all {power} damage, no blocker more than its "
                    f"remaining toughness ({_show(lethal)}).",
                }
            ]
        return dict(given), []
    if len(live) == 1 and given is None:
        return {live[0]["id"]: power}, []
    if given is None:
        if power == 0:
            return {}, []
        return {}, [
            {
                "field": where,
                "message": f"{aid} is blocked by "
                f"{', '.join(lethal)}; its controller chooses how to split its "
                f"{power} damage (§4.2 Damage Resolution).",
            }
        ]
    if sum(given.values()) != power:
        return {}, [
            {
                "field": where,
                "message": f"{aid} deals all its {power} damage; the "
                f"split gives {sum(given.values())} (§4.2 Damage Resolution).",
            }
        ]
    return dict(given), []


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _show(amounts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in amounts.items())


@question(
    "superjack",
    "combat",
    title="How does combat damage resolve?",
    summary="Simultaneous damage, splits among blockers, once blocked always blocked, "
    "Trample and creatures that left combat (§4.2, §5.5, Appendix A).",
    schema=SCHEMA,
    example=EXAMPLE,
)
def combat(payload: dict[str, Any]) -> dict[str, Any]:
    """Resolve combat damage in one step so every death and point of damage is accounted for."""
    errors, bad = _check(payload)
    assignment = payload.get("assignment") or {}
    dealt: dict[str, dict[str, int]] = {}
    citations = [refs.DAMAGE_RESOLUTION]
    notes = []
    for a in payload["attackers"]:
        if a["left_combat"] or a["id"] in bad:
            continue
        live = _live_blockers(payload, a)
        if not a["blocked"]:
            split = {PLAYER: a["power"]}
        elif not live:
            citations += [refs.BLOCKED_ATTACKERS, refs.A_BLOCKERS_DESTROYED]
            split = {PLAYER: a["power"]} if a["trample"] else {}
            notes.append(
                f"once blocked, always blocked: {a['id']} has no blocker left and "
                + (
                    "its Trample damage all reaches the player"
                    if a["trample"]
                    else "deals no combat damage"
                )
            )
        else:
            split, problems = _split(a, live, assignment.get(a["id"]))
            errors += problems
        if a["trample"] and a["blocked"]:
            citations += [refs.TRAMPLE_MATH, refs.SUPERJACK]
        dealt[a["id"]] = {t: n for t, n in split.items() if n > 0}
    if errors:
        raise PayloadError(errors)

    attackers = {a["id"]: a for a in payload["attackers"]}
    for b in payload["blockers"]:
        target = attackers[b["blocking"]]
        if not b["left_combat"] and not target["left_combat"] and b["power"] > 0:
            dealt[b["id"]] = {target["id"]: b["power"]}

    creatures = payload["attackers"] + payload["blockers"]
    taken = {c["id"]: 0 for c in creatures}
    to_player = 0
    for split in dealt.values():
        for target, n in split.items():
            if target == PLAYER:
                to_player += n
            else:
                taken[target] += n
    dies = [
        c["id"]
        for c in creatures
        if taken[c["id"]] and c["damage"] + taken[c["id"]] >= c["toughness"]
    ]
    gone = [c for c in creatures if c["id"] in dies or c["left_combat"]]
    returned = [gem for c in gone for pair in c.get("equipped", []) for gem in pair]
    health = payload["defender_health"] - to_player

    if dies:
        citations.append(refs.CREATURE_DEATH)
    if any(c["left_combat"] for c in creatures):
        citations.append(refs.LEAVING_COMBAT)
        left = [c["id"] for c in creatures if c["left_combat"]]
        notes.append(
            f"leaving combat: {_and(left)} "
            + ("neither deals nor receives" if len(left) == 1 else "neither deal nor receive")
            + " combat damage"
        )
    if any(c["id"] in dies and c.get("equipped") for c in creatures):
        citations.append(refs.A_EQUIPMENT_DIES)
    if any(c["left_combat"] and c.get("equipped") for c in creatures):
        citations.append(refs.A_EQUIPMENT_STOLEN)
    if health <= 0:
        citations.append(refs.VICTORY_CONDITION)

    explanation = "All combat damage is dealt at once: " + (
        f"{_and(dies)} {'dies' if len(dies) == 1 else 'die'}" if dies else "nothing dies"
    )
    explanation += f", and the defending player takes {to_player} (health {health})."
    if returned:
        notes.append(f"equipped gems {_and(returned)} return to play tapped")
    if notes:
        # Every note in one second sentence, so the ruling reads aloud in two.
        text = "; ".join(notes)
        explanation += f" {text[0].upper()}{text[1:]}."
    return ruling(
        explanation,
        citations,
        defender_health=health,
        defender_defeated=health <= 0,
        damage_to_player=to_player,
        dies=dies,
        damage=taken,
        dealt=dealt,
        gems_returned_tapped=returned,
    )
