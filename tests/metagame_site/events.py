"""Events for the metagame's tests, built from decklists and results the test writes.

Pairings are laid down as rows (the test decides who meets whom); every result goes
through the result service, as staff enter it; decklists are submitted as players do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from arbiter.worlds import DemoPool, ensure_demo_pool
from decks.services import save_decklist
from tests.conftest import make_user
from tournaments.event import phases, services
from tournaments.models import Event, Match, Registration, Round
from tournaments.results import services as results
from tournaments.rounds import services as rounds

# Demo list i is (major i % 3, splash i % 2): 0 EMB/MTH, 1 IRN/SLT, 2 TID/MTH, 3 EMB/SLT,
# 4 IRN/MTH, 5 TID/SLT, 6 EMB/MTH, 7 IRN/SLT, 8 TID/MTH.
HAND_LISTS = {"a1": 0, "a2": 6, "b1": 1, "b2": 7, "c1": 2, "c2": 8, "d1": 3, "e1": None, "f1": 4}
"""a* play EMB/MTH, b* IRN/SLT, c* TID/MTH; d1 (EMB/SLT) and f1 (IRN/MTH) are the only
players of their archetypes (so: Other); e1 submits no list."""

HAND_ROUNDS: Sequence[tuple[str, Sequence[tuple[str, str | None, str]]]] = (
    ("swiss", (("a1", "b1", "2-1"), ("a2", "c1", "0-2"), ("b2", "c2", "1-1"), ("d1", "e1", "2-0"),
               ("f1", None, "bye"))),
    ("swiss", (("a1", "c1", "2-0"), ("b1", "b2", "2-1"), ("c2", "d1", "0-2"), ("a2", "f1", "0-0"),
               ("e1", None, "bye"))),
    ("top_cut", (("a1", "d1", "2-0"), ("c1", "b1", "2-1"))),
)  # fmt: skip
"""Round by round: (first player, second player or None for a bye, score in table order)."""


def submit(entry: Registration, pool: DemoPool, index: int) -> None:
    save_decklist(entry, pool.decklist(index), submit=True, actor=entry.user)


def hand_event(organiser, prefix: str = "", **fields) -> tuple[Event, dict[str, Registration]]:
    """The nine-player event of HAND_ROUNDS: two Swiss rounds and a top cut of four
    (accounts named ``prefix`` + a1, a2…, so one test can build two)."""
    ensure_demo_pool("iacta")
    event = services.create_event(
        organiser,
        name="Hand Open",
        game="iacta",
        status=Event.Status.REGISTRATION,
        swiss_rounds=2,
        top_cut=4,
        **fields,
    )
    pool = DemoPool.load()
    entries = {}
    for name, index in HAND_LISTS.items():
        entries[name] = services.register_player(event, make_user(prefix + name))
        if index is not None:
            submit(entries[name], pool, index)
    for number, (kind, tables) in enumerate(HAND_ROUNDS, start=1):
        lay_round(event, organiser, number, kind, tables, entries)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    event.refresh_from_db()
    return event, entries


def lay_round(event, organiser, number, kind, tables, entries) -> Round:
    """The round as written (pairings), its results entered by staff, then closed."""
    round_ = Round.objects.create(event=event, number=number, kind=kind, status="running")
    for table, (a, b, score) in enumerate(tables, start=1):
        if b is None:
            Match.objects.create(
                round=round_,
                player_a=entries[a],
                is_bye=True,
                games=[entries[a].pk, entries[a].pk],
                status=Match.Status.FINAL,
            )
            continue
        match = Match.objects.create(
            round=round_, table=table, player_a=entries[a], player_b=entries[b]
        )
        results.enter_result(match, results.Score.parse(score), organiser)
    Round.objects.filter(pk=round_.pk).update(status="closed")
    return round_


def _play(round_: Round, organiser, rng: random.Random) -> None:
    for match in round_.matches.filter(is_bye=False):
        score = rng.choice(["2-0", "0-2", "2-1", "1-2", "1-1"])
        results.enter_result(match, results.Score.parse(score), organiser)


def _run(event: Event, organiser, count: int, rng: random.Random) -> None:
    for _ in range(count):
        round_ = rounds.pair_next_round(event, organiser, confirm_not_checked_in=True)
        rounds.start_round(round_, organiser)
        _play(round_, organiser, rng)
        rounds.close_round(round_, organiser)


def phased_event(organiser, *, seed: int = 3, published: bool = True) -> Event:
    """A finished main event: two Day 1 flights of eight (2 rounds), Day 2 (1 round) for
    the top eight, a top cut of four. Every player but one per flight submits a list."""
    ensure_demo_pool("iacta")
    rng = random.Random(seed)
    main = services.create_event(
        organiser,
        name="Phased Regional",
        game="iacta",
        status=Event.Status.REGISTRATION,
        swiss_rounds=3,
        top_cut=4,
        decklists_public="all" if published else "none",
    )
    phases.set_gate(main, organiser, points=None, top=8, ties="tiebreakers")
    pool = DemoPool.load()
    n = 0
    for f in range(2):
        flight = phases.add_flight(main, organiser, name="AB"[f], rounds=2)
        for i in range(8):
            entry = services.register_player(flight, make_user(f"m{f}p{i}"))
            if i != 7:
                submit(entry, pool, n)
            n += 1
        services.check_in_everyone(flight, organiser)
        _run(flight, organiser, 2, rng)
    phases.apply_gate(main, organiser)
    _run(main, organiser, 1, rng)
    cut = rounds.start_top_cut(main, organiser)
    while cut is not None:
        rounds.start_round(cut, organiser)
        for match in cut.matches.filter(is_bye=False):
            results.enter_result(
                match, results.Score.parse(rng.choice(["2-0", "0-2", "2-1", "1-2"])), organiser
            )
        rounds.close_round(cut, organiser)
        cut = rounds.advance_top_cut(main, organiser)
    return rounds.finish_event(main, organiser)
