"""Time every Iacta question in-process through ``rules_engine.adjudicate``.

Run: ``.venv/bin/python benchmarks/rules_engine_iacta.py``. Prints microseconds per
call (best of several repeats, validation included) and flags any question over
its target: deck-legality of a 60-card Deck with a 10-card Sideboard under
200 µs, every other question under 1 ms.
"""

from __future__ import annotations

import pathlib
import sys
import timeit

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from rules_engine import adjudicate, questions

DECK_TARGET_US = 200.0
OTHER_TARGET_US = 1000.0
REPEATS = 7


def sixty_card_deck() -> dict:
    """A legal 60-card EMB Deck splashing VOX, with a full 10-card Sideboard and card data."""
    cards: dict[str, dict] = {}
    main = []
    for i in range(11):
        name = f"Ember Card {i}"
        cards[name] = {"syndicate": "EMB", "tier": "major"}
        main.append({"name": name, "count": 4})
    for i in range(3):
        name = f"Vox Card {i}"
        cards[name] = {"syndicate": "VOX", "tier": "minor"}
        main.append({"name": name, "count": 4})
    cards["Quiet Ledger"] = {"syndicate": None, "tier": "neutral", "max_copies": 4}
    main.append({"name": "Quiet Ledger", "count": 4})
    sideboard = []
    for i in range(5):
        name = f"Side Card {i}"
        cards[name] = {"syndicate": "RUST", "tier": "major"}
        sideboard.append({"name": name, "count": 2})
    return {"main": main, "sideboard": sideboard, "main_syndicate": "EMB", "cards": cards}


def cases() -> list[tuple[str, str, dict]]:
    """(label, slug, payload): every question's example, plus the benchmark deck."""
    found = [(q.slug, q.slug, q.example) for q in questions("iacta")]
    found.append(("deck-legality (60 + 10)", "deck-legality", sixty_card_deck()))
    found.append(
        (
            "pay-cost (6 symbols, payment)",
            "pay-cost",
            {
                "cost": ["4+", "ODD", "3", "X", "-2", "EVN"],
                "reserve": [5, 1, 3, 2, 6, 7],
                "payment": [5, 1, 3, 2, 6],
            },
        )
    )
    return found


def time_call(slug: str, payload: dict) -> float:
    """Best microseconds per call over REPEATS runs, each long enough to be measurable."""
    call = lambda: adjudicate("iacta", slug, payload)  # noqa: E731
    call()
    number, _ = timeit.Timer(call).autorange()
    best = min(timeit.repeat(call, number=number, repeat=REPEATS))
    return best / number * 1e6


def main() -> int:
    rows = []
    missed = []
    for label, slug, payload in cases():
        micros = time_call(slug, payload)
        target = DECK_TARGET_US if label.startswith("deck-legality (60") else OTHER_TARGET_US
        ok = micros < target
        if not ok:
            missed.append(label)
        rows.append((label, micros, target, ok))
    width = max(len(r[0]) for r in rows)
    print(f"{'question':<{width}}  {'µs/call':>9}  {'target µs':>9}  ok")
    print(f"{'-' * width}  {'-' * 9}  {'-' * 9}  --")
    for label, micros, target, ok in rows:
        print(f"{label:<{width}}  {micros:9.1f}  {target:9.0f}  {'yes' if ok else 'NO'}")
    if missed:
        print(f"\nMissed target: {', '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
