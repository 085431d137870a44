"""Standings on random events against a plain Fraction re-implementation of the rules."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.standings import compute_standings

THIRD = Fraction(1, 3)


def reference(players, matches, win=3, draw=1, loss=0):
    """Exact values per player id, straight from the definitions."""
    record = {p["id"]: [0, 0, 0] for p in players}  # wins, losses, draws
    game_points = {p["id"]: 0 for p in players}
    games = {p["id"]: 0 for p in players}
    opponents = {p["id"]: [] for p in players}
    for m in matches:
        if m.get("bye"):
            (a,) = m["players"]
            record[a][0] += 1
            game_points[a] += 2 * win
            games[a] += 2
            continue
        a, b = m["players"]
        wa, wb = m["games"].count(a), m["games"].count(b)
        drawn = len(m["games"]) - wa - wb
        game_points[a] += wa * win + drawn * draw + wb * loss
        game_points[b] += wb * win + drawn * draw + wa * loss
        games[a] += len(m["games"])
        games[b] += len(m["games"])
        if wa == wb:
            record[a][2] += 1
            record[b][2] += 1
        else:
            record[a if wa > wb else b][0] += 1
            record[b if wa > wb else a][1] += 1
        opponents[a].append(b)
        opponents[b].append(a)

    def mp(pid):
        w, lost, d = record[pid]
        return w * win + d * draw + lost * loss

    def mw(pid):
        return max(THIRD, Fraction(mp(pid), win * sum(record[pid])))

    def gw(pid):
        return max(THIRD, Fraction(game_points[pid], win * games[pid])) if games[pid] else THIRD

    def mean(f, pid):
        mine = opponents[pid]
        return sum((f(o) for o in mine), Fraction(0)) / len(mine) if mine else Fraction(0)

    out = {}
    for p in players:
        pid = p["id"]
        if sum(record[pid]):
            out[pid] = {
                "match_points": mp(pid),
                "record": "{}-{}-{}".format(*record[pid]),
                "omw": mean(mw, pid),
                "gw": gw(pid),
                "ogw": mean(gw, pid),
                "oomw": mean(lambda o: mean(mw, o), pid),
            }
    return out


@st.composite
def events(draw):
    rng = random.Random(draw(st.integers(0, 2**31)))
    n = draw(st.integers(1, 40))
    rounds = draw(st.integers(1, 8))
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(n)]
    for p in players:
        if rng.random() < 0.1:
            p["dropped"] = True
        if rng.random() < 0.05:
            p["disqualified"] = True
    matches = []
    for number in range(1, rounds + 1):
        ids = [p["id"] for p in players if rng.random() > 0.1]
        rng.shuffle(ids)
        if len(ids) % 2:
            matches.append({"round": number, "players": [ids.pop()], "bye": True})
        for i in range(0, len(ids), 2):
            a, b = ids[i], ids[i + 1]
            length = rng.choice([0, 1, 2, 2, 3, 3, 5])
            games = [rng.choice([a, b, a, b, None]) for _ in range(length)]
            matches.append({"round": number, "players": [a, b], "games": games})
    return players, matches


@settings(max_examples=150, deadline=None)
@given(events(), st.sampled_from([None, ["match_points", "gw", "omw"], ["oomw", "ogw"]]))
def test_rows_match_the_definitions_and_rank_order(event, tiebreakers):
    players, matches = event
    rows = compute_standings(players, matches, tiebreakers=tiebreakers)
    exact = reference(players, matches)
    order = tiebreakers or ["match_points", "omw", "gw", "ogw"]
    position = {p["id"]: i for i, p in enumerate(players)}
    flags = {p["id"]: p for p in players}

    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert sorted(r["player"] for r in rows) == sorted(exact)
    for row in rows:
        values = exact[row["player"]]
        assert row["match_points"] == values["match_points"]
        assert row["record"] == values["record"]
        for key in ("omw", "gw", "ogw"):
            assert row[key] == float(round(values[key], 4))
        assert row.get("dropped", False) == flags[row["player"]].get("dropped", False)
        assert row.get("disqualified", False) == flags[row["player"]].get("disqualified", False)

    def sort_key(row):
        values = exact[row["player"]]
        return (
            bool(row.get("disqualified")),
            tuple(-values[name] for name in order),
            position[row["player"]],
        )

    assert rows == sorted(rows, key=sort_key)
