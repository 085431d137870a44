"""Single-elimination brackets seeded from the standings (plain Python, no Django).

Seeds meet so that the best seeds meet as late as possible: with 8 players the
first round is 1 v 8, 4 v 5, 2 v 7, 3 v 6 (top half: 1, 4; bottom half: 2, 3).
"""

from __future__ import annotations


def seed_order(size: int) -> list[int]:
    """Bracket positions top to bottom: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket needs a power-of-two number of players, not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(size: int) -> list[tuple[int, int]]:
    """Seed pairs of the first round, in bracket order: [(1, 8), (4, 5), (2, 7), (3, 6)]."""
    order = seed_order(size)
    return [(order[i], order[i + 1]) for i in range(0, size, 2)]


def next_round(winners: list[object]) -> list[tuple[object, object]]:
    """Winners of adjacent matches (in bracket order) meet in the next round."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("the next round needs an even number of winners, at least two")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
