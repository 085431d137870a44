"""Proven pairings: the engine with its certificate, the checker, and the baseline.

Run: ``.venv/bin/python benchmarks/verify_pairings.py`` (``--sizes``, ``--classes``,
``--repeats N``, ``--baseline-up-to N``, ``--memory-at N``). For every input class
(``common`` is round 9; the others as in ``benchmarks/swiss.py``) and size it

* times ``pairing.swiss`` with ``--certificate`` in-process (best of ``--repeats``),
  JSON in to JSON out, proof included;
* checks the output with ``python pairing/verify.py STATE PAIRING`` as a new process
  (interpreter start and JSON reading included) and requires "VALID and OPTIMAL";
* up to ``--baseline-up-to`` players, times the baseline: rustworkx's blossom on the
  score-group graph (every rematch-free pair within a score group or between adjacent
  ones, the engine's integer weights), the matching alone, and requires the engine's
  cost to be no higher;
* at ``--memory-at`` players, measures the peak memory (``/usr/bin/time -v``, maximum
  resident set) of ``python -m pairing.swiss --certificate`` and of the checker.

Targets (issue 34), all checked in the same run, exit 1 if one is missed:
long-30 within 5x of common round 9 at 4,096 players; no class slower than the
baseline; the checker under 2 s at 16,384 and 10 s at 65,536; both processes under
1 GiB at 65,536.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rustworkx as rx  # noqa: E402

from benchmarks.swiss import class_states, time_in_process  # noqa: E402
from pairing import verify  # noqa: E402

CLASSES = ("common", "veteran-100", "long-20", "long-30", "dropped-60")
CHECKER_TARGETS = {16384: 2.0, 65536: 10.0}
MEMORY_LIMIT = 1024**3
RATIO = 5.0


def state_for(name: str, size: int) -> tuple[str, dict]:
    """The class's input at this size (round 9 for ``common``)."""
    states = class_states(name, size)
    return states[-1]


def time_engine(text: str, repeats: int) -> tuple[float, dict]:
    """Best wall time of ``pairing.swiss.main(["--certificate"])`` on StringIO, and its output."""
    return time_in_process(text, repeats, ("--certificate",))


def run_checker(state_path: str, pairing_path: str, repeats: int) -> tuple[float, str]:
    """Best wall time of the standard-library checker as a new process, and its verdict."""
    best, verdict = float("inf"), ""
    for _ in range(repeats):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-I", str(ROOT / "pairing" / "verify.py"), state_path, pairing_path],
            capture_output=True,
            text=True,
        )
        best = min(best, time.perf_counter() - started)
        verdict = done.stdout.strip()
        assert done.returncode == 0, verdict + done.stderr
    return best, verdict


def baseline(state: dict, bye: object) -> tuple[int, float, int]:
    """rustworkx's blossom on the score-group graph: (cost, seconds, reach).

    The graph joins every rematch-free pair within ``reach`` score groups of each other
    (the engine's integer weights); the reach starts at 1 (a group and the next) and
    doubles until the graph can pair everyone. Only the successful matching is timed.
    """
    field = verify.Field(state)
    vertices = [v for v in range(len(field.ids)) if field.ids[v] != bye]
    costs = verify.Costs(field, vertices, verify.REMATCH_FREE)
    groups: dict[int, list[int]] = {}
    for v in vertices:
        groups.setdefault(field.points[v], []).append(v)
    levels = sorted(groups, reverse=True)
    local = {v: i for i, v in enumerate(vertices)}
    top = costs.group_pair(levels[0], levels[-1]) + 1
    reach = 1
    while True:
        edges = []
        for g, level in enumerate(levels):
            near = [w for h in levels[g : g + reach + 1] for w in groups[h]]
            for v in groups[level]:
                forbidden = field.forbidden[v]
                for w in near:
                    if local[w] > local[v] and w not in forbidden:
                        weight = top - costs.group_pair(level, field.points[w])
                        edges.append((local[v], local[w], weight))
        graph = rx.PyGraph()
        graph.add_nodes_from(range(len(vertices)))
        graph.extend_from_weighted_edge_list(edges)
        started = time.perf_counter()
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        seconds = time.perf_counter() - started
        if 2 * len(matching) == len(vertices) or reach >= len(levels):
            break
        reach *= 2
    points = field.points
    cost = sum((points[vertices[a]] - points[vertices[b]]) ** 2 for a, b in matching)
    return cost, seconds, reach


