"""Simulated Swiss events for the pairing tests and benchmark (plain Python, no Django).

An event is replayed round by round through :func:`pairing.swiss.pair_round`
with random results from a fixed seed (wins, some draws, a few drops), so the states
late in an event look like real ones: small top and bottom groups, large middle
groups, byes and drops.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pairing.swiss import pair_round

WIN, DRAW = 3, 1


def simulate(
    players: int,
    rounds: int,
    seed: int,
    *,
    draw_rate: float = 0.05,
    drop_rate: float = 0.02,
    int_ids: bool = False,
) -> Iterator[dict[str, Any]]:
    """Yield the pairing input for rounds ``1..rounds`` of one simulated event.

    Each state is paired (seeded) and given random results before the next is built,
    so the caller may inspect or time a state before asking for the next one.
    """
    rng = random.Random(seed)
    ids: list[str | int] = (
        list(range(1, players + 1)) if int_ids else [f"p{i}" for i in range(1, players + 1)]
    )
    rng.shuffle(ids)  # the standings order among equal points
    points = dict.fromkeys(ids, 0)
    opponents: dict[str | int, list[str | int]] = {pid: [] for pid in ids}
    had_bye = dict.fromkeys(ids, False)
    dropped = dict.fromkeys(ids, False)
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda pid: -points[pid])
        state = {
            "round": number,
            "seed": rng.randrange(2**31),
            "players": [
                {
                    "id": pid,
                    "points": points[pid],
                    "opponents": list(opponents[pid]),
                    "had_bye": had_bye[pid],
                    "dropped": dropped[pid],
                }
                for pid in order
            ],
        }
        yield state
        pairing = pair_round(state["players"], number, state["seed"])
        for a, b in pairing.pairings:
            opponents[a].append(b)
            opponents[b].append(a)
            roll = rng.random()
            if roll < draw_rate:
                points[a] += DRAW
                points[b] += DRAW
            else:
                points[a if roll < (1 + draw_rate) / 2 else b] += WIN
        if pairing.bye is not None:
            points[pairing.bye] += WIN
            had_bye[pairing.bye] = True
        for pid in ids:
            if not dropped[pid] and rng.random() < drop_rate:
                dropped[pid] = True
