"""Time the pure metagame core on a 2,000-player event (issue 36).

Run: ``.venv/bin/python benchmarks/metagame_core.py`` (``--decks N --repeats R``).

Two timings, best of ``--repeats``, from a fixed seed:

* ``cluster_decks``: N decks of about 40 cards (18 distinct cards, one to four copies
  each): 15 of their archetype's 18 core cards (16 archetypes) and three flex cards from
  a pool of 600, clustered by Jaccard distance and average linkage. Target: well under 1 s.
  Prints how many clusters came out and how pure they are (the share of decks whose
  cluster is mostly their own archetype).
* ``metagame_report``: the same N players (a few without a list), nine Swiss rounds of
  Day 1, five of Day 2 for the top eighth, a top cut of eight, with draws and byes.

Exits non-zero when clustering is over its target.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from metagame.archetypes import cluster_decks
from metagame.report import metagame_report

TARGET_SECONDS = 1.0
ARCHETYPES = 16


def generate_decks(count: int, seed: int) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Decks of ~40 cards and the archetype each was built from."""
    rng = random.Random(seed)
    pool = [f"Card {i:03}" for i in range(600)]
    cores = [rng.sample(pool, 18) for _ in range(ARCHETYPES)]
    decks, truth = {}, {}
    for n in range(count):
        kind = rng.randrange(ARCHETYPES)
        chosen = rng.sample(cores[kind], 15) + rng.sample(pool, 3)
        decks[f"d{n:05}"] = {card: rng.randint(1, 4) for card in chosen}
        truth[f"d{n:05}"] = kind
    return decks, truth


def _play(rng: random.Random, a: str, b: str, phase: str) -> dict:
    games = [0, 0, 0]
    while max(games[:2]) < 2 and sum(games) < 3:
        roll = rng.random()
        games[2 if roll < 0.05 else 0 if roll < 0.525 else 1] += 1
    winner = a if games[0] > games[1] else b if games[1] > games[0] else None
    return {
        "a": a,
        "b": b,
        "winner": winner,
        "games_a": games[0],
        "games_b": games[1],
        "games_drawn": games[2],
        "phase": phase,
    }


def generate_event(players: list[str], seed: int) -> tuple[list[dict], dict[str, set]]:
    """Matches of a two-day event and who reached Day 2 and the top cut."""
    rng = random.Random(seed)
    matches: list[dict] = []
    day2: set[str] = set()
    for phase, rounds in (("day1", 9), ("day2", 5)):
        field = players if phase == "day1" else sorted(day2)
        for _ in range(rounds):
            order = rng.sample(field, len(field))
            if len(order) % 2:
                bye = order.pop()
                matches.append({"a": bye, "b": None, "winner": bye, "games_a": 2, "phase": phase})
            matches += [_play(rng, order[i], order[i + 1], phase) for i in range(0, len(order), 2)]
        if phase == "day1":
            day2 = set(rng.sample(players, len(players) // 8))
    top = set(rng.sample(sorted(day2), 8))
    for size in (8, 4, 2):
        seeded = sorted(top)[:size]
        matches += [_play(rng, seeded[i], seeded[i + 1], "top") for i in range(0, size, 2)]
    return matches, {"day2": day2, "top": top}


def best_of(repeats: int, work) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()

    decks, truth = generate_decks(args.decks, args.seed)
    seconds, clusters = best_of(args.repeats, lambda: cluster_decks(decks))
    groups = {c.key: c for c in clusters.values()}
    pure = sum(Counter(truth[d] for d in c.members).most_common(1)[0][1] for c in groups.values())
    cards = sum(sum(d.values()) for d in decks.values()) / len(decks)
    print(f"cluster_decks: {len(decks)} decks (~{cards:.0f} cards, {ARCHETYPES} archetypes)")
    print(f"  best of {args.repeats}: {seconds * 1000:.0f} ms (target < {TARGET_SECONDS:.0f} s)")
    print(f"  {len(groups)} clusters, {pure / len(decks):.1%} of decks in their own")

    ids = sorted(decks)
    players = {d: (None if i % 50 == 0 else clusters[d].key) for i, d in enumerate(ids)}
    matches, reached = generate_event(ids, args.seed)
    seconds_report, report = best_of(
        args.repeats, lambda: metagame_report(players, matches, reached)
    )
    print(f"metagame_report: {len(players)} players, {len(matches)} matches")
    print(f"  best of {args.repeats}: {seconds_report * 1000:.0f} ms")
    print(f"  {len(report.rows)} rows, {len(report.matrix)} cells")
    return 0 if seconds < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
