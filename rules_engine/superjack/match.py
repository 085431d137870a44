"""Who goes first in each game of a match (§2 Starting the Game, §8 Match Play, v2.3).

Version 2.3 removed every choice: game 1 and the game after a draw are decided
at random, any other game is started by the previous game's loser (superseding
the v2.1 rulings A5 and D5).
"""

from __future__ import annotations

from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.registry import question
from rules_engine.ruling import ruling
from rules_engine.superjack import refs
from rules_engine.superjack.schemas import count, field, flag

#: Best-of-three or best-of-five (§8 Match Play).
MAX_GAMES = 5

_PLAYER = {"type": ["string", "null"], "maxLength": 60}

SCHEMA = {
    "type": "object",
    "required": ["game", "previous"],
    "properties": {
        "game": count(
            "Game", "Which game of the match is about to start (1 for the first).", 1, MAX_GAMES
        ),
        "previous": field(
            "Previous game",
            "How the previous game ended; null for game 1.",
            type=["object", "null"],
            required=["winner", "loser", "draw"],
            properties={
                "winner": field("Winner", "The player who won; null after a draw.", **_PLAYER),
                "loser": field("Loser", "The player who lost; null after a draw.", **_PLAYER),
                "draw": flag("Draw", "The previous game was a draw."),
            },
        ),
    },
}

EXAMPLE = {"game": 2, "previous": {"winner": "A", "loser": "B", "draw": False}}


@question(
    "superjack",
    "first-player",
    title="Who goes first in this game?",
    summary="Random for game 1 and after a draw; otherwise the previous loser (§2, §8, v2.3).",
    schema=SCHEMA,
    example=EXAMPLE,
)
def first_player(payload: dict[str, Any]) -> dict[str, Any]:
    """Name the first player, or say it is random, so no one argues for a choice v2.3 removed."""
    game, previous = payload["game"], payload["previous"]
    errors = []
    if game == 1 and previous is not None:
        errors.append({"field": "previous", "message": "Game 1 has no previous game."})
    if game > 1 and previous is None:
        errors.append({"field": "previous", "message": f"Game {game} needs the previous result."})
    if previous is not None:
        if previous["draw"]:
            for key in ("winner", "loser"):
                if previous[key] is not None:
                    errors.append(
                        {
                            "field": f"previous.{key}",
                            "message": "A drawn game has no winner or loser.",
                        }
                    )
        else:
            if not previous["loser"]:
                errors.append({"field": "previous.loser", "message": "Name the loser."})
            elif previous["winner"] == previous["loser"]:
                errors.append(
                    {"field": "previous.loser", "message": "The loser cannot also be the winner."}
                )
    if errors:
        raise PayloadError(errors)

    citations = [refs.STARTING_THE_GAME, refs.MATCH_PLAY, refs.C_VERSION_2_3]
    if previous is None or previous["draw"]:
        why = (
            "this is the first game of the match"
            if previous is None
            else "the previous game was a draw"
        )
        return ruling(
            f"The first player is determined at random because {why}, and neither player "
            "chooses. The first player skips their first draw step.",
            citations,
            first=None,
            random=True,
        )
    return ruling(
        f"{previous['loser']} lost the previous game, so {previous['loser']} goes first; there "
        "is no choice to make. The first player skips their first draw step.",
        citations,
        first=previous["loser"],
        random=False,
    )
