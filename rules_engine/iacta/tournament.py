"""Tournament enforcement: Slow Play Warnings for searches (904) and penalty escalation
(203.1, 903.1, 905-907).

Escalation semantics follow the adjudication contract: a warning that completes
both a Game Loss and a Match Loss lists only the Match Loss; after a Match Loss
no further Game or Match Loss is added for that player but a disqualifying
offence still disqualifies; after a Disqualification nothing more is added. A
game already recorded as lost for a player is not lost a second time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules_engine.iacta.common import array, boolean, enum, integer, join_words, obj, plural, string
from rules_engine.iacta.data import DATA, GameData
from rules_engine.registry import adjudicate, question
from rules_engine.ruling import ruling
from rules_engine.tournament import CONSEQUENCE_NAMES, DQ, GAME_LOSS, MATCH_LOSS, TournamentRules
from rules_engine.tournament import register as register_tournament

# --- search time (904.2-904.6) ------------------------------------------------


def max_search_warnings(seconds: float, judged: bool, *, data: GameData = DATA) -> int:
    """Most Slow Play Warnings a search of ``seconds`` allows.

    Judged (904.4, 904.6): one per whole-minute mark passed (61 s → 1, 121 s → 2).
    Unjudged (904.5, 904.6): the first only past minute + 15 s, then one per further minute.
    """
    start = data.search_limit_seconds + (0 if judged else data.unjudged_grace_seconds)
    if seconds <= start:
        return 0
    return math.ceil((seconds - start) / data.warning_interval_seconds)


def search_time(seconds: float, judged: bool, *, data: GameData = DATA) -> dict[str, Any]:
    """The ruling on a search's Slow Play Warnings, with when the next one becomes due."""
    warnings = max_search_warnings(seconds, judged, data=data)
    start = data.search_limit_seconds + (0 if judged else data.unjudged_grace_seconds)
    next_after: float = start + warnings * data.warning_interval_seconds
    if next_after == int(next_after):
        next_after = int(next_after)
    shown = f"{seconds:g} second{'' if seconds == 1 else 's'}"
    if judged:
        citations = ["904.2", "904.4", "904.6"]
        basis = (
            f"in a judged match one Slow Play Warning may be issued past the "
            f"{data.search_limit_seconds:g}-second limit and one more for each further minute"
        )
    else:
        citations = ["904.2", "904.5", "904.6"]
        basis = (
            f"without a table judge the first Slow Play Warning comes only "
            f"{data.unjudged_grace_seconds:g} seconds after the {data.search_limit_seconds:g}-"
            "second limit, and one more for each further minute"
        )
    allowed = (
        f"at most {plural(warnings, 'Slow Play Warning')}" if warnings else "no Slow Play Warning"
    )
    text = (
        f"A search of {shown} allows {allowed}: {basis}. The next becomes possible "
        f"after {next_after:g} seconds."
    )
    return ruling(text, citations, max_warnings=warnings, next_warning_after=next_after)


@question(
    "iacta",
    "search-time",
    title="Slow Play Warnings for a search",
    summary=(
        "One minute to search (904.2); judged: a warning per minute mark passed; "
        "unjudged: the first after 75 s, then one per further minute (904.4-904.6)."
    ),
    schema=obj(
        "Search time",
        "How long the search took and whether the match has a table judge.",
        {
            "seconds": {
                "type": "number",
                "title": "Seconds",
                "description": "Seconds spent searching (shuffling and paying costs excluded, "
                "904.3).",
                "minimum": 0,
                "maximum": 86_400,
            },
            "judged": boolean("Judged match", "True if a judge watches the match (904.4)."),
        },
        required=["seconds", "judged"],
    ),
    example={"seconds": 200, "judged": True},
)
def _search_time(payload: dict[str, Any]) -> dict[str, Any]:
    return search_time(payload["seconds"], payload["judged"])


# --- penalties (203.1, 903.1, 905-907) -----------------------------------------

# The consequences (Game Loss 905.1, 903.1b, 203.1; Match Loss 905.2, 907.3c, 906.8;
# Disqualification 906) are the contract's kinds, shared by every game: rules_engine.tournament.

# infraction -> (its rule, the results it leads to by itself; empty for the warnings that
# escalate only by count: slow play 905.1/905.2, rule violations 907.3c).
INFRACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "slow_play": ("904.4", ()),
    "rule_violation": ("907.3b", ()),
    "unsporting_conduct_warning": ("905.2", (MATCH_LOSS,)),
    "sleeves_not_replaced": ("903.1b", (GAME_LOSS,)),
    "hate_symbols": ("903.1c", (DQ,)),
    "illegal_deck": ("203.1", (GAME_LOSS,)),
    "stalling": ("906.2", (DQ,)),
    "abusive_language": ("906.3", (DQ,)),
    "assault": ("906.4", (DQ,)),
    "cheating": ("906.5", (DQ,)),
    "theft_or_damage": ("906.6", (DQ,)),
    "refused_acknowledgement": ("906.7c", (DQ,)),
    "hygiene_not_remedied": ("906.8", (MATCH_LOSS, DQ)),
    "hidden_trigger": ("907.4", (DQ,)),
}


class _Record:
    """One player's standing in the match as penalties are issued."""

    __slots__ = (
        "disqualified",
        "lost_games",
        "match_lost",
        "rule_violations",
        "slow",
        "slow_by_game",
    )

    def __init__(self) -> None:
        self.slow = 0
        self.slow_by_game: dict[int, int] = {}
        self.rule_violations = 0
        self.lost_games: set[int] = set()
        self.match_lost = False
        self.disqualified = False


