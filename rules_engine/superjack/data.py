"""Superjack's number tables as game data an organiser can edit.

The v2.3 rules text lost its tables (creature stats, gem sacrifice powers,
straight powers, pair bonuses, the Jack power progression). Rather than guess,
the engine reads them from ``data.toml`` beside this module, which holds only
what the text states; an absent key means *unknown*, and a ruling that needs
it says so. Overrides, each merged over the shipped file key by key:

1. ``ARBITER_SUPERJACK_DATA=/path/to/file.toml`` in the environment, read at import;
2. ``load_data(path)`` or ``load_data(override=mapping)``, e.g. assigned to
   ``rules_engine.superjack.data.DATA`` by the site at start-up;
3. a ``"data"`` key of the same layout in a ``summon``, ``straights`` or
   ``stack-jacks`` payload, for that one ruling.

Layout (all keys strings; numbers are integers):
``creatures.<J|Q|K|A>`` {cost, power, toughness, rush},
``jack_stack.<2..8>`` {power, toughness},
``pair_bonus.<2..7>`` {power, toughness, ability},
``gem_sacrifice.<2..7>`` {name, energy, damage, cards},
``straights.<3..6>`` {name, sacrifice}.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from rules_engine.superjack.cards import CREATURE_NAMES, GEM_RANKS, a_creature
from rules_engine.superjack.schemas import count, field, flag

DATA_PATH = Path(__file__).with_name("data.toml")
ENV_VAR = "ARBITER_SUPERJACK_DATA"


def _stats(what: str, minimum_toughness: int = 1) -> dict[str, Any]:
    return {
        "power": count("Power", f"Power of {what}.", 0, 99),
        "toughness": count("Toughness", f"Toughness of {what}.", minimum_toughness, 99),
    }


def _table(title: str, description: str, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return field(title, description, type="object", properties=rows)


DATA_SCHEMA: dict[str, Any] = field(
    "Game data override",
    "Superjack number tables for this ruling, merged over the organiser's game data "
    "(same layout as data.toml). Leave empty to use the tournament's tables.",
    type="object",
    properties={
        "creatures": _table(
            "Creatures",
            "Creature stats by rank (§3.2 Creature Stats).",
            {
                rank: field(
                    name,
                    f"Cost and printed stats of {a_creature(name)}.",
                    type="object",
                    properties={
                        "cost": count("Cost", f"Energy {a_creature(name)} costs.", 1, 20),
                        **_stats(a_creature(name)),
                        "rush": flag(
                            "Rush", f"Whether {a_creature(name)} can attack the turn it enters."
                        ),
                    },
                )
                for rank, name in CREATURE_NAMES.items()
            },
        ),
        "jack_stack": _table(
            "Jack power progression",
            "Printed stats of a stack by its number of Jacks (§6.6 Power Progression).",
            {
                str(n): field(
                    f"{n} Jacks",
                    f"Stats of a stack of {n} Jacks.",
                    type="object",
                    properties=_stats(f"a stack of {n} Jacks"),
                )
                for n in range(2, 9)
            },
        ),
        "pair_bonus": _table(
            "Pair bonuses",
            "What an equipped pair adds, by the pair's rank (§6.3 Bonuses).",
            {
                rank: field(
                    f"Pair of {rank}s",
                    f"Bonus of an equipped pair of {rank}s.",
                    type="object",
                    properties={
                        "power": count("Power bonus", "Power added while equipped.", 0, 20),
                        "toughness": count("Toughness bonus", "Toughness added.", 0, 20),
                        "ability": field(
                            "Ability", "Any other bonus, as text.", type="string", maxLength=200
                        ),
                    },
                )
                for rank in GEM_RANKS
            },
        ),
        "gem_sacrifice": _table(
            "Gem sacrifice powers",
            "The one-time power of sacrificing a gem, by rank (§6.1).",
            {
                rank: field(
                    f"Sacrificing a {rank}",
                    f"The power of a sacrificed {rank}.",
                    type="object",
                    properties={
                        "name": field("Name", "Name of the power.", type="string", maxLength=40),
                        "energy": count("Energy", "Energy it adds to the pool (Mine).", 0, 20),
                        "damage": count("Damage", "Damage it deals (Fireball).", 0, 20),
                        "cards": count("Cards", "Cards it draws (Draw).", 0, 20),
                    },
                )
                for rank in GEM_RANKS
            },
        ),
        "straights": _table(
            "Straight powers",
            "The power of a straight, by its length (§6.2).",
            {
                str(n): field(
                    f"{n}-card straight",
                    f"The power of a {n}-card straight.",
                    type="object",
                    properties={
                        "name": field("Name", "Name of the power.", type="string", maxLength=40),
                        "sacrifice": flag(
                            "Sacrifice a gem", "Whether one gem is sacrificed after use."
                        ),
                    },
                )
                for n in range(3, 7)
            },
        ),
    },
)

_VALIDATOR = Draft202012Validator(DATA_SCHEMA)


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override`` laid over it, nested tables merged key by key."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def load_data(
    path: str | os.PathLike[str] | None = None, override: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The shipped tables with an organiser's file and/or mapping merged over them.

    Without ``path`` the file named by ``ARBITER_SUPERJACK_DATA`` is used, if set.
    Raises ValueError naming every problem, so a bad file fails at start-up.
    """
    with DATA_PATH.open("rb") as shipped:
        data = tomllib.load(shipped)
    path = path if path is not None else os.environ.get(ENV_VAR) or None
    source = str(DATA_PATH)
    if path is not None:
        source = str(path)
        with open(path, "rb") as organiser:
            data = merge(data, tomllib.load(organiser))
    if override:
        data = merge(data, override)
    problems = [
        f"{'.'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in _VALIDATOR.iter_errors(data)
    ]
    problems += [
        f"creatures.{rank}.cost: missing"
        for rank in CREATURE_NAMES
        if "cost" not in data.get("creatures", {}).get(rank, {})
    ]
    if problems:
        raise ValueError(f"Superjack game data {source}: " + "; ".join(problems))
    return data


#: The tables in force; reassign (``data.DATA = load_data(...)``) to change them.
DATA: dict[str, Any] = load_data()


def data_for(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The tables for one ruling: ``DATA`` with the payload's ``"data"`` merged over it."""
    extra = payload.get("data")
    return merge(DATA, extra) if extra else DATA


def creature(data: Mapping[str, Any], rank: str) -> dict[str, Any]:
    return data["creatures"][rank]


def jack_stats(data: Mapping[str, Any], jacks: int) -> tuple[int | None, int | None]:
    """Printed power and toughness of ``jacks`` stacked Jacks, None where unknown."""
    row = data["creatures"]["J"] if jacks == 1 else data["jack_stack"].get(str(jacks), {})
    return row.get("power"), row.get("toughness")


def pair_bonus(data: Mapping[str, Any], rank: str) -> dict[str, Any]:
    return data["pair_bonus"].get(rank, {})


def straight_power(data: Mapping[str, Any], length: int) -> dict[str, Any]:
    return data["straights"].get(str(length), {})
