"""Time parsing and resolving 2,000 decklists (60 + 10) against a 1,500-name card pool.

Run: ``.venv/bin/python benchmarks/decklists.py`` (``--lists N --pool N --repeats R --seed S``).

``validate_decks`` re-validates a whole event (2,000 players) in under 5 s, rules engine and
database included, so text handling gets a small slice of that: the cold run (fresh
``PoolIndex``, empty name-key cache, as in a new worker process) must take under
``TARGET_SECONDS`` for parse + resolve of every list. Lists are generated from a fixed seed in
the formats players use (``4 Name``, ``4x Name``, ``Name x4``, CSV with a header, tab-separated,
MTGO ``SB:`` lines), with case changes, curly apostrophes and hyphen/space swaps; about one
list in twenty has a misspelt card, which costs a fuzzy "did you mean" search. Reports the
cold run and the best of ``--repeats`` warm runs (index and caches reused), and checks the
results: every list resolves except the misspelt cards, whose first suggestion is the card.
``stored`` times the re-validation path: the saved ``{"main", "sideboard"}`` JSON resolved
again with ``suggest=False`` (no text to parse). Exits non-zero over target or on a wrong result.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from decks.decklist import PoolIndex, card_key, deck_payload, parse

TARGET_SECONDS = 1.0
WORDS = [
    "ember",
    "tithe",
    "quiet",
    "ledger",
    "vox",
    "iron",
    "saint",
    "glass",
    "harbor",
    "ash",
    "crown",
    "dice",
    "oath",
    "thorn",
    "spark",
    "vault",
    "gilded",
    "hollow",
    "raven",
    "storm",
    "cinder",
    "velvet",
    "market",
    "rogue",
    "silent",
    "sigil",
    "rune",
    "echo",
    "mirror",
    "fable",
    "lantern",
    "copper",
    "warden",
    "gambit",
    "reserve",
    "flush",
    "register",
    "era",
    "trap",
    "perpetual",
    "syndicate",
    "splash",
    "broker",
    "cutpurse",
    "oracle",
    "bishop",
    "tollkeeper",
    "smuggler",
    "courier",
    "wager",
    "loaded",
    "pip",
    "snake",
    "eyes",
]


def make_pool(size: int, rng: random.Random) -> list[str]:
    """Card names like a real pool's: 1-4 words, some possessives, hyphens and numbers."""
    names: dict[str, str] = {}
    while len(names) < size:
        words = [rng.choice(WORDS).title() for _ in range(rng.randint(1, 4))]
        roll = rng.random()
        if roll < 0.1:
            words[0] += "'s"
        elif roll < 0.15 and len(words) > 1:
            words[:2] = [f"{words[0]}-{words[1]}"]
        elif roll < 0.2:
            words.append(str(rng.randint(2, 99)))
        name = " ".join(words)
        names.setdefault(card_key(name), name)
    return list(names.values())


def pick(pool: list[str], total: int, rng: random.Random) -> list[tuple[str, int]]:
    """Distinct cards, 1-4 copies each, adding up to ``total``."""
    chosen: list[tuple[str, int]] = []
    left = total
    for name in rng.sample(pool, total):
        if not left:
            break
        count = min(left, rng.choice((1, 2, 3, 4, 4, 4)))
        chosen.append((name, count))
        left -= count
    return chosen


def misspell(name: str, rng: random.Random) -> str:
    """Drop one letter (not the first), as in "Embr Tithe"."""
    letters = [i for i, ch in enumerate(name) if ch.isalpha() and i > 0]
    i = rng.choice(letters) if letters else len(name) - 1
    return name[:i] + name[i + 1 :]


def vary(name: str, rng: random.Random) -> str:
    """How a player might type a pool name: case, curly apostrophe, hyphen as space."""
    roll = rng.random()
    if roll < 0.1:
        return name.lower()
    if roll < 0.15:
        return name.upper()
    if roll < 0.2:
        return name.replace("'", "\u2019").replace("-", " ")
    return name


def write(main: list[tuple[str, int]], side: list[tuple[str, int]], rng: random.Random) -> str:
    """The list as text in one of the accepted formats."""
    style = rng.choices(["plain", "x", "trailing", "csv", "tab", "mtgo"], [5, 2, 1, 1, 1, 1])[0]
    line = {
        "plain": "{c} {n}",
        "x": "{c}x {n}",
        "trailing": "{n} x{c}",
        "csv": '{c},"{n}"',
        "tab": "{c}\t{n}",
        "mtgo": "{c} {n}",
    }[style]
    out = ["count,name"] if style == "csv" else ["// generated", "Deck"]
    out += [line.format(c=c, n=vary(n, rng)) for n, c in main]
    if style == "mtgo":
        out += ["SB: " + line.format(c=c, n=vary(n, rng)) for n, c in side]
    else:
        out += ["", "Sideboard (10)"] + [line.format(c=c, n=vary(n, rng)) for n, c in side]
    return "\n".join(out) + "\n"


