"""``python -m pairing.swiss`` as a process: JSON in, JSON out, exit 2 on bad input."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from pairing.simulator import simulate
from tests.unit.pairing.test_swiss_optimal import check_pairing

ROOT = pathlib.Path(__file__).resolve().parents[3]


def run(
    stdin: str, *args: str, hash_seed: str = "0", module: str = "pairing.swiss"
) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO")}
    env["PYTHONHASHSEED"] = hash_seed
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def late_round_state() -> dict:
    *_, last = simulate(600, 7, seed=99, draw_rate=0.1)
    return last


def test_cli_pairs_a_round():
    state = late_round_state()
    done = run(json.dumps(state))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    check_pairing(state, out)
    assert set(out["stats"]) >= {"pair_downs", "rematches", "seconds"}
    assert out["seed"] == state["seed"]


def test_cli_output_is_identical_across_processes_and_hash_seeds():
    """Hash randomisation (and rustworkx's per-process tie order) must not leak in."""
    text = json.dumps(late_round_state())
    outputs = []
    for hash_seed in ("1", "2", "random"):
        done = run(text, hash_seed=hash_seed)
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        out["stats"].pop("seconds")
        outputs.append(json.dumps(out))
    assert outputs[0] == outputs[1] == outputs[2]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "the input must be a JSON object"),
        ('{"round": 1}', 'the input has no "players"'),
        ('{"round": 1, "players": {}}', '"players" must be a list'),
        (
            '{"round": 2, "players": [{"id": "p1", "points": "nine", "opponents": []}]}',
            'players[0] (id "p1"): "points" must be a number, got "nine"',
        ),
        (
            '{"round": 2, "players": [{"id": 4, "points": 1, "opponents": []},'
            ' {"id": 4, "points": 2, "opponents": []}]}',
            "players[1] (id 4): duplicate id, also players[0]",
        ),
        (
            '{"round": 2, "players": [{"id": "p1", "points": 3}]}',
            'players[0] (id "p1") has no "opponents"',
        ),
        ('{"round": "4", "players": []}', '"round" must be a positive integer'),
    ],
)
def test_cli_bad_input_exits_2_with_a_message(stdin, message):
    done = run(stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert message in done.stderr


def test_cli_help_and_stray_arguments():
    assert run("", "--help").returncode == 0
    assert run("", "--frobnicate").returncode == 2


def test_the_old_module_name_still_runs_the_engine():
    """``python -m tournaments.swiss`` is a deprecated alias for one release: same output."""
    text = json.dumps(late_round_state())
    outputs = []
    for module in ("pairing.swiss", "tournaments.swiss"):
        done = run(text, module=module)
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        out["stats"].pop("seconds")
        outputs.append(out)
    assert outputs[0] == outputs[1]
    bad = run('{"round": 1}', module="tournaments.swiss")
    assert bad.returncode == 2
    assert 'the input has no "players"' in bad.stderr


def test_engine_modules_import_no_django():
    """Run in a fresh process: pytest-django has imported Django into this one."""
    code = (
        "import sys, pairing, pairing.swiss, pairing.solver, pairing.standings,"
        " pairing.bracket, pairing.simulator, tournaments.swiss\n"
        "assert not [m for m in sys.modules if m.startswith('django')], 'django imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
