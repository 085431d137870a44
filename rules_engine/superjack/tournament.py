"""Superjack's tournament rules: Iacta's 900-series, adopted, without its Sideboard.

The Superjack rules text has no penalty or tournament rules of its own. Its one word on
organised play is §8 Match Play: "In a rematch, the loser of the previous game goes
first", "After a draw, determine the first player at random again", "Play best-of-three
or best-of-five for a match". It names no infraction, warning, Game Loss, Match Loss or
Disqualification, and no judge or tournament official; its appendices (clarifications
and errata, the multiplayer variant, the change log) add none. So a judge at a Superjack
event penalises under the Iacta comprehensive rules' 900-series (203.1, 903-907), the
only penalty rules Arbiter holds, and every escalation ruling says so.

The Sideboard rule (902) is not adopted: it is written against Iacta's deck rules
("must remain fully legal under all rules in Section 200", syndicates and Splash Cards),
and a Superjack deck is "One standard 52-card deck per player (remove 8s, 9s, and 10s to
create a 40-card deck)" (§1 What You Need to Play), with no sideboard at all.
"""

from __future__ import annotations

from rules_engine.iacta.tournament import TOURNAMENT as IACTA
from rules_engine.superjack import refs
from rules_engine.tournament import register

TOURNAMENT = register(
    IACTA.adopted_by(
        "superjack",
        f"the Superjack rules text has no penalty rules of its own ({refs.MATCH_PLAY} says only "
        "who goes first in a rematch and that a match is best-of-three or best-of-five).",
        sideboard=False,
    )
)
