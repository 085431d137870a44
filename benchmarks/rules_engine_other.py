"""Time every Superjack and Dataclysm question through ``rules_engine.adjudicate``.

Run: ``.venv/bin/python benchmarks/rules_engine_other.py [--repeat N]``. Each question
is asked with its registered example plus a heavier case where one exists (a full
straight board, a crowded combat, a full field), and the best of the repeats is
reported in µs per call: what a judge console request costs the engine.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BUDGET_US = 1000.0


def heavier_cases() -> list[tuple[str, str, str, dict[str, Any]]]:
    """Worst realistic payloads: the most cards, creatures or troops a question sees."""
    from rules_engine.superjack.cards import DECK

    gems = [{"card": f"{r}{s}", "tapped": False} for r in range(2, 8) for s in "HDSC"]
    attackers = [
        {
            "id": f"a{i}",
            "power": 5,
            "toughness": 5,
            "damage": 0,
            "trample": i == 0,
            "blocked": True,
            "left_combat": False,
        }
        for i in range(8)
    ]
    blockers = [
        {
            "id": f"b{i}{j}",
            "power": 1,
            "toughness": 2,
            "damage": 0,
            "blocking": f"a{i}",
            "left_combat": False,
        }
        for i in range(8)
        for j in range(2)
    ]
    split = {f"a{i}": {f"b{i}0": 2, f"b{i}1": 3} for i in range(1, 8)}
    troops = [{"id": f"t{i}", "atk": 2, "hp": 3} for i in range(8)]
    enemies = [{"id": f"e{i}", "atk": 1, "hp": 2, "can_be_hit": True} for i in range(8)]
    return [
        (
            "superjack",
            "deck-legality",
            "52 cards",
            {"cards": [*DECK, *(f"{r}{s}" for r in ("8", "9", "10") for s in "HDSC")]},
        ),
        ("superjack", "straights", "24 gems", {"gems": gems}),
        (
            "superjack",
            "combat",
            "8 attackers, 16 blockers",
            {
                "defender_health": 20,
                "attackers": attackers,
                "blockers": blockers,
                "assignment": split,
            },
        ),
        (
            "dataclysm",
            "attack-step",
            "full fields",
            {
                "attacker": {"front": troops[:4], "back": troops[4:]},
                "defender": {"front": enemies[:4], "back": enemies[4:], "hp": 30},
                "first_turn_of_first_player": False,
            },
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timing repeats (best is kept)")
    args = parser.parse_args()

    from rules_engine import adjudicate, questions

    cases = [
        (game, q.slug, "example", q.example)
        for game in ("superjack", "dataclysm")
        for q in questions(game)
    ]
    cases += heavier_cases()
    cases.sort(key=lambda c: (c[0], c[1]))

    rows = []
    for game, slug, case, payload in cases:
        adjudicate(game, slug, payload)  # warm up and fail loudly before timing

        def call(game: str = game, slug: str = slug, payload: dict = payload) -> None:
            adjudicate(game, slug, payload)

        timer = timeit.Timer(call)
        number, _ = timer.autorange()
        best = min(timer.repeat(repeat=args.repeat, number=number)) / number * 1e6
        rows.append((game, slug, case, best))

    width = max(len(f"{g}/{s}") for g, s, _, _ in rows)
    case_width = max(len(c) for _, _, c, _ in rows)
    print(f"{'question':<{width}}  {'case':<{case_width}}  {'µs/call':>8}")
    print(f"{'-' * width}  {'-' * case_width}  {'-' * 8}")
    for game, slug, case, best in rows:
        print(f"{game + '/' + slug:<{width}}  {case:<{case_width}}  {best:>8.1f}")
    slow = [r for r in rows if r[3] >= BUDGET_US]
    print(f"\nbest of {args.repeat}; budget {BUDGET_US:.0f} µs per call; over budget: {len(slow)}")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
