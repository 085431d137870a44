"""Scoring: Flushing a Register, the Iacta! win and the final Cash Out.

Rules: quick-start "Scoring Combinations", "Phase 2: Play" (Flush), "How to Win";
102.2 (dice above six still make combos); 104.2d (Iacta! is an instant win).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.iacta.common import (
    QS_HOW_TO_WIN,
    QS_PLAY,
    QS_SCORING,
    array,
    dice,
    integer,
    join_words,
    obj,
    show_dice,
    string,
)
from rules_engine.iacta.data import DATA, Combo, GameData
from rules_engine.registry import question
from rules_engine.ruling import ruling

# --- pure functions -----------------------------------------------------------


def combos_covering(values: Sequence[int], *, data: GameData = DATA) -> list[Combo]:
    """Every table combo that uses *all* the dice (a die left over forfeits the bonus)."""
    count = len(values)
    if count == 0:
        return []
    counts = Counter(values)
    shape = sorted(counts.values(), reverse=True)
    low, high = min(values), max(values)
    found = []
    for combo in data.combos:
        if combo.dice != count:
            continue
        if combo.kind == "run":
            # Consecutive values, any height: 7-8-9 is a Minor Run (102.2).
            matched = len(counts) == count and high - low == count - 1
        elif combo.kind == "sigil":
            # "Exactly 1 through 6": a 2-7 run is not a Sigil.
            matched = sorted(values) == list(range(1, data.faces + 1))
        else:
            # Groups of equal values, each group a distinct value ("Two distinct Trios").
            matched = shape == list(combo.groups)
        if matched:
            found.append(combo)
    return found


def best_combo(values: Sequence[int], *, data: GameData = DATA) -> Combo | None:
    """The covering combo with the highest bonus (first in the table on a tie), or None."""
    best = None
    for combo in combos_covering(values, data=data):
        if best is None or combo.bonus > best.bonus:
            best = combo
    return best


def register_score(values: Sequence[int], *, data: GameData = DATA) -> dict[str, Any]:
    """``{"sum", "combo", "bonus", "score"}`` for one Register, without the ruling text."""
    combo = best_combo(values, data=data)
    total = sum(values)
    bonus = combo.bonus if combo else 0
    return {
        "sum": total,
        "combo": combo.slug if combo else None,
        "bonus": bonus,
        "score": total + bonus,
    }


def flush_score(values: Sequence[int], *, data: GameData = DATA) -> dict[str, Any]:
    """The ruling for Flushing one Register: sum of the dice plus the best covering combo."""
    result = register_score(values, data=data)
    citations = [QS_SCORING, QS_PLAY]
    shown = show_dice(sorted(values, reverse=True))
    if not values:
        text = "The Register is empty, so Flushing it scores 0."
    elif result["combo"]:
        name = data.combo(result["combo"]).name
        text = (
            f"The dice {shown} sum to {result['sum']} and together form a {name} "
            f"(+{result['bonus']}), so the Register scores {result['score']}."
        )
    else:
        text = (
            f"The dice {shown} sum to {result['sum']} and no combo uses every die, "
            f"so the Register scores {result['score']} with no bonus."
        )
    if any(v > data.faces for v in values):
        citations.append("102.2")
        text += f" Dice above {data.faces} still count towards combos (102.2)."
    return ruling(text, citations, **result)


def iacta_check(registers: Sequence[Sequence[int]], *, data: GameData = DATA) -> dict[str, Any]:
    """Whether the three Registers hold exactly three of each value 1-6, all slots full."""
    wanted = Counter({v: data.iacta_copies_per_value for v in range(1, data.faces + 1)})
    held = Counter(v for register in registers for v in register)
    missing = sorted((wanted - held).elements())
    extra = sorted((held - wanted).elements())
    slots = data.register_count * data.register_slots
    filled = sum(len(r) for r in registers)
    iacta = not missing and not extra and filled == slots
    citations = ["104.2d", QS_HOW_TO_WIN]
    if iacta:
        text = (
            f"All {slots} Register slots hold exactly three of each value 1 to {data.faces}, "
            "so the player may shout Iacta! and wins at once, an Instant Resolution (104.2d)."
        )
    else:
        reasons = [] if filled == slots else [f"only {filled} of {slots} slots are filled"]
        if missing:
            reasons.append(f"missing {show_dice(missing)}")
        if extra:
            reasons.append(f"not wanted {show_dice(extra)}")
        text = (
            f"No Iacta!: it needs exactly three of each value 1 to {data.faces} filling all "
            f"{slots} slots, but {join_words(reasons)}."
        )
    return ruling(text, citations, iacta=iacta, filled=filled, missing=missing, extra=extra)


def cash_out(players: Sequence[dict[str, Any]], *, data: GameData = DATA) -> dict[str, Any]:
    """Flush every Register of every player, add banked points, name the winner or a roll-off.

    ``players`` is ``[{"id", "banked", "registers": [[...], [...], [...]]}]`` with final die values.
    """
    ids = [p["id"] for p in players]
    problems = [
        {"field": f"players[{i}].id", "message": f"Player {pid!r} is listed twice."}
        for i, pid in enumerate(ids)
        if pid in ids[:i]
    ]
    if problems:
        raise PayloadError(problems)
    flushes = {p["id"]: [register_score(r, data=data) for r in p["registers"]] for p in players}
    totals = {p["id"]: p["banked"] + sum(f["score"] for f in flushes[p["id"]]) for p in players}
    best = max(totals.values())
    leaders = [pid for pid, total in totals.items() if total == best]
    winner = leaders[0] if len(leaders) == 1 else None
    roll_off = winner is None
    parts = [
        f"{p['id']} {totals[p['id']]} ({p['banked']} banked + "
        f"{totals[p['id']] - p['banked']} flushed)"
        for p in players
    ]
    text = f"Flushing every Register gives {join_words(parts)}"
    if winner is not None:
        text += f", so {winner} wins with {best}."
    else:
        text += f"; {join_words(leaders)} tie on {best} and break the tie with a 2d6 roll-off."
    citations = [QS_HOW_TO_WIN, QS_SCORING]
    if any(v > data.faces for p in players for r in p["registers"] for v in r):
        citations.append("102.2")
    return ruling(
        text,
        citations,
        totals=totals,
        winner=winner,
        roll_off=roll_off,
        tied=leaders if roll_off else [],
        flushes=flushes,
    )


# --- questions -----------------------------------------------------------------

_REGISTER = dice(
    "Register",
    "The final values of the dice in one Register, 0 to 6 dice (values may exceed 6, 102.2).",
    DATA.register_slots,
)


def _registers(description: str) -> dict[str, Any]:
    count = DATA.register_count
    return array("Registers", description, _REGISTER, max_items=count, min_items=count)


@question(
    "iacta",
    "flush-score",
    title="Flush score of one Register",
    summary=(
        "Sum of the dice plus the best combo that uses every die "
        "(quick-start Scoring Combinations, 102.2)."
    ),
    schema=obj(
        "Flush a Register",
        "The dice in the Register being Flushed.",
        {"dice": _REGISTER},
        required=["dice"],
    ),
    example={"dice": [4, 4, 4, 2, 2]},
)
def _flush_score(payload: dict[str, Any]) -> dict[str, Any]:
    return flush_score(payload["dice"])


@question(
    "iacta",
    "iacta-check",
    title="May the player shout Iacta!?",
    summary="Three of each value 1-6 across the three full Registers wins at once (104.2d).",
    schema=obj(
        "Iacta! check",
        "The player's three Registers.",
        {"registers": _registers("The player's three Registers, each 0 to 6 dice.")},
        required=["registers"],
    ),
    example={"registers": [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4], [5, 5, 5, 6, 6, 6]]},
)
def _iacta_check(payload: dict[str, Any]) -> dict[str, Any]:
    return iacta_check(payload["registers"])


_PLAYER = obj(
    "Player",
    "One player at the Cash Out.",
    {
        "id": string("Player", "The player's name or id, unique in this game."),
        "banked": integer("Banked points", "Points banked before the Cash Out.", -999_999, 999_999),
        "registers": _registers("The player's three Registers, each 0 to 6 final die values."),
    },
    required=["id", "banked", "registers"],
)


@question(
    "iacta",
    "cash-out",
    title="Cash Out: final scoring and winner",
    summary=(
        "Flush every Register, add banked points; highest total wins, a tie goes "
        "to a 2d6 roll-off (quick-start How to Win)."
    ),
    schema=obj(
        "Cash Out",
        "Every player still in the game with banked points and Registers.",
        {"players": array("Players", "Every player in the game.", _PLAYER, 8, min_items=1)},
        required=["players"],
    ),
    example={
        "players": [
            {"id": "A", "banked": 40, "registers": [[2, 3, 4], [], [6]]},
            {"id": "B", "banked": 52, "registers": [[], [], []]},
        ]
    },
)
def _cash_out(payload: dict[str, Any]) -> dict[str, Any]:
    return cash_out(payload["players"])
