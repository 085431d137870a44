"""Winning, losing and draws (the end-of-game rules).

Conceding is a loss; a player who would win and lose at once loses; a player
wins when the opponent loses; both losing is a draw. The text does not say what
happens when both players win at once with neither losing; a two-player game
cannot have two winners, so it is ruled a draw like a double loss.
"""

from __future__ import annotations

from typing import Any

from rules_engine.dataclysm import refs
from rules_engine.dataclysm.schemas import field, flag
from rules_engine.registry import question
from rules_engine.ruling import ruling

PLAYERS = ("A", "B")


def _player(name: str) -> dict[str, Any]:
    return field(
        f"Player {name}",
        f"What is happening to player {name} at this moment.",
        type="object",
        required=["wins", "loses"],
        properties={
            "wins": flag("Wins", "An effect says this player wins the game."),
            "loses": flag("Loses", "A condition makes this player lose the game."),
            "concedes": flag("Concedes", "The player concedes (a loss)."),
        },
    )


SCHEMA = {
    "type": "object",
    "required": list(PLAYERS),
    "properties": {name: _player(name) for name in PLAYERS},
}

EXAMPLE = {"A": {"wins": False, "loses": True}, "B": {"wins": False, "loses": True}}


@question(
    "dataclysm",
    "game-result",
    title="Who won?",
    summary="Win, loss and draw: conceding loses, winning and losing at once loses, both "
    "losing is a draw.",
    schema=SCHEMA,
    example=EXAMPLE,
)
def game_result(payload: dict[str, Any]) -> dict[str, Any]:
    """Settle simultaneous wins and losses in the order the text gives its rules."""
    a, b = PLAYERS
    citations = [refs.WINNING]
    lost = {}
    for name in PLAYERS:
        state = payload[name]
        lost[name] = state["loses"] or bool(state.get("concedes"))
        if state.get("concedes"):
            citations.append(refs.CONCEDING)
        if state["wins"] and lost[name]:
            citations.append(refs.WIN_AND_LOSE)
    won = {name: payload[name]["wins"] and not lost[name] for name in PLAYERS}

    if lost[a] and lost[b]:
        citations.append(refs.BOTH_LOSE)
        return ruling(
            "Both players lose at the same time, so the game is a draw.",
            citations,
            result="draw",
            winner=None,
            loser=None,
        )
    if won[a] and won[b]:
        return ruling(
            "Both players would win at once and neither loses; the rules text does not cover "
            "this, and a two-player game cannot have two winners, so it is ruled a draw.",
            [*citations, refs.BOTH_LOSE],
            result="draw",
            winner=None,
            loser=None,
        )
    for winner, loser in ((a, b), (b, a)):
        if not (lost[loser] or won[winner]):
            continue
        if payload[loser].get("concedes"):
            how = f"{loser} concedes"
        elif lost[loser] and payload[loser]["wins"]:
            how = f"{loser} would win and lose at once, which is a loss"
        elif lost[loser]:
            how = f"{loser} loses"
        else:
            how = "an effect says so"
        return ruling(
            f"{winner} wins because {how}, and the game ends at once.",
            citations,
            result="win",
            winner=winner,
            loser=loser,
        )
    return ruling(
        "Nobody has won or lost, so the game goes on.",
        citations,
        result="ongoing",
        winner=None,
        loser=None,
    )
