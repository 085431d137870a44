"""How the exact solver splits a field: by each player's own history, not the longest.

One veteran who has met 60 players (a league's regular) used to size every score
group's threshold, so a 445-player field became one dense blossom problem. The
pairing is exact either way (``test_swiss_optimal``); this is about the split.
"""

from __future__ import annotations

import collections
import random

from pairing import solver
from pairing.simulator import simulate


def _field_with_veteran(players: int, rounds: int, met: int):
    state = collections.deque(simulate(players, rounds, seed=7), maxlen=1)[0]
    active = [p for p in state["players"] if not p["dropped"]]
    rng = random.Random(met)
    active.append(
        {"id": "veteran", "points": 9, "opponents": [p["id"] for p in rng.sample(active, met)]}
    )
    active.sort(key=lambda p: -p["points"])
    position = {p["id"]: i for i, p in enumerate(active)}
    played = [set() for _ in active]
    for i, p in enumerate(active):
        for o in (o for o in p["opponents"] if o in position):  # dropped players are out
            played[i].add(position[o])
            played[position[o]].add(i)
    return [p["points"] for p in active], played


def test_one_veteran_does_not_merge_the_field_into_one_segment():
    points, played = _field_with_veteran(512, 7, met=60)
    vertices = list(range(len(points) - len(points) % 2))
    plan = solver._Decomposition(points, played, vertices, random.Random(1))
    assert len(plan.segments) >= 3
    assert max(len(segment) for segment in plan.segments) < len(vertices) // 4


def test_the_bounds_follow_the_histories_not_the_longest_one():
    # One player has met 60, everyone else 6: at most 2 * 6 + 1 pairs cross a boundary
    # (a crossing pair avoids the veteran) and at most 7 players have all met each other.
    degrees = [60] + [6] * 400
    assert solver.crossing_bound(degrees) == 13
    assert solver.clique_bound(degrees) == 7
    assert solver.crossing_bound([4] * 100) == 9
    assert solver.clique_bound([4] * 100) == 5
