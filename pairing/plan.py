"""A plan for the field: the Swiss rounds, top cut and Day 2 gate a table recommends for
the players entered (plain Python, no Django).

The tables are game data (``pairing/data/plan_tables.toml``, each naming its source):
organisers look them up by hand today, and a publisher may revise them. Awarded byes
count as the table says (Magic's Appendix E: a player with 1, 2 or 3 byes counts as 2, 4
or 8 players), since a player who starts on 9 points stretches the field like several.

``python -m pairing.plan --players 300 --byes 3:10`` prints ``{"swiss_rounds": 9,
"top_cut": 8}``; ``--simulate`` adds the schedule and how many reach Day 2
(:mod:`pairing.event_simulator`). Bad input exits with status 2 and a message naming
the argument.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TABLES_PATH = Path(__file__).with_name("data") / "plan_tables.toml"
ENV_VAR = "ARBITER_PLAN_TABLES"
DEFAULT_TABLE = "mtr-appendix-e"
BYE_LEVELS = (1, 2, 3)
# The keys a plan's JSON may add to swiss_rounds and top_cut, in this order, when its row has them.
OPTIONAL_KEYS = ("gate_points", "gate_top", "day2_rounds", "elimination_rounds")
ROW_NUMBERS = ("min", "max", "swiss_rounds", "top_cut", *OPTIONAL_KEYS)


class PlanInputError(ValueError):
    """Input the tables cannot answer; ``argument`` names it (players, byes, table)."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument
        self.message = message