def peak_memory(command: list[str], stdin_path: str | None = None) -> int:
    """Maximum resident set of a command, in bytes, from ``/usr/bin/time -v``."""
    with contextlib.ExitStack() as stack:
        stdin = stack.enter_context(open(stdin_path)) if stdin_path else None
        done = subprocess.run(
            ["/usr/bin/time", "-v", *command],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert done.returncode == 0 and found, done.stderr[-2000:]
    return int(found.group(1)) * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096, 16384, 65536])
    parser.add_argument("--classes", nargs="+", choices=CLASSES, default=list(CLASSES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline-up-to", type=int, default=4096)
    parser.add_argument("--memory-at", type=int, default=65536)
    args = parser.parse_args()
    header = (
        f"{'class':<12} {'players':>7} {'active':>6} {'engine+proof s':>14} "
        f"{'checker s':>9} {'baseline s':>10} {'cost':>6} {'base cost':>9} {'blossoms':>8}"
    )
    print(header)
    print("-" * len(header))
    missed: list[str] = []
    engine_seconds: dict[tuple[str, int], float] = {}
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="verify-bench-"))
    for size in args.sizes:
        for name in args.classes:
            _label, state = state_for(name, size)
            text = json.dumps(state)
            seconds, out = time_engine(text, args.repeats)
            engine_seconds[(name, size)] = seconds
            state_path, pairing_path = workdir / "state.json", workdir / "pairing.json"
            state_path.write_text(text)
            pairing_path.write_text(json.dumps(out))
            checker, verdict = run_checker(str(state_path), str(pairing_path), args.repeats)
            assert verdict.startswith("VALID and OPTIMAL"), verdict
            base_cost, base_seconds = "-", "-"
            if size <= args.baseline_up_to:
                cost, took, reach = baseline(state, out["bye"])
                base_cost, base_seconds = f"{cost} r{reach}", f"{took:.2f}"
                if out["stats"]["cost"] > cost:
                    missed.append(f"{name} {size}: cost {out['stats']['cost']} > baseline {cost}")
                if seconds > took:
                    missed.append(f"{name} {size}: {seconds:.3f} s, baseline {took:.3f} s")
            target = CHECKER_TARGETS.get(size)
            if target is not None and checker >= target:
                missed.append(f"checker {name} {size}: {checker:.2f} s")
            active = sum(1 for p in state["players"] if not p["dropped"])
            print(
                f"{name:<12} {size:>7} {active:>6} {seconds:>14.3f} {checker:>9.3f} "
                f"{base_seconds:>10} {out['stats']['cost']:>6} {base_cost:>9} "
                f"{len(out['certificate']['blossoms']):>8}",
                flush=True,
            )
            if size == args.memory_at and name == "common":
                engine_peak = peak_memory(
                    [sys.executable, "-m", "pairing.swiss", "--certificate"], str(state_path)
                )
                checker_peak = peak_memory(
                    [sys.executable, "-I", "pairing/verify.py", str(state_path), str(pairing_path)]
                )
                print(
                    f"  peak memory at {size}: engine with --certificate "
                    f"{engine_peak / 2**20:.0f} MiB, checker {checker_peak / 2**20:.0f} MiB"
                )
                for what, peak in (("engine", engine_peak), ("checker", checker_peak)):
                    if peak > MEMORY_LIMIT:
                        missed.append(f"{what} peak {peak / 2**20:.0f} MiB at {size}")
    common, long = engine_seconds.get(("common", 4096)), engine_seconds.get(("long-30", 4096))
    if common and long:
        print(f"long-30 / common round 9 at 4,096: {long / common:.1f}x (target <= {RATIO:.0f}x)")
        if long > RATIO * common:
            missed.append(f"long-30 at 4,096 is {long / common:.1f}x round 9")
    if missed:
        print("OVER TARGET: " + "; ".join(missed))
        return 1
    print("all within target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
