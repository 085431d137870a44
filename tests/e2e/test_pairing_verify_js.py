"""static/js/pairing-verify.js gives the verdicts of pairing/verify.py, word for word.

The browser's checker is a port: each case below (engine outputs with their certificates,
the same outputs tampered with, malformed documents) is checked by both, and the two
must agree on valid-or-refused, on the refusal's message, on what was proven and on the
CLI's sentence. The JSON texts are what the page is given, so big integers stay exact.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
from pathlib import Path

import pytest

from pairing import verify
from pairing.simulator import simulate
from pairing.swiss import pair_state

pytestmark = pytest.mark.e2e

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "pairing-verify.js"

JS_VERDICT = """([state, pairing]) => {
  const started = performance.now();
  const verdict = window.ArbiterVerify.verify(state, pairing);
  const ms = performance.now() - started;
  if (verdict.ok) verdict.summary = window.ArbiterVerify.summary(verdict.proven);
  return {verdict, ms};
}"""


# --- what Python says ------------------------------------------------------------------


def python_verdict(state_text: str, pairing_text: str, tmp_path: Path) -> dict:
    """pairing.verify's verdict in the shape of the script's, with the CLI's sentence."""
    try:
        proven = verify.verify(json.loads(state_text), json.loads(pairing_text))
    except verify.Refused as refused:
        return {"ok": False, "message": str(refused)}
    state_file, pairing_file = tmp_path / "state.json", tmp_path / "pairing.json"
    state_file.write_text(state_text)
    pairing_file.write_text(pairing_text)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert verify.main([str(state_file), str(pairing_file)]) == 0
    if isinstance(proven["cost"], int) and abs(proven["cost"]) > 2**53 - 1:
        proven["cost"] = str(proven["cost"])  # the script's string for an unsafe integer
    sentence = printed.getvalue().strip().removeprefix("VALID and OPTIMAL: ")
    return {"ok": True, "proven": proven, "summary": sentence}


# --- the cases -------------------------------------------------------------------------


def engine_round(players: int, rounds: int, seed: int, *, int_ids=False, points=None):
    """The last state of a simulated event (points rewritten by ``points`` if given) and
    the engine's pairing of it with its certificate, as JSON would carry them."""
    state = list(simulate(players, rounds, seed, int_ids=int_ids))[-1]
    if points is not None:
        for player in state["players"]:
            player["points"] = points(player["points"])
    state = json.loads(json.dumps(state))
    return state, json.loads(json.dumps(pair_state(state, certificate=True)))


def points_of(state: dict) -> dict:
    return {p["id"]: p["points"] for p in state["players"]}


def met(state: dict) -> dict:
    return {p["id"]: set(p["opponents"]) for p in state["players"]}


def crossed(state: dict, pairing: dict) -> dict:
    """Two pairs of different score groups crossed: still valid, but it costs more."""
    points, history = points_of(state), met(state)
    pairs = pairing["pairings"]
    for i, (a, b) in enumerate(pairs):
        for j in range(i + 1, len(pairs)):
            c, d = pairs[j]
            groups = points[a] == points[b] != points[c] == points[d]
            if groups and c not in history[a] and d not in history[b]:
                out = copy.deepcopy(pairing)
                out["pairings"][i], out["pairings"][j] = [a, c], [b, d]
                return out
    raise AssertionError("no two score groups to cross")


def rematch_swapped_in(state: dict, pairing: dict) -> dict:
    history = met(state)
    pairs = pairing["pairings"]
    for i, (a, b) in enumerate(pairs):
        for j in range(i + 1, len(pairs)):
            c, d = pairs[j]
            if c in history[a]:
                out = copy.deepcopy(pairing)
                out["pairings"][i], out["pairings"][j] = [a, c], [b, d]
                return out
    raise AssertionError("no rematch to swap in")


def player_removed(pairing: dict) -> dict:
    out = copy.deepcopy(pairing)
    out["pairings"][-1] = out["pairings"][-1][:1]
    return out