def escalate(
    penalties: Sequence[Mapping[str, Any]], *, data: GameData = DATA
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Consequences of the penalties in issue order, and each player's tallies."""
    records: dict[str, _Record] = {}
    consequences: list[dict[str, Any]] = []
    for at, penalty in enumerate(penalties):
        player, infraction, game = penalty["player"], penalty["infraction"], penalty["game"]
        record = records.setdefault(player, _Record())
        if record.disqualified:
            continue
        rule, direct = INFRACTIONS[infraction]
        results: list[tuple[str, str]] = [(result, rule) for result in direct]
        if infraction == "slow_play":
            record.slow += 1
            record.slow_by_game[game] = record.slow_by_game.get(game, 0) + 1
            if record.slow == data.slow_play_per_match_loss:
                results.append((MATCH_LOSS, "905.2"))
            elif record.slow_by_game[game] == data.slow_play_per_game_loss:
                results.append((GAME_LOSS, "905.1"))
        elif infraction == "rule_violation":
            record.rule_violations += 1
            if record.rule_violations == data.rule_violation_match_loss:
                results.append((MATCH_LOSS, "907.3c"))
        for result, why in results:
            if result == GAME_LOSS and (record.match_lost or game in record.lost_games):
                continue
            if result == MATCH_LOSS and record.match_lost:
                continue
            consequences.append(
                {"player": player, "result": result, "game": game, "at": at, "rule": why}
            )
            if result == GAME_LOSS:
                record.lost_games.add(game)
            elif result == MATCH_LOSS:
                record.match_lost = True
            else:
                record.disqualified = True
    tallies = {
        player: {
            "slow_play_warnings": r.slow,
            "rule_violation_warnings": r.rule_violations,
            "games_lost": sorted(r.lost_games),
            "match_loss": r.match_lost,
            "disqualified": r.disqualified,
        }
        for player, r in records.items()
    }
    return consequences, tallies


def penalties(penalties_: Sequence[Mapping[str, Any]], *, data: GameData = DATA) -> dict[str, Any]:
    """The ruling on a match's penalties: every Game Loss, Match Loss and Disqualification."""
    consequences, tallies = escalate(penalties_, data=data)
    citations = [INFRACTIONS[p["infraction"]][0] for p in penalties_]
    citations += [c["rule"] for c in consequences]
    if consequences:
        citations.append("905.3")
        parts = [
            f"{c['player']} gets a {CONSEQUENCE_NAMES[c['result']]} in game {c['game']} "
            f"(penalty {c['at'] + 1}, {c['rule']})"
            for c in consequences
        ]
        text = f"{join_words(parts)}."
        if any(c["result"] != DQ for c in consequences):
            text += " A forfeit from escalation resolves as Win Condition C (905.3)."
    elif penalties_:
        standing = [
            f"{player} has {plural(t['slow_play_warnings'], 'Slow Play Warning')} and "
            f"{plural(t['rule_violation_warnings'], 'Rule Violation Warning')}"
            for player, t in tallies.items()
        ]
        text = (
            f"Nothing escalates yet: {join_words(standing)} "
            f"({data.slow_play_per_game_loss} Slow Play Warnings in a game is a Game Loss, "
            f"{data.slow_play_per_match_loss} in the match or "
            f"{data.rule_violation_match_loss} Rule Violation Warnings a Match Loss)."
        )
    else:
        text = "No penalties were issued, so nothing escalates."
    if not consequences:
        citations += ["905.1", "905.2"]
    return ruling(text, citations, consequences=consequences, players=tallies)


@question(
    "iacta",
    "penalties",
    title="Penalty escalation across one match",
    summary=(
        "Game Losses, Match Losses and Disqualifications that the issued penalties add up "
        "to (203.1, 903.1, 905-907)."
    ),
    schema=obj(
        "Penalties",
        "Every penalty of the match, in the order issued.",
        {
            "penalties": array(
                "Penalties",
                "In the order they were issued.",
                obj(
                    "Penalty",
                    "One penalty issued to a player.",
                    {
                        "player": string("Player", "The penalised player's name or id."),
                        "infraction": enum("Infraction", "What the penalty was for.", INFRACTIONS),
                        "game": integer("Game", "The game of the match (1, 2, 3 …).", 1, 99),
                    },
                    required=["player", "infraction", "game"],
                ),
                200,
            )
        },
        required=["penalties"],
    ),
    example={
        "penalties": [
            {"player": "A", "infraction": "slow_play", "game": 1},
            {"player": "A", "infraction": "slow_play", "game": 1},
            {"player": "A", "infraction": "slow_play", "game": 1},
            {"player": "B", "infraction": "rule_violation", "game": 2},
        ]
    },
)
def _penalties(payload: dict[str, Any]) -> dict[str, Any]:
    return penalties(payload["penalties"])


# --- the tournament vocabulary Iacta events are judged by ----------------------------


def _ask(slug: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The contract question ``iacta/<slug>``, its payload checked as the API checks it."""
    return lambda payload: adjudicate("iacta", slug, payload)


TOURNAMENT = register_tournament(
    TournamentRules(
        game="iacta",
        source="Iacta comprehensive rules, 900-series",
        infractions=INFRACTIONS,
        escalation=_ask("penalties"),
        sideboard=_ask("sideboard-swap"),  # 902.2-902.5, answered in rules_engine.iacta.deck
    )
)
"""Iacta's own tournament rules (900. "Tournament & Organized Play"): the infractions of
203.1 and 903-907, their escalation (905), and the Sideboard (902)."""
