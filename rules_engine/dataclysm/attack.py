"""The Attack step (turn structure and attack rules of the Dataclysm text).

Troops attack once each, in Selection Order over the active player's field
(front row left to right, then back row). A troop in column c hits the first
troop it can in the opponent's column c, front slot before back slot; an empty
slot, a troop it cannot hit, or a troop destroyed earlier in the step is passed
over, and with nothing to hit it attacks the opponent. Hits do not strike back:
the text gives no damage to the attacker. The first player's first turn has no
Attack step; troops that entered during the step or have Startup Lag do not
attack.

The text lists no loss condition for reaching 0 HP, so the step is resolved to
the end and ``defender_hp`` may be 0 or less; ``game-result`` decides the game.
"""

from __future__ import annotations

from typing import Any

from rules_engine.dataclysm import refs
from rules_engine.dataclysm.field import duplicate_ids, occupied
from rules_engine.dataclysm.schemas import ROWS, field, flag, number, rows, troop_id
from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling

PLAYER = "player"

_STATS = {
    "id": troop_id(),
    "atk": number("ATK", "Current attack.", -99, 99),
    "hp": number("HP", "Current health points.", 1, 999),
}

_ATTACKER = field(
    "Troop",
    "The active player's troop in this slot, or null if empty.",
    type=["object", "null"],
    required=["id", "atk", "hp"],
    properties={
        **_STATS,
        "entered_this_step": flag(
            "Entered this step",
            "It entered the field during this Attack step, so it does not attack.",
        ),
        "startup_lag": flag(
            "Startup Lag", "It has the Startup Lag condition, so it does not attack."
        ),
    },
)

_DEFENDER = field(
    "Troop",
    "The defending player's troop in this slot, or null if empty.",
    type=["object", "null"],
    required=["id", "atk", "hp", "can_be_hit"],
    properties={
        **_STATS,
        "can_be_hit": flag("Can be hit", "False if no attacker can hit it (it is passed over)."),
        "unhittable_by": field(
            "Cannot be hit by",
            "Ids of attacking troops that cannot hit it, when only some cannot.",
            type="array",
            maxItems=8,
            items=field("Attacker id", "An attacking troop's id.", type="string", maxLength=40),
        ),
    },
)

SCHEMA = {
    "type": "object",
    "required": ["attacker", "defender", "first_turn_of_first_player"],
    "properties": {
        "attacker": field(
            "Active player's field",
            "The field of the player whose Attack step it is.",
            type="object",
            required=list(ROWS),
            properties=rows(_ATTACKER, "The active player"),
        ),
        "defender": field(
            "Defending player's field",
            "The opponent's field and HP.",
            type="object",
            required=[*ROWS, "hp"],
            properties={
                **rows(_DEFENDER, "The defending player"),
                "hp": number("Player HP", "The defending player's HP before the step.", -999, 999),
            },
        ),
        "first_turn_of_first_player": flag(
            "First player's first turn", "The player who played first is on their first turn."
        ),
    },
}

EXAMPLE = {
    "attacker": {
        "front": [{"id": "t1", "atk": 3, "hp": 2}, None, None, None],
        "back": [None, None, None, None],
    },
    "defender": {
        "front": [{"id": "e1", "atk": 1, "hp": 2, "can_be_hit": True}, None, None, None],
        "back": [None, None, None, None],
        "hp": 30,
    },
    "first_turn_of_first_player": False,
}


@question(
    "dataclysm",
    "attack-step",
    title="What happens in this Attack step?",
    summary="Every troop attacks once, front row then back row, left to right; front slot, "
    "then back slot, then the player.",
    schema=SCHEMA,
    example=EXAMPLE,
)
def attack_step(payload: dict[str, Any]) -> dict[str, Any]:
    """Play out the whole step, since each hit can change what the next troop hits."""
    attacking, defending = payload["attacker"], payload["defender"]
    errors = duplicate_ids({"attacker": attacking, "defender": defending})
    if errors:
        raise PayloadError(errors)
    player_hp = defending["hp"]
    if payload["first_turn_of_first_player"]:
        return ruling(
            "The player who plays first skips the Attack step of their first turn, so no troop "
            "attacks.",
            [refs.FIRST_TURN],
            attacks=[],
            destroyed=[],
            skipped=[],
            defender_hp=player_hp,
            hp_after={},
        )

    hp = {card["id"]: card["hp"] for _, _, card in occupied(defending)}
    attacks, destroyed, skipped = [], [], []
    citations = [refs.ATTACK_STEP, refs.ATTACK_TARGETS, refs.ATTACK_DAMAGE]
    for _, column, troop in occupied(attacking):
        if troop.get("entered_this_step") or troop.get("startup_lag"):
            reason = "entered_this_step" if troop.get("entered_this_step") else "startup_lag"
            citations.append(
                refs.ENTERING_ATTACK_STEP if reason == "entered_this_step" else refs.STARTUP_LAG
            )
            skipped.append({"troop": troop["id"], "reason": reason})
            continue
        damage = max(troop["atk"], 0)
        if troop["atk"] <= 0:
            citations.append(refs.ZERO_DAMAGE)
        target = _target(defending, column, troop["id"], hp)
        if target is None:
            player_hp -= damage
            attacks.append({"attacker": troop["id"], "target": PLAYER, "damage": damage})
            continue
        row, victim = target
        hp[victim["id"]] -= damage
        attacks.append(
            {
                "attacker": troop["id"],
                "target": victim["id"],
                "damage": damage,
                "row": row,
                "column": column,
            }
        )
        if hp[victim["id"]] <= 0:
            destroyed.append(victim["id"])
            citations.append(refs.TROOP_DAMAGE)

    hit = {a["target"] for a in attacks if a["target"] != PLAYER and a["damage"]}
    return ruling(
        _explain(attacks, destroyed, skipped, defending["hp"], player_hp),
        citations,
        attacks=attacks,
        destroyed=destroyed,
        skipped=skipped,
        defender_hp=player_hp,
        hp_after={tid: hp[tid] for tid in hp if tid in hit},
    )


def _target(
    defending: dict[str, Any], column: int, attacker: str, hp: dict[str, int]
) -> tuple[str, dict[str, Any]] | None:
    """The first troop in ``column`` (front, then back) the attacker can hit, if any."""
    for row in ROWS:
        troop = defending[row][column]
        if (
            troop is not None
            and hp[troop["id"]] > 0
            and troop["can_be_hit"]
            and attacker not in troop.get("unhittable_by", ())
        ):
            return row, troop
    return None


def _explain(
    attacks: list[dict[str, Any]],
    destroyed: list[str],
    skipped: list[dict[str, str]],
    hp_before: int,
    hp_after: int,
) -> str:
    if not attacks:
        text = "No troop attacks"
    else:
        text = "Troops attack front row then back row, left to right: " + "; ".join(
            f"{a['attacker']} hits {'the player' if a['target'] == PLAYER else a['target']} "
            f"for {a['damage']}"
            for a in attacks
        )
    if skipped:
        text += f" ({', '.join(s['troop'] for s in skipped)} cannot attack this step)"
    text += "."
    # What the step leaves behind, in one second sentence (troop ids keep their case).
    after = []
    if destroyed:
        after.append(f"{_and(destroyed)} {'is' if len(destroyed) == 1 else 'are'} destroyed")
    if hp_after != hp_before:
        player = "the defending player" if after else "The defending player"
        after.append(f"{player} goes from {hp_before} to {hp_after} HP")
    if after:
        text += f" {' and '.join(after)}."
    return text


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
