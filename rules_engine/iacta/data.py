"""Iacta game data: every number the engine rules with, loaded from ``data.toml``.

Numbers live in a file, not in code, so an organiser can revise them (design.md)
and so each one sits next to the rule it comes from. ``DATA`` is the shipped
file, read once at import; ``load(path)`` reads an organiser's copy.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PATH = Path(__file__).with_name("data.toml")


@dataclass(frozen=True)
class Combo:
    """One row of the quick-start Scoring Combinations table."""

    slug: str
    name: str
    kind: str  # "run", "sigil" or "groups"
    dice: int
    bonus: int
    groups: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameData:
    """Every Iacta number, named after what it limits."""

    faces: int
    register_count: int
    register_slots: int
    iacta_copies_per_value: int
    combos: tuple[Combo, ...]
    draw: int
    hand_limit: int
    reserve_limit: int
    variable_actions: int
    card_plays: int
    flush_cost: int
    deck_min: int
    deck_max: int
    max_copies: int
    cards_per_splash: int
    sideboard_max: int
    search_limit_seconds: float
    unjudged_grace_seconds: float
    warning_interval_seconds: float
    slow_play_per_game_loss: int
    slow_play_per_match_loss: int
    rule_violation_match_loss: int

    def combo(self, slug: str) -> Combo:
        return next(c for c in self.combos if c.slug == slug)


def load(path: str | Path = DEFAULT_PATH) -> GameData:
    """Read a game-data file; a missing or mistyped key fails loudly at load time."""
    with open(path, "rb") as handle:
        raw = tomllib.load(handle)
    combos = tuple(
        Combo(
            slug=slug,
            name=row["name"],
            kind=row["kind"],
            dice=int(row["dice"]),
            bonus=int(row["bonus"]),
            groups=tuple(int(g) for g in row.get("groups", ())),
        )
        for slug, row in raw["combos"].items()
    )
    for combo in combos:
        if combo.kind not in ("run", "sigil", "groups"):
            raise ValueError(f"combo {combo.slug}: unknown kind {combo.kind!r}")
        if combo.kind == "groups" and sum(combo.groups) != combo.dice:
            raise ValueError(f"combo {combo.slug}: groups must add up to its dice")
    return GameData(
        faces=int(raw["dice"]["faces"]),
        register_count=int(raw["registers"]["count"]),
        register_slots=int(raw["registers"]["slots"]),
        iacta_copies_per_value=int(raw["registers"]["iacta_copies_per_value"]),
        combos=combos,
        draw=int(raw["maintenance"]["draw"]),
        hand_limit=int(raw["maintenance"]["hand_limit"]),
        reserve_limit=int(raw["maintenance"]["reserve_limit"]),
        variable_actions=int(raw["turn"]["variable_actions"]),
        card_plays=int(raw["turn"]["card_plays"]),
        flush_cost=int(raw["turn"]["flush_cost"]),
        deck_min=int(raw["deck"]["min_cards"]),
        deck_max=int(raw["deck"]["max_cards"]),
        max_copies=int(raw["deck"]["max_copies"]),
        cards_per_splash=int(raw["deck"]["cards_per_splash"]),
        sideboard_max=int(raw["deck"]["sideboard_max"]),
        search_limit_seconds=float(raw["search"]["limit_seconds"]),
        unjudged_grace_seconds=float(raw["search"]["unjudged_grace_seconds"]),
        warning_interval_seconds=float(raw["search"]["warning_interval_seconds"]),
        slow_play_per_game_loss=int(raw["penalties"]["slow_play_per_game_loss"]),
        slow_play_per_match_loss=int(raw["penalties"]["slow_play_per_match_loss"]),
        rule_violation_match_loss=int(raw["penalties"]["rule_violation_match_loss"]),
    )


DATA: GameData = load()
