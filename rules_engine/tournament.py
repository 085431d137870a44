"""Each game's tournament vocabulary, as that game's own package declares it.

A judge penalising a player at an event asks the event's game, not Iacta: which
infractions there are (each with its rule and what it leads to by itself), how
penalties escalate across a match, and whether a between-games Sideboard rule exists.
Every game package registers one :class:`TournamentRules` with :func:`register`
when imported; :func:`rules_for` finds a game's.

A game whose rules text has no tournament rules of its own says so, in one place,
with :meth:`TournamentRules.adopted_by`: it takes another game's rules and the reason,
and every ruling it gives starts by saying whose rules apply.

The consequence kinds are the adjudication contract's (``penalties`` question:
``result`` is ``game_loss``, ``match_loss`` or ``disqualification``), shared by every
game, because they are what the site knows how to apply to a result.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules_engine.errors import UnknownGame
from rules_engine.registry import GAMES

GAME_LOSS, MATCH_LOSS, DQ = "game_loss", "match_loss", "disqualification"
CONSEQUENCE_NAMES: dict[str, str] = {
    GAME_LOSS: "Game Loss",
    MATCH_LOSS: "Match Loss",
    DQ: "Disqualification",
}
"""The rules' own name of each consequence: the one spelling every page, report and print uses."""

Infractions = Mapping[str, tuple[str, tuple[str, ...]]]
"""infraction → (its rule, the consequences it leads to by itself; empty for a warning
that escalates only by count)."""
Ruling = Callable[[dict[str, Any]], dict[str, Any]]


class NoSideboardRules(Exception):
    """The game's tournament rules have no between-games Sideboard rule to check."""


@dataclass(frozen=True)
class TournamentRules:
    """One game's tournament vocabulary and the rulings it gives.

    ``source`` names the rules text the vocabulary comes from; ``adopted_from`` is None
    for a game's own rules, else the game whose rules it takes, and ``why`` says why.
    ``escalation`` answers ``{"penalties": [...]}`` as the contract's ``penalties``
    question does; ``sideboard`` answers the ``sideboard-swap`` payload, or is None.
    """

    game: str
    source: str
    infractions: Infractions
    escalation: Ruling
    sideboard: Ruling | None = None
    adopted_from: str | None = None
    why: str = ""

    def __post_init__(self) -> None:
        unknown = {c for _rule, leads in self.infractions.values() for c in leads}
        unknown -= set(CONSEQUENCE_NAMES)
        if unknown:  # the site could not apply them to a result
            raise ValueError(f"{self.game}: unknown consequences {sorted(unknown)}")

    def adopted_by(self, game: str, why: str, *, sideboard: bool) -> TournamentRules:
        """These rules, taken by ``game`` whose rules text has none of its own.

        ``sideboard``: whether the Sideboard rule comes too (it only fits a game whose
        decks the rule is written for).
        """
        return replace(
            self,
            game=game,
            adopted_from=self.game,
            why=why,
            sideboard=self.sideboard if sideboard else None,
        )

    @property
    def applies(self) -> str:
        """Whose rules apply, in one sentence for the judge (every adopted ruling starts so)."""
        if self.adopted_from is None:
            return f"The {self.source} apply."
        return f"{self.game.capitalize()} events follow the {self.source}: {self.why}"

    def rule_of(self, infraction: str) -> str:
        """The rule an infraction is issued under (KeyError for one the game lacks)."""
        return self.infractions[infraction][0]

    def penalties(self, penalties: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The escalation ruling on a match's penalties, in issue order.

        An adopted ruling's explanation first says whose rules apply; a game's own
        ruling reads as its package writes it.
        """
        ruling = self.escalation({"penalties": [dict(p) for p in penalties]})
        if self.adopted_from is not None:
            ruling = {**ruling, "explanation": f"{self.applies} {ruling['explanation']}"}
        return {**ruling, "tournament_rules": self.source}

    def sideboard_swap(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The ruling on a between-games configuration, or NoSideboardRules."""
        if self.sideboard is None:
            raise NoSideboardRules(self.game)
        return self.sideboard(payload)


_RULES: dict[str, TournamentRules] = {}


def register(rules: TournamentRules) -> TournamentRules:
    """Make ``rules`` the answer for its game (each game package calls this once)."""
    _RULES[rules.game] = rules
    return rules


def rules_for(game: str) -> TournamentRules:
    """The tournament rules of ``game``, importing its package first; UnknownGame if none."""
    if game not in _RULES and game in GAMES:
        importlib.import_module(f"rules_engine.{game}")
    found = _RULES.get(game)
    if found is None:
        raise UnknownGame(game)
    return found


def every_infraction() -> dict[str, str]:
    """Every infraction any game knows, with its rule (the first game's to name it wins),
    in the games' order: what a penalty record may hold, whatever its event's game."""
    known: dict[str, str] = {}
    for game in GAMES:
        for infraction, (rule, _leads) in rules_for(game).infractions.items():
            known.setdefault(infraction, rule)
    return known
