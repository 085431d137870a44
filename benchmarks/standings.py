"""Time the standings of a 16,384-player, 12-round event (target: under 2 s).

Run: ``.venv/bin/python benchmarks/standings.py`` (``--players N --rounds R``).
The event is generated from a fixed seed: each round pairs players of similar match
points (sorted, neighbours), plays best-of-three matches with some drawn games and
draws, gives the odd player a bye and drops about 2% of the field. The time is
``compute_standings`` alone (best of ``--repeats``), input checks included.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from pairing.standings import compute_standings

TARGET_SECONDS = 2.0


def generate(players: int, rounds: int, seed: int) -> tuple[list[dict], list[dict]]:
    """Players and matches of a simulated event."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    people = [{"id": pid, "name": f"Player {pid[1:]}"} for pid in ids]
    points = dict.fromkeys(ids, 0)
    active = list(ids)
    matches: list[dict] = []
    for number in range(1, rounds + 1):
        active.sort(key=lambda pid: (-points[pid], rng.random()))
        if len(active) % 2:
            bye = active.pop()
            matches.append({"round": number, "players": [bye], "bye": True})
            points[bye] += 3
            active.append(bye)
        else:
            bye = None
        for i in range(0, len(active) - (bye is not None), 2):
            a, b = active[i], active[i + 1]
            games: list[str | None] = []
            while games.count(a) < 2 and games.count(b) < 2 and len(games) < 3:
                roll = rng.random()
                games.append(None if roll < 0.05 else a if roll < 0.525 else b)
            matches.append({"round": number, "players": [a, b], "games": games})
            wa, wb = games.count(a), games.count(b)
            if wa == wb:
                points[a] += 1
                points[b] += 1
            else:
                points[a if wa > wb else b] += 3
        kept = [pid for pid in active if rng.random() >= 0.02]
        for pid in set(active) - set(kept):
            people[int(pid[1:])]["dropped"] = True
        active = kept
    return people, matches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16384)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    people, matches = generate(args.players, args.rounds, seed=2026)
    best = float("inf")
    rows: list[dict] = []
    for _ in range(args.repeats):
        started = time.perf_counter()
        rows = compute_standings(people, matches)
        best = min(best, time.perf_counter() - started)
    print(f"{args.players} players, {args.rounds} rounds, {len(matches)} matches: {best:.3f} s")
    print("top 3:", rows[:3])
    if best >= TARGET_SECONDS:
        print(f"OVER TARGET ({TARGET_SECONDS} s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
