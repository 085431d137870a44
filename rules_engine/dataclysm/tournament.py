"""Dataclysm's tournament rules: Iacta's 900-series, adopted, without its Sideboard.

The Dataclysm rules text ("These rules apply to any Dataclysm game.") is the rules of one
game between two players: its only words near a penalty are "A player may concede the
game at any time. If they do so, they lose the game." and the game's own end conditions.
It has no matches, no tournament, judge or official, and names no infraction, warning,
Game Loss, Match Loss or Disqualification ("Cheat" there is a card type: "A player may
play up to one Cheat card from their hand during their turn."). So a judge at a
Dataclysm event penalises under the Iacta comprehensive rules' 900-series (203.1,
903-907), the only penalty rules Arbiter holds, and every escalation ruling says so.

The Sideboard rule (902) is not adopted: it is written against Iacta's deck rules
("must remain fully legal under all rules in Section 200", syndicates and Splash Cards),
and the Dataclysm text knows only the deck ("A deck must have a minimum of 30 cards and a
maximum of 50.", "up to 3 cards with the same name"), no sideboard.
"""

from __future__ import annotations

from rules_engine.iacta.tournament import TOURNAMENT as IACTA
from rules_engine.tournament import register

TOURNAMENT = register(
    IACTA.adopted_by(
        "dataclysm",
        "the Dataclysm rules text has no penalty rules of its own (it rules one game: "
        "it has no matches, judges or infractions).",
        sideboard=False,
    )
)
