"""The turn: limits on actions in the Play phase and what the Maintenance phase does.

Rules: quick-start "Phase 1: Maintenance" and "Phase 2: Play"; 401.2 (draw what
is left), 402.1 (a discarded die goes back to the Supply), 503.3/503.4
(cancelled actions still count).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules_engine.iacta.common import (
    QS_MAINTENANCE,
    QS_PLAY,
    array,
    boolean,
    enum,
    integer,
    join_words,
    obj,
    plural,
)
from rules_engine.iacta.data import DATA, GameData
from rules_engine.registry import question
from rules_engine.ruling import ruling, violation

VARIABLE_ACTIONS: tuple[str, ...] = (
    "roll",
    "prune",
    "cycle",
    "set",
    "retrieve",
    "deploy",
    "insert",
    "flush",
)
CARD_PLAY = "card_play"
ACTIONS: tuple[str, ...] = (*VARIABLE_ACTIONS, CARD_PLAY)


def action_cost(action: str, *, data: GameData = DATA) -> int:
    """Variable actions an action uses (Flush two, the others one, a card play none)."""
    if action == CARD_PLAY:
        return 0
    return data.flush_cost if action == "flush" else 1


def tally(taken: Sequence[str], *, data: GameData = DATA) -> dict[str, Any]:
    """Count a turn's declared actions; cancelled ones count too (503.3, 503.4).

    The first Set of the turn is free and outside the repeat rule; every later
    action is remembered so it cannot be made again.
    """
    variable_used = card_plays = 0
    free_set_used = False
    made: set[str] = set()
    for action in taken:
        if action == CARD_PLAY:
            card_plays += 1
        elif action == "set" and not free_set_used:
            free_set_used = True
        else:
            variable_used += action_cost(action, data=data)
            made.add(action)
    return {
        "variable_actions_used": variable_used,
        "card_plays_used": card_plays,
        "free_set_used": free_set_used,
        "made": made,
    }


def turn_action(
    taken: Sequence[str],
    proposed: str,
    is_first_players_first_turn: bool,
    *,
    data: GameData = DATA,
) -> dict[str, Any]:
    """Whether ``proposed`` may be declared after ``taken`` this turn, and every reason why not."""
    counts = tally(taken, data=data)
    used, plays = counts["variable_actions_used"], counts["card_plays_used"]
    limit = data.variable_actions
    violations = []
    reasons = []  # each violation as a clause, so the ruling reads in two sentences
    citations = [QS_PLAY]
    cost = 0
    if proposed == CARD_PLAY:
        if is_first_players_first_turn:
            violations.append(
                violation(QS_PLAY, "The first player makes no card play on their first turn.")
            )
            reasons.append("the first player makes no card play on their first turn")
        if plays >= data.card_plays:
            citations.append("503.4")
            violations.append(
                violation(
                    QS_PLAY,
                    f"Both card plays of the turn are used ({plays} of {data.card_plays}); "
                    "a cancelled card play is not refunded (503.4).",
                )
            )
            reasons.append(
                "both card plays of the turn are used, and a cancelled one is not refunded (503.4)"
            )
        spent = f"card play {plays + 1} of {data.card_plays}"
    elif proposed == "set" and not counts["free_set_used"]:
        spent = "the turn's first Set, which costs no variable action"
    else:
        cost = action_cost(proposed, data=data)
        if proposed in counts["made"]:
            citations.append("503.3")
            violations.append(
                violation(
                    "503.3",
                    f"{proposed.capitalize()} was already made this turn; a variable action "
                    "may not be made twice, even if it was cancelled.",
                )
            )
            reasons.append(
                "it was already made this turn, and a variable action may not be made twice, "
                "even if it was cancelled (503.3)"
            )
        if used + cost > limit:
            in_use = f"{used} of {limit} {'is' if used == 1 else 'are'} already used"
            violations.append(
                violation(
                    QS_PLAY,
                    f"{proposed.capitalize()} costs {plural(cost, 'variable action')} and "
                    f"{in_use}.",
                )
            )
            reasons.append(f"it costs {plural(cost, 'variable action')} and {in_use}")
        spent = f"{plural(cost, 'variable action')}, {used + cost} of {limit}"
    legal = not violations
    name = "A card play" if proposed == CARD_PLAY else proposed.capitalize()
    if legal:
        text = f"{name} is legal now: it uses {spent}."
    else:
        text = f"{name} is not legal now: {reasons[0]}."
        if len(reasons) > 1:
            text += f" Also, {join_words(reasons[1:])}."
    return ruling(
        text,
        citations,
        legal=legal,
        variable_actions_used=used,
        card_plays_used=plays,
        action_cost=cost,
        violations=violations,
    )


def maintenance(
    hand: int,
    deck: int,
    reserve: int,
    is_first_turn: bool,
    *,
    draw: int | None = None,
    hand_limit: int | None = None,
    reserve_limit: int | None = None,
    data: GameData = DATA,
) -> dict[str, Any]:
    """Cards drawn and discarded and dice returned in the Maintenance phase.

    ``draw``, ``hand_limit`` and ``reserve_limit`` replace the quick-start numbers
    when a face-up card changes them (101.1), e.g. "Your Reserve may hold 4 dice".
    """
    wanted = data.draw if draw is None else draw
    limit = data.hand_limit if hand_limit is None else hand_limit
    keep = data.reserve_limit if reserve_limit is None else reserve_limit
    drawn = min(wanted, deck)
    hand_after_draw = hand + drawn
    discard = 0 if is_first_turn else max(0, hand_after_draw - limit)
    returned = max(0, reserve - keep)
    citations = [QS_MAINTENANCE]
    sentences = []
    if drawn < wanted:
        citations.append("401.2")
        if drawn == 0:
            sentences.append(f"Draw nothing, as the Deck is empty (401.2), for a hand of {hand}")
        else:
            sentences.append(
                f"Draw {plural(drawn, 'card')}, all the Deck has left (401.2), "
                f"for a hand of {hand_after_draw}"
            )
    else:
        sentences.append(f"Draw {plural(drawn, 'card')} for a hand of {hand_after_draw}")
    if discard:
        sentences.append(f"discard {plural(discard, 'card')} down to {limit}")
    elif is_first_turn and hand_after_draw > limit:
        sentences.append(f"keep all {hand_after_draw}, as there is no discard on the first turn")
    else:
        sentences.append("no discard")
    if returned:
        citations.append("402.1")
        if returned == reserve:
            sentences.append("return every Reserve die to the Supply")
        else:
            sentences.append(f"return {returned} of the {reserve} Reserve dice to the Supply")
    elif reserve == 0:
        sentences.append("the Reserve is empty")
    else:
        stay = "stays" if reserve == 1 else "stay"
        sentences.append(f"the Reserve's {plural(reserve, 'die', 'dice')} {stay}")
    text = "; ".join(sentences) + "."
    if (draw, hand_limit, reserve_limit) != (None, None, None):
        citations.append("101.1")
        text += (
            f" Card effects in play make it draw {wanted}, hand limit {limit} "
            f"and Reserve limit {keep} (101.1)."
        )
    return ruling(
        text,
        citations,
        draw=drawn,
        discard=discard,
        return_to_supply=returned,
        hand_after=hand_after_draw - discard,
        deck_after=deck - drawn,
        reserve_after=reserve - returned,
    )


# --- questions -------------------------------------------------------------------


@question(
    "iacta",
    "turn-action",
    title="Is this action legal now?",
    summary=(
        "Two variable actions (Flush costs two) and two card plays a turn, no variable "
        "action twice, first Set free, no card play on the first player's first turn "
        "(quick-start Phase 2: Play, 503.3)."
    ),
    schema=obj(
        "Turn action",
        "The actions declared so far this turn and the one proposed.",
        {
            "is_first_players_first_turn": boolean(
                "First player's first turn", "True during the first turn of the first player."
            ),
            "taken": array(
                "Actions taken",
                "Actions already declared this turn, in order; cancelled ones count (503.3).",
                enum("Action", "A variable action or card_play.", ACTIONS),
                50,
            ),
            "proposed": enum("Proposed action", "The action the player wants to make.", ACTIONS),
        },
        required=["is_first_players_first_turn", "taken", "proposed"],
    ),
    example={
        "is_first_players_first_turn": False,
        "taken": ["set", "roll", "card_play"],
        "proposed": "flush",
    },
)
def _turn_action(payload: dict[str, Any]) -> dict[str, Any]:
    return turn_action(
        payload["taken"], payload["proposed"], payload["is_first_players_first_turn"]
    )


def _count(title: str, description: str) -> dict[str, Any]:
    return integer(title, description, 0, 200)


@question(
    "iacta",
    "maintenance",
    title="What happens in the Maintenance phase?",
    summary=(
        "Draw 2 (or what is left, 401.2), discard down to 5 except on the first turn, "
        "return Reserve dice above 3 to the Supply (quick-start Phase 1: Maintenance)."
    ),
    schema=obj(
        "Maintenance",
        "Cards in hand and Deck and dice in the Reserve as the turn begins.",
        {
            "hand": _count("Hand", "Cards in hand before drawing."),
            "deck": _count("Deck", "Cards left in the Deck."),
            "reserve": _count("Reserve", "Dice in the Reserve as the turn begins."),
            "is_first_turn": boolean("First turn", "True on the player's first turn."),
            "draw": _count("Cards drawn", "Optional: a card effect changes the draw (101.1)."),
            "hand_limit": _count(
                "Hand limit", "Optional: a card effect changes the hand limit (101.1)."
            ),
            "reserve_limit": _count(
                "Reserve limit", "Optional: a card effect changes the Reserve limit (101.1)."
            ),
        },
        required=["hand", "deck", "reserve", "is_first_turn"],
    ),
    example={"hand": 4, "deck": 1, "reserve": 5, "is_first_turn": False},
)
def _maintenance(payload: dict[str, Any]) -> dict[str, Any]:
    return maintenance(
        payload["hand"],
        payload["deck"],
        payload["reserve"],
        payload["is_first_turn"],
        draw=payload.get("draw"),
        hand_limit=payload.get("hand_limit"),
        reserve_limit=payload.get("reserve_limit"),
    )