@dataclass(frozen=True, slots=True)
class Plan:
    """What the table recommends for ``players`` entrants counted as ``counted``."""

    swiss_rounds: int
    top_cut: int
    table: str
    players: int
    counted: int
    row_min: int
    row_max: int | None
    gate_points: int | None = None
    gate_top: int | None = None
    day2_rounds: int | None = None
    elimination_rounds: int | None = None
    note: str = ""
    alternative: Mapping[str, Any] | None = None

    @property
    def has_gate(self) -> bool:
        return self.gate_points is not None or self.gate_top is not None

    @property
    def runs_swiss(self) -> bool:
        """False where the table runs the whole field as single elimination instead."""
        return self.swiss_rounds > 0

    def as_json(self) -> dict[str, int]:
        """The recommendation as the CLI prints it: the two numbers every row has, then
        the Day 2 and elimination numbers only where the row has them."""
        out = {"swiss_rounds": self.swiss_rounds, "top_cut": self.top_cut}
        for key in OPTIONAL_KEYS:
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def _read(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def load_tables(
    path: str | Path | None = None, override: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The shipped tables with ``ARBITER_PLAN_TABLES``, then ``path``, then ``override``
    laid over them (a table replaced whole, ``games`` key by key), checked."""
    data = _read(TABLES_PATH)
    layers: list[Mapping[str, Any]] = []
    if os.environ.get(ENV_VAR):
        layers.append(_read(Path(os.environ[ENV_VAR])))
    if path is not None:
        layers.append(_read(Path(path)))
    if override is not None:
        layers.append(override)
    for layer in layers:
        data["games"] = {**data.get("games", {}), **layer.get("games", {})}
        data["tables"] = {**data.get("tables", {}), **layer.get("tables", {})}
    check_tables(data)
    return data


def _check_row(name: str, index: int, row: Mapping[str, Any]) -> None:
    where = f"table {name!r}, row {index + 1}"
    for key in ("min", "swiss_rounds", "top_cut"):
        if key not in row:
            raise ValueError(f"{where}: {key} is missing")
    for key in ROW_NUMBERS:
        value = row.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"{where}: {key} must be a whole number")
        if value is not None and value < 0:
            raise ValueError(f"{where}: {key} must not be negative")
    if row.get("max") is not None and row["max"] < row["min"]:
        raise ValueError(f"{where}: max is below min")
    cut = row["top_cut"]
    if cut & (cut - 1):
        raise ValueError(f"{where}: top_cut must be 0 or a power of two")


def _check_table(name: str, table: Mapping[str, Any]) -> None:
    rows = table.get("rows")
    if not rows:
        raise ValueError(f"table {name!r} has no rows")
    for index, row in enumerate(rows):
        _check_row(name, index, row)
    for kind in (False, True):  # players' rows, then team rows: each in order, no overlap
        chain = [r for r in rows if bool(r.get("teams_only")) is kind]
        for before, after in itertools.pairwise(chain):
            if before.get("max") is None or after["min"] <= before["max"]:
                raise ValueError(f"table {name!r}: rows from {after['min']} overlap")
    for level, weight in table.get("byes", {}).items():
        if str(level) not in {str(b) for b in BYE_LEVELS} or not isinstance(weight, int):
            raise ValueError(f"table {name!r}: byes maps 1, 2 or 3 to a whole number")


def check_tables(data: Mapping[str, Any]) -> None:
    """Raise ValueError naming the table and row of anything the recommender cannot use."""
    tables = data.get("tables", {})
    for name, table in tables.items():
        _check_table(name, table)
    for game, name in data.get("games", {}).items():
        if name not in tables:
            raise ValueError(f"game {game!r} uses table {name!r}, which is not there")


def table_names(tables: Mapping[str, Any] | None = None) -> list[str]:
    return sorted((tables or load_tables())["tables"])


def table_for_game(game: str, tables: Mapping[str, Any] | None = None) -> str:
    """The table a game's events use when they name none (the Appendix E table by default)."""
    data = tables or load_tables()
    return data.get("games", {}).get(game, DEFAULT_TABLE)


def check_byes(players: int, byes: Mapping[int, int]) -> None:
    if players < 1:
        raise PlanInputError("players", "--players must be a whole number of at least 1")
    for level, count in byes.items():
        if level not in BYE_LEVELS:
            raise PlanInputError(
                "byes", f"--byes: a player has 1, 2 or 3 awarded byes, not {level}"
            )
        if count < 0:
            raise PlanInputError("byes", f"--byes: the count for {level} byes is negative")
    if sum(byes.values()) > players:
        raise PlanInputError(
            "byes",
            f"--byes: {sum(byes.values())} players with byes, more than the {players} players",
        )


def counted_players(players: int, byes: Mapping[int, int], weights: Mapping[str, int]) -> int:
    """The field as the table counts it: each player with byes as ``weights`` says."""
    check_byes(players, byes)
    extra = sum(count * (weights.get(str(level), 1) - 1) for level, count in byes.items())
    return players + extra


def _row_for(rows: Sequence[Mapping[str, Any]], counted: int, teams: bool) -> Mapping | None:
    for row in rows:
        if bool(row.get("teams_only")) is not teams:
            continue
        if row["min"] <= counted and (row.get("max") is None or counted <= row["max"]):
            return row
    return None


def _table(name: str | None, data: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    name = name or DEFAULT_TABLE
    if name not in data["tables"]:
        known = ", ".join(sorted(data["tables"]))
        raise PlanInputError("table", f"--table: no table {name!r}; the tables are: {known}")
    return name, data["tables"][name]


def recommend(
    players: int,
    byes: Mapping[int, int] | None = None,
    table: str | None = None,
    *,
    tables: Mapping[str, Any] | None = None,
    teams: bool = False,
) -> Plan:
    """The plan ``table`` (default: Appendix E) gives ``players`` entrants, of whom
    ``byes[level]`` have ``level`` awarded byes. Raises :class:`PlanInputError`."""
    byes = dict(byes or {})
    name, chosen = _table(table, tables or load_tables())
    counted = counted_players(players, byes, chosen.get("byes", {}))
    row = _row_for(chosen["rows"], counted, teams)
    if row is None:
        first = min(r["min"] for r in chosen["rows"] if bool(r.get("teams_only")) is teams)
        raise PlanInputError(
            "players",
            f"--players: table {name!r} has no row for {counted} players (it starts at {first})",
        )
    return Plan(
        swiss_rounds=row["swiss_rounds"],
        top_cut=row["top_cut"],
        table=name,
        players=players,
        counted=counted,
        row_min=row["min"],
        row_max=row.get("max"),
        **{key: row.get(key) for key in OPTIONAL_KEYS},
        note=row.get("note", ""),
        alternative=row.get("alternative"),
    )


def parse_byes(text: str) -> dict[int, int]:
    """``"1:A,2:B,3:C"`` as ``{1: A, 2: B, 3: C}`` (a level given twice adds up)."""
    byes: dict[int, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        level, sep, count = part.partition(":")
        if not sep or not level.strip().isdigit() or not count.strip().isdigit():
            raise PlanInputError(
                "byes", f"--byes: {part!r} is not LEVEL:COUNT (e.g. 3:10 for ten players)"
            )
        byes[int(level)] = byes.get(int(level), 0) + int(count)
    return byes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pairing.plan",
        description="The Swiss rounds, top cut and Day 2 gate a table recommends for a field.",
    )
    parser.add_argument("--players", type=int, required=True, help="entrants, byes included")
    parser.add_argument("--byes", default="", help="awarded byes: 1:A,2:B,3:C (level:players)")
    parser.add_argument("--table", help=f"the table's name (default {DEFAULT_TABLE})")
    parser.add_argument("--tables", help="a tables file laid over the shipped ones")
    sim = parser.add_argument_group("simulation (--simulate)")
    sim.add_argument("--simulate", action="store_true", help="add the schedule and Day 2")
    sim.add_argument("--round-minutes", type=int, default=50)
    sim.add_argument("--break-minutes", type=int, default=10)
    sim.add_argument("--start", default="09:00", help="round 1's start, HH:MM")
    sim.add_argument("--gate-points", type=int, help="Day 2: at least these points")
    sim.add_argument("--gate-top", type=int, help="Day 2: the top N (whichever lets more in)")
    sim.add_argument("--day2-rounds", type=int, help="Swiss rounds on Day 2")
    sim.add_argument(
        "--gate-ties",
        default="tiebreakers",
        help="ties at the top-N boundary: tiebreakers (exactly N) or points (all on its points)",
    )
    sim.add_argument("--seed", type=int, default=1, help="the first simulated event's seed")
    sim.add_argument("--runs", type=int, default=5, help="simulated events (seeds)")
    return parser


def _simulation(args: argparse.Namespace, plan: Plan, byes: dict[int, int]) -> dict[str, Any]:
    from pairing import event_simulator

    try:
        settings = event_simulator.Settings.from_cli(
            round_minutes=args.round_minutes,
            break_minutes=args.break_minutes,
            start=args.start,
            gate_points=args.gate_points,
            gate_top=args.gate_top,
            day2_rounds=args.day2_rounds,
            gate_ties=args.gate_ties,
            seeds=range(args.seed, args.seed + args.runs) if args.runs > 0 else (),
        )
    except event_simulator.SettingsError as exc:
        raise PlanInputError(exc.argument, exc.message) from exc
    return event_simulator.simulate_plan(plan, byes, settings).as_json()


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        tables = load_tables(args.tables)
    except (OSError, ValueError) as exc:  # tomllib's errors are ValueErrors
        parser.error(f"argument --tables: {exc}")
    try:
        byes = parse_byes(args.byes)
        plan = recommend(args.players, byes, args.table, tables=tables)
        out: dict[str, Any] = plan.as_json()
        if args.simulate:
            out = {**out, **_simulation(args, plan, byes)}
    except PlanInputError as exc:
        parser.error(exc.message)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
