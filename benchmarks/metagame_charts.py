"""Time the metagame's SVG charts (issue 36; page budget 300 ms warm, a heat map < 400 ms).

Run: ``.venv/bin/python benchmarks/metagame_charts.py`` (``--repeats R``).

Three charts from a fixed seed: ``bar_chart`` with 20 bars, ``heatmap`` with 20 and 30
archetypes (about a tenth of the pairs never met, a third of the rest small samples).
For each: *cold*, a fresh Python process importing ``metagame.charts`` (matplotlib
included) and then drawing it once, both timed from inside that process; then *warm*,
the median and the slowest of ``--repeats`` draws in this process. Prints the SVG's size too.

Exits non-zero when a warm median is over the page's budget.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BUDGET_MS = 300
CASES = {"bar_chart 20": ("bars", 20), "heatmap 20": ("heat", 20), "heatmap 30": ("heat", 30)}


def _names(count: int) -> list[str]:
    fixed = ["エンバー", "Mono-Red Aggro", "Azorius Control with Every Counterspell"]
    return (fixed + [f"Archetype {i}" for i in range(count)])[:count]


def draw(kind: str, count: int):
    """A function drawing one chart of ``kind`` with ``count`` archetypes."""
    from metagame.charts import Bar, HeatCell, bar_chart, heatmap

    rng = random.Random(36)
    names = _names(count)
    if kind == "bars":
        bars = []
        for i, name in enumerate(names):
            value = rng.uniform(0.01, 0.3)
            bars.append(
                Bar(name, value, value * 0.6, value * 1.5, f"{name}: {value:.0%}", i % 5 == 4)
            )
        return lambda: bar_chart(bars, title="Share of the field", axis="Share", id_prefix="share")
    cells = {}
    for i in range(count):
        for j in range(count):
            if i != j and rng.random() > 0.1:
                v = rng.random()
                cells[i, j] = HeatCell(
                    v, f"{v:.0%}", f"{names[i]} vs {names[j]}", rng.random() < 0.3
                )
    return lambda: heatmap(
        names, cells, title="Matchups", rows_axis="Playing", columns_axis="Against", id_prefix="m"
    )


def cold(case: str) -> tuple[float, float]:
    """Seconds to import the charts, then to draw ``case`` once, in a fresh process."""
    out = subprocess.run(
        [sys.executable, __file__, "--cold-one", case],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    imported, drawn = out.stdout.split()
    return float(imported), float(drawn)


def _cold_one(case: str) -> None:
    start = time.perf_counter()
    import metagame.charts  # noqa: F401  (matplotlib with it)

    imported = time.perf_counter()
    draw(*CASES[case])()
    print(imported - start, time.perf_counter() - imported)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--cold-one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_one:
        _cold_one(args.cold_one)
        return 0
    print(
        f"{'chart':<18} {'import ms':>9} {'first ms':>9} {'warm median':>12} {'warm max':>9}"
        f" {'SVG KB':>7}"
    )
    over = False
    for case, (kind, count) in CASES.items():
        imported, first = cold(case)
        chart = draw(kind, count)
        svg = chart()
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            chart()
            times.append(time.perf_counter() - start)
        median = statistics.median(times) * 1000
        over |= median > BUDGET_MS
        print(
            f"{case:<18} {imported * 1000:>9.0f} {first * 1000:>9.0f} {median:>12.0f}"
            f" {max(times) * 1000:>9.0f}"
            f" {len(svg.encode()) / 1024:>7.0f}"
        )
    print(f"budget: warm median < {BUDGET_MS} ms" + (" - OVER" if over else " - met"))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