def generate(lists: int, pool_size: int, seed: int) -> tuple[list[str], list[dict]]:
    """The pool and the decklists: text plus what it should resolve to."""
    rng = random.Random(seed)
    pool = make_pool(pool_size, rng)
    keys = {card_key(name) for name in pool}
    decks = []
    for _ in range(lists):
        main, side = pick(pool, 60, rng), pick(pool, 10, rng)
        typo = None
        if rng.random() < 0.05:
            at = rng.randrange(len(main))
            name, count = main[at]
            wrong = misspell(name, rng)
            if card_key(wrong) not in keys:  # dropping a letter may make another card's name
                typo = (name, wrong)
                main = [*main[:at], (wrong, count), *main[at + 1 :]]
        decks.append({"text": write(main, side, rng), "typo": typo, "lines": len(main) + len(side)})
    return pool, decks


def run(pool: list[str], decks: list[dict], index: PoolIndex | None) -> tuple[float, float, list]:
    """Parse all, then resolve all: (parse seconds, resolve seconds, resolutions)."""
    start = time.perf_counter()
    parsed = [parse(deck["text"]) for deck in decks]
    middle = time.perf_counter()
    index = index or PoolIndex(pool)
    results = [index.resolve(p) for p in parsed]
    end = time.perf_counter()
    return middle - start, end - middle, results


def check(decks: list[dict], results: list) -> list[str]:
    """Wrong results: problems, unexpected unknowns, totals, misspellings not suggested first."""
    wrong = []
    for i, (deck, result) in enumerate(zip(decks, results, strict=True)):
        unknown = [card_key(u.name) for u in result.unknown]
        expected = [card_key(deck["typo"][1])] if deck["typo"] else []
        main = sum(e.count for e in result.main) + sum(u.count for u in result.unknown)
        side = sum(e.count for e in result.sideboard)
        if result.problems or unknown != expected or (main, side) != (60, 10):
            wrong.append(f"list {i}: problems={result.problems} unknown={unknown} {main}+{side}")
        elif deck["typo"] and result.unknown[0].suggestions[:1] != (deck["typo"][0],):
            wrong.append(f"list {i}: {deck['typo']} -> {result.unknown[0].suggestions}")
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=2000)
    parser.add_argument("--pool", type=int, default=1500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()

    pool, decks = generate(args.lists, args.pool, args.seed)
    typos = sum(1 for d in decks if d["typo"])
    lines = sum(d["lines"] for d in decks)
    print(
        f"{args.lists} lists ({lines} card lines, {typos} with a misspelt card), pool {len(pool)}"
    )

    card_key.cache_clear()
    start = time.perf_counter()
    index = PoolIndex(pool)
    build = time.perf_counter() - start
    parse_s, resolve_s, results = run(pool, decks, index)
    cold = build + parse_s + resolve_s
    warm = min((run(pool, decks, index) for _ in range(args.repeats)), key=lambda r: r[0] + r[1])
    wrong = check(decks, results) + check(decks, warm[2])
    stored = [deck_payload(result) for result in results]  # what a Decklist row holds
    stored_s = float("inf")
    for _ in range(args.repeats):
        start = time.perf_counter()
        again = [index.resolve(payload, suggest=False) for payload in stored]
        stored_s = min(stored_s, time.perf_counter() - start)
    wrong += [f"stored list {i} did not resolve" for i, r in enumerate(again) if not r.ok]
    sugg_hit = sum(
        1
        for d, r in zip(decks, results, strict=True)
        if d["typo"] and r.unknown and r.unknown[0].suggestions[:1] == (d["typo"][0],)
    )

    print(
        f"{'run':<6}{'index s':>9}{'parse s':>9}{'resolve s':>11}{'total s':>9}{'per list ms':>13}"
    )
    rows = (
        ("cold", build, parse_s, resolve_s),
        ("warm", 0.0, *warm[:2]),
        ("stored", 0.0, 0.0, stored_s),
    )
    for label, b, p, r in rows:
        total = b + p + r
        print(
            f"{label:<6}{b:>9.3f}{p:>9.3f}{r:>11.3f}{total:>9.3f}{total / args.lists * 1e3:>13.3f}"
        )
    print(f"misspelt cards flagged with the right first suggestion: {sugg_hit}/{typos}")
    for line in wrong[:10]:
        print("WRONG", line)
    if cold > TARGET_SECONDS:
        print(f"OVER TARGET: cold {cold:.3f} s > {TARGET_SECONDS} s")
    return 1 if wrong or cold > TARGET_SECONDS else 0


if __name__ == "__main__":
    sys.exit(main())