def pair_removed(pairing: dict) -> dict:
    out = copy.deepcopy(pairing)
    del out["pairings"][len(out["pairings"]) // 2]
    return out


def potential_raised(pairing: dict, by: int = 2) -> dict:
    out = copy.deepcopy(pairing)
    out["certificate"]["potentials"][0][1] += by
    return out


def blossom_z_changed(pairing: dict, by: int) -> dict:
    out = copy.deepcopy(pairing)
    blossom = next(b for b in out["certificate"]["blossoms"] if b["z"] > 0)
    blossom["z"] += by
    return out


def player_moved(pairing: dict) -> dict:
    """One player from the first blossom that lists players to the next one that does."""
    out = copy.deepcopy(pairing)
    holding = [b for b in out["certificate"]["blossoms"] if b["players"]]
    holding[1]["players"].append(holding[0]["players"].pop())
    return out


def two_players_moved(pairing: dict) -> dict:
    """Two players moved, so both blossoms keep an odd size: the duals must catch it."""
    out = copy.deepcopy(pairing)
    holding = [b for b in out["certificate"]["blossoms"] if len(b["players"]) >= 2]
    source, target = holding[0], holding[1]
    target["players"] += [source["players"].pop(), source["players"].pop()]
    return out


def with_blossoms(players: int, rounds: int, *, int_ids=False, points=None, at_least=2):
    """The first simulated round (seed 1, 2, ...) whose certificate has blossoms."""
    for seed in range(1, 60):
        state, pairing = engine_round(players, rounds, seed, int_ids=int_ids, points=points)
        blossoms = pairing["certificate"]["blossoms"]
        if len([b for b in blossoms if len(b["players"]) >= 2 and b["z"] > 0]) >= at_least:
            return state, pairing
    raise AssertionError("no certificate with blossoms")


def everyone_met(count: int, ids) -> dict:
    """``count`` players who have all met each other: only rematches are left."""
    players = [
        {
            "id": pid,
            "points": 3 * (count - 1 - k),
            "opponents": [o for o in ids if o != pid],
            "had_bye": False,
            "dropped": False,
        }
        for k, pid in enumerate(ids)
    ]
    return {"round": count, "seed": 7, "players": players}


def bye_passed_over() -> dict:
    """The lowest-ranked player ("e") has had no bye, but with "e" out "a" (who met b, c
    and d) could only be paired again with someone met: the bye passes over "e"."""
    history = {"a": ["b", "c", "d"], "b": ["a"], "c": ["a"], "d": ["a"], "e": []}
    points = {"a": 9, "b": 6, "c": 3, "d": 3, "e": 0}
    return {
        "round": 4,
        "seed": 5,
        "players": [
            {"id": pid, "points": points[pid], "opponents": history[pid], "had_bye": pid == "b"}
            for pid in "abcde"
        ],
    }


def engine(state: dict) -> dict:
    return json.loads(json.dumps(pair_state(state, certificate=True)))


@functools.cache
def engine_cases() -> list[tuple[str, dict, dict]]:
    half = lambda points: points / 2  # noqa: E731 - a win is 1.5, a draw 0.5
    odd = lambda points: points * 2.345678  # noqa: E731 - a scale of 10**6
    huge = lambda points: points * 10**8  # noqa: E731 - integer costs past 2**53
    tiny = lambda points: points * 2.5e-6 if points else 1e-7  # noqa: E731 - halves at 10**6
    return [
        ("40 string ids", *engine_round(40, 4, 1)),
        ("41 int ids", *engine_round(41, 3, 2, int_ids=True)),
        ("33 players, odd, bye", *engine_round(33, 5, 4)),
        ("101 int ids, fractional points", *engine_round(101, 5, 5, int_ids=True, points=half)),
        ("120 points times 2.345678", *engine_round(120, 7, 6, points=odd)),
        ("50 points times 10**8", *engine_round(50, 5, 10, int_ids=True, points=huge)),
        ("30 points times 2.5e-6, rounded half to even", *engine_round(30, 4, 12, points=tiny)),
        ("300 players round 7", *engine_round(300, 7, 7)),
        ("2 players", *engine_round(2, 1, 8)),
        ("3 players", *engine_round(3, 2, 9, int_ids=True)),
        ("4 who all met", everyone_met(4, ["w", "x", "y", "z"]), None),
        ("5 who all met", everyone_met(5, [1, 2, 3, 4, 5]), None),
        ("bye passed over", bye_passed_over(), None),
    ]


@functools.cache
def all_cases() -> list[tuple[str, dict, dict]]:
    cases = []
    for name, state, pairing in engine_cases():
        cases.append((name, state, pairing if pairing is not None else engine(state)))
    named = {name: (state, pairing) for name, state, pairing in cases}
    strings, ints = named["40 string ids"], named["41 int ids"]
    fractional, scaled = named["101 int ids, fractional points"], named["120 points times 2.345678"]
    huge = named["50 points times 10**8"]
    blossomy = with_blossoms(60, 5)
    cases += [
        ("crossed groups", strings[0], crossed(*strings)),
        ("crossed groups, fractional", fractional[0], crossed(*fractional)),
        ("crossed groups, big scale", scaled[0], crossed(*scaled)),
        ("crossed groups, points times 10**8", huge[0], crossed(*huge)),
        ("rematch swapped in", strings[0], rematch_swapped_in(*strings)),
        ("rematch swapped in, int ids", ints[0], rematch_swapped_in(*ints)),
        ("player removed", strings[0], player_removed(strings[1])),
        ("pair removed", ints[0], pair_removed(ints[1])),
        ("potential +2", strings[0], potential_raised(strings[1])),
        ("potential +2, big scale", scaled[0], potential_raised(scaled[1])),
        ("potential -2", ints[0], potential_raised(ints[1], -2)),
        ("blossoms", *blossomy),
        ("blossom z +2", blossomy[0], blossom_z_changed(blossomy[1], 2)),
        ("blossom z -1", blossomy[0], blossom_z_changed(blossomy[1], -1)),
        ("player moved between blossoms", blossomy[0], player_moved(blossomy[1])),
        ("two players moved between blossoms", blossomy[0], two_players_moved(blossomy[1])),
    ]
    cases += forced_cases(named) + bye_cases(named) + malformed_cases(strings, ints)
    return cases


def forced_cases(named: dict) -> list:
    """The "fewest_rematches" regime: the bye vertex's dual, a rematch not tight."""
    state, pairing = named["5 who all met"]
    lower = copy.deepcopy(pairing)
    entries = lower["certificate"]["potentials"]
    bye_entry = next((e for e in entries if e[0] is None), None)
    if bye_entry is None:
        entries.append([None, -2])
    else:
        bye_entry[1] -= 2
    raised = copy.deepcopy(pairing)
    raised["certificate"]["potentials"].append([None, 10**30])
    four, four_pairing = named["4 who all met"]
    other_bye = copy.deepcopy(pairing)
    other_bye["bye"], other_bye["pairings"][0][0] = pairing["pairings"][0][0], pairing["bye"]
    return [
        ("5 who all met: bye dual lowered", state, lower),
        ("5 who all met: bye dual raised past 2**53", state, raised),
        ("5 who all met: bye to another", state, other_bye),
        ("4 who all met: potential +2", four, potential_raised(four_pairing)),
        ("4 who all met: no regime", four, _without_regime(four_pairing)),
    ]


def _without_regime(pairing: dict) -> dict:
    out = copy.deepcopy(pairing)
    del out["certificate"]["regime"]
    return out


def bye_cases(named: dict) -> list:
    state, pairing = named["bye passed over"]
    no_proof = copy.deepcopy(pairing)
    no_proof["certificate"]["bye_barriers"] = []
    weak = copy.deepcopy(pairing)
    weak["certificate"]["bye_barriers"] = [["e", ["a", "b", "c"]]]
    unknown = copy.deepcopy(pairing)
    unknown["certificate"]["bye_barriers"] = [["e", ["zz"]]]
    to_e = copy.deepcopy(pairing)
    e_pair = next(p for p in to_e["pairings"] if "e" in p)
    e_pair[e_pair.index("e")] = to_e["bye"]
    to_e["bye"] = "e"
    return [
        ("bye passed over: no proof", state, no_proof),
        ("bye passed over: a barrier that proves nothing", state, weak),
        ("bye passed over: a barrier naming a stranger", state, unknown),
        ("bye to the lowest though it forces a rematch", state, to_e),
    ]


def malformed_cases(strings: tuple, ints: tuple) -> list:
    """Documents that are wrong in one place each: the first refusal must be the same."""
    state, pairing = strings
    int_state, int_pairing = ints

    def edit(document, change):
        out = copy.deepcopy(document)
        change(out)
        return out

    first, second = pairing["pairings"][0]
    cert = pairing["certificate"]
    without = edit(state, lambda s: s["players"].remove(_active(s)))
    return [
        ("state not an object", [], pairing),
        ("player without points", edit(state, lambda s: s["players"][3].pop("points")), pairing),
        ("points a string", edit(state, lambda s: s["players"][2].update(points="3")), pairing),
        ("points true", edit(state, lambda s: s["players"][2].update(points=True)), pairing),
        ("pairing without pairings", state, {"bye": None}),
        ("a table of three", state, edit(pairing, lambda p: p["pairings"][0].append(first))),
        ("a player twice", state, edit(pairing, lambda p: p["pairings"][1].__setitem__(0, first))),
        (
            "an unknown player",
            state,
            edit(pairing, lambda p: p["pairings"][0].__setitem__(1, "??")),
        ),
        (
            '"1" is not 1',
            int_state,
            edit(int_pairing, lambda p: p["pairings"][0].__setitem__(0, str(p["pairings"][0][0]))),
        ),
        ("a dropped player", edit(state, lambda s: _drop(s, second)), pairing),
        ("a bye with an even count", state, edit(pairing, lambda p: p.update(bye="p999"))),
        ("a paired player not in the state", without, pairing),
        ("no certificate", state, edit(pairing, lambda p: p.pop("certificate"))),
        ("wrong format", state, edit(pairing, lambda p: p["certificate"].update(format="x/2"))),
        ("unknown regime", state, edit(pairing, lambda p: p["certificate"].update(regime=[1]))),
        (
            "potential 1.5e-05",
            state,
            edit(pairing, lambda p: _cert(p, potentials=[[first, 1.5e-05]])),
        ),
        (
            "potential 1e16, a float",
            state,
            edit(pairing, lambda p: _cert(p, potentials=[[first, 1e16]])),
        ),
        ("true for the id 1", int_state, edit(int_pairing, _true_for_1)),
        ("potentials not a list", state, edit(pairing, lambda p: _cert(p, potentials={}))),
        ("potential a float", state, edit(pairing, lambda p: _cert(p, potentials=[[first, 1.5]]))),
        (
            "potential of a stranger",
            state,
            edit(pairing, lambda p: _cert(p, potentials=[["é", 2]])),
        ),
        ("blossom not an object", state, edit(pairing, lambda p: _cert(p, blossoms=[3]))),
        (
            "blossom with negative z",
            state,
            edit(pairing, lambda p: _cert(p, blossoms=[{"z": -2, "players": [first]}])),
        ),
        (
            "blossom holding itself",
            state,
            edit(pairing, lambda p: _cert(p, blossoms=[{"z": 0, "players": [], "blossoms": [0]}])),
        ),
        (
            "blossoms in a cycle",
            state,
            edit(
                pairing,
                lambda p: _cert(p, blossoms=[{"z": 0, "blossoms": [1]}, {"z": 0, "blossoms": [0]}]),
            ),
        ),
        (
            "an even blossom",
            state,
            edit(pairing, lambda p: _cert(p, blossoms=[{"z": 0, "players": [first, second]}])),
        ),
        (
            "a player in two blossoms",
            state,
            edit(
                pairing,
                lambda p: _cert(p, blossoms=[{"z": 0, "players": [first]}] * 2),
            ),
        ),
        (
            "certificate emptied",
            state,
            edit(pairing, lambda p: _cert(p, potentials=[], blossoms=[])),
        ),
        ("certificate as given", state, edit(pairing, lambda p: p.update(certificate=dict(cert)))),
    ]


def _true_for_1(pairing: dict) -> None:
    """true is not the player 1: both checkers refuse it as an id."""
    pairing["pairings"] = [
        [True if pid == 1 else pid for pid in pair] for pair in pairing["pairings"]
    ]


def _active(state: dict) -> dict:
    return next(p for p in state["players"] if not p["dropped"])


def _drop(state: dict, pid) -> None:
    next(p for p in state["players"] if p["id"] == pid)["dropped"] = True


def _cert(pairing: dict, **changes) -> None:
    pairing["certificate"].update(changes)


@functools.cache
def once_crashing_cases() -> list[tuple[str, dict, dict]]:
    """Inputs on which verify.py raised TypeError or OverflowError, not Refused."""
    named = {name: (state, pairing) for name, state, pairing in all_cases()}
    state, pairing = named["33 players, odd, bye"]
    forced, forced_pairing = named["5 who all met"]
    first = pairing["pairings"][0][0]

    def edit(document, change):
        out = copy.deepcopy(document)
        change(out)
        return out

    return [
        (
            "an id that is a list",
            state,
            edit(pairing, lambda p: p["pairings"][0].__setitem__(0, [first])),
        ),
        ("a bye that is an object", state, edit(pairing, lambda p: p.update(bye={"id": first}))),
        ("a state id that is a list", edit(state, lambda s: _active(s).update(id=["x"])), pairing),
        ("opponents a number", edit(state, lambda s: _active(s).update(opponents=5)), pairing),
        (
            "an opponent an object",
            edit(state, lambda s: _active(s).update(opponents=[{}])),
            pairing,
        ),
        ("avoid true", edit(state, lambda s: _active(s).update(avoid=True)), pairing),
        ("bye_barriers null", state, edit(pairing, lambda p: _cert(p, bye_barriers=None))),
        (
            "a barrier naming a list",
            state,
            edit(pairing, lambda p: _cert(p, bye_barriers=[[[1], []]])),
        ),
        (
            "blossom players null",
            state,
            edit(pairing, lambda p: _cert(p, blossoms=[{"z": 0, "players": None}])),
        ),
        (
            "blossom blossoms a number",
            state,
            edit(pairing, lambda p: _cert(p, blossoms=[{"z": 0, "blossoms": 3}])),
        ),
        (
            "a bound past the floats",
            forced,
            edit(
                forced_pairing, lambda p: p["certificate"]["potentials"].append([None, -(10**400)])
            ),
        ),
    ]


# --- the tests -------------------------------------------------------------------------


@pytest.fixture
def checker(page):
    """A blank page with the script loaded: ``checker(state, pairing)`` -> (verdict, ms)."""
    page.set_content("<html><body></body></html>")
    page.add_script_tag(path=str(SCRIPT))

    def run(state_text: str, pairing_text: str):
        answer = page.evaluate(JS_VERDICT, [state_text, pairing_text])
        return answer["verdict"], answer["ms"]

    return run


def test_the_script_gives_every_verdict_verify_py_gives(checker, tmp_path):
    differences, refused = [], 0
    for name, state, pairing in all_cases():
        texts = json.dumps(state), json.dumps(pairing)
        expected = python_verdict(*texts, tmp_path)
        got, _ = checker(*texts)
        refused += not expected["ok"]
        if got != expected:
            differences.append(f"{name}:\n  python: {expected}\n  script: {got}")
    assert not differences, "\n".join(differences)
    assert 0 < refused < len(all_cases())  # both verdicts were exercised


def test_the_cases_reach_past_2_to_the_53(checker):
    """Dual values and costs a Number could not hold exactly: the BigInt paths run."""
    past = 2**53
    for name in ("120 points times 2.345678", "50 points times 10**8"):
        _, state, pairing = next(case for case in all_cases() if case[0] == name)
        assert max(abs(y) for _, y in pairing["certificate"]["potentials"]) > past, name
    verdict, _ = checker(json.dumps(state), json.dumps(pairing))
    assert isinstance(verdict["proven"]["cost"], str) and int(verdict["proven"]["cost"]) > past


def test_inputs_verify_py_once_crashed_on_are_refused_alike(checker, tmp_path):
    for name, state, pairing in once_crashing_cases():
        texts = json.dumps(state), json.dumps(pairing)
        expected = python_verdict(*texts, tmp_path)
        assert not expected["ok"], name
        assert checker(*texts)[0] == expected, name


def test_engine_rounds_are_proven_and_tampered_ones_refused(checker):
    proven = {name for name, _, _ in engine_cases()} | {"blossoms", "certificate as given"}
    for name, state, pairing in all_cases():
        verdict, _ = checker(json.dumps(state), json.dumps(pairing))
        assert verdict["ok"] is (name in proven), (name, verdict)


def test_the_forced_field_is_proven_in_the_fewest_rematches_regime(checker):
    for name in ("4 who all met", "5 who all met"):
        _, state, pairing = next(case for case in all_cases() if case[0] == name)
        verdict, _ = checker(json.dumps(state), json.dumps(pairing))
        assert verdict["proven"]["regime"] == "fewest_rematches", name
        assert verdict["proven"]["rematches"] == verdict["proven"]["pairs"], name


def test_a_thousand_players_check_well_under_a_second(checker, tmp_path):
    state, pairing = engine_round(1000, 6, 11)
    texts = json.dumps(state), json.dumps(pairing)
    verdict, ms = checker(*texts)
    assert verdict == python_verdict(*texts, tmp_path)
    assert verdict["ok"]
    assert ms < 1000, f"{ms:.0f} ms"


def test_unreadable_json_is_refused_naming_the_document(checker):
    verdict, _ = checker('{"players": [', "{}")
    assert not verdict["ok"]
    assert verdict["message"].startswith("cannot read the state:")
