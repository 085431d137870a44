"""Time the metagame page of a finished 2,000-player Iacta event (goal: < 300 ms warm).

Run: ``.venv/bin/python benchmarks/metagame_page.py`` (``--players N``, ``--repeats N``,
``--json out.json``, ``--strict`` to exit 1 over the goal, ``--database-url`` for an
empty PostgreSQL database instead of a fresh SQLite file; ``--cache-url`` as production).

How the event is built, fast: eight Swiss rounds simulated from a fixed seed (as
``benchmarks/standings.py`` does) and a top cut of eight (the best eight who stayed,
quarter-finals to final) are one ``arbiter-event/1`` document, loaded with the
project's own importer (``import_event``: bulk inserts, as an operator's import). Every
player but about 2% then has a submitted, legal Decklist, written in bulk (benchmark
data): its ``archetype`` drawn with a skewed distribution from 18 keys, and 15 players
on keys of their own, which the report folds into Other. The decklists are published
("all"), so an anonymous reader sees what the organiser sees.

One Django test ``Client`` per reader (one handler, as a server process keeps one).
"cold" is a request right after a result correction (a staff entry through
``results.enter_result`` in the last Swiss round, which moves ``results_version``): the
report is read and counted again and its charts drawn again. The process's very first
request is reported on its own line: it also imports matplotlib and loads the URLs and
templates. "warm" is ``--repeats`` requests with nothing changed: median and slowest,
then the query count and bytes of one more request.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbiter import server_gc  # noqa: E402
from benchmarks.pages import _setup_django as setup_django  # noqa: E402
from benchmarks.standings_requests import document  # noqa: E402

GOAL_MS = 300.0
SWISS_ROUNDS = 8
TOP_CUT = 8
WITHOUT_LIST = 0.02
SINGLETONS = 15

ARCHETYPES = {
    # key: weight (a skewed field: two decks a fifth of it each, a long tail)
    "EMB": 20,
    "EMB/MTH": 16,
    "IRN/SLT": 12,
    "TID/VOX+SHD": 9,
    "TID/MTH": 7,
    "EMB/SLT": 6,
    "IRN/MTH": 5,
    "VOX/EMB": 4.5,
    "SHD/TID": 4,
    "MTH/IRN+SLT": 3.5,
    "SLT": 3,
    "VOX": 2.5,
    "TID": 2,
    "SHD/EMB+VOX": 1.6,
    "IRN": 1.3,
    "MTH/SHD": 1,
    "SLT/TID": 0.8,
    "No Major Syndicate": 0.4,
}
"""Eighteen archetype keys (rule 202: Major Syndicate / splash), most played first."""


def _setup_django(database_url: str, cache_url: str) -> None:
    """As the pages benchmark sets Django up, and with an empty cache: a Redis database
    used before may hold an earlier run's reports."""
    setup_django(database_url, cache_url)
    from django.core.cache import cache

    cache.clear()


def _with_top_cut(doc: dict, seed: int) -> dict:
    """The document's Swiss rounds, then a top cut of the best eight who did not drop."""
    rng = random.Random(seed)
    points: Counter[str] = Counter()
    for round_ in doc["rounds"]:
        for seat in round_["matches"]:
            if seat.get("bye"):
                points[seat["players"][0]] += 3
                continue
            a, b = seat["players"]
            wins_a, wins_b = seat["games"].count(a), seat["games"].count(b)
            if wins_a == wins_b:
                points[a] += 1
                points[b] += 1
            else:
                points[a if wins_a > wins_b else b] += 3
    dropped = {drop["player"] for drop in doc["drops"]}
    stayed = [p["id"] for p in doc["players"] if p["id"] not in dropped]
    alive = sorted(stayed, key=lambda pid: (-points[pid], pid))[:TOP_CUT]
    # Quarter-finals 1 v 8, 2 v 7…, then the winners in bracket order.
    seats = [alive[i] for i in (0, 7, 3, 4, 1, 6, 2, 5)]
    while len(seats) > 1:
        matches, winners = [], []
        for table, (a, b) in enumerate(zip(seats[::2], seats[1::2], strict=True), start=1):
            winner = a if rng.random() < 0.55 else b
            loser = b if winner == a else a
            games = rng.choice([[winner, winner], [winner, loser, winner]])
            matches.append({"players": [a, b], "games": games, "table": table})
            winners.append(winner)
        doc["rounds"].append(
            {"number": len(doc["rounds"]) + 1, "kind": "top_cut", "matches": matches}
        )
        seats = winners
    return doc


def build_event(players: int, seed: int):
    """A finished event, its decklists published: eight Swiss rounds and a top cut of eight."""
    from django.contrib.auth import get_user_model

    from tournaments.interchange import import_event
    from tournaments.models import Event, EventRole

    doc = _with_top_cut(document(players, SWISS_ROUNDS, seed), seed)
    doc["event"].update(name=f"Metagame Open {players}", swiss_rounds=SWISS_ROUNDS, top_cut=TOP_CUT)
    doc["event"]["status"] = "finished"
    started = time.perf_counter()
    event = import_event(doc, None)
    imported = time.perf_counter() - started
    # Benchmark data: published as the organiser's settings page would publish them.
    Event.objects.filter(pk=event.pk).update(decklists_public="all")
    organiser = get_user_model().objects.create_user(f"organiser{players}", password="x")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    started = time.perf_counter()
    lists, keys = _submit_lists(event, seed)
    written = time.perf_counter() - started
    matches = sum(len(r["matches"]) for r in doc["rounds"])
    print(
        f"{players:,} players: import of {SWISS_ROUNDS} Swiss rounds and a top cut of "
        f"{TOP_CUT} ({matches:,} matches) {imported:.1f} s; {lists:,} decklists on "
        f"{keys} archetype keys written in {written:.1f} s",
        flush=True,
    )
    event.refresh_from_db()
    return event, organiser


def _submit_lists(event, seed: int) -> tuple[int, int]:
    """Every player but about 2% submits a legal list; 15 play a deck nobody else does."""
    from django.utils import timezone

    from decks.models import Decklist

    rng = random.Random(seed + 1)
    entries = list(event.registrations.order_by("pk").values_list("pk", flat=True))
    keys, weights = list(ARCHETYPES), list(ARCHETYPES.values())
    now = timezone.now()
    rows, unique = [], 0
    for pk in entries:
        if rng.random() < WITHOUT_LIST:
            continue
        if unique < SINGLETONS and rng.random() < 0.01:
            unique += 1
            key = f"{rng.choice(keys[:6]).split('/')[0]}/ROGUE{unique}"
        else:
            key = rng.choices(keys, weights)[0]
        rows.append(
            Decklist(
                registration_id=pk,
                main=_main_deck(key, rng),
                status=Decklist.Status.SUBMITTED,
                legal=True,
                submitted_at=now,
                archetype=key,
            )
        )
    Decklist.objects.bulk_create(rows, batch_size=1000)
    return len(rows), len({row.archetype for row in rows})


def _main_deck(key: str, rng: random.Random) -> list[dict]:
    """A small plausible main deck: the major's cards, a few splash cards, neutrals."""
    major, _slash, splash = key.partition("/")
    cards = [{"name": f"{major} Card {i}", "count": rng.choice((2, 3))} for i in range(10)]
    for syndicate in filter(None, splash.split("+")):
        cards += [{"name": f"{syndicate} Splash {i}", "count": 1} for i in range(3)]
    cards += [{"name": f"Neutral {i}", "count": 2} for i in rng.sample(range(40), 4)]
    return cards


def _corrector(event, organiser):
    """Each call corrects a different last-Swiss-round result: results_version moves."""
    from tournaments.models import Match
    from tournaments.record.match_games import Score
    from tournaments.results import services as results

    tables = iter(
        Match.objects.filter(round__event=event, round__number=SWISS_ROUNDS, is_bye=False)
        .order_by("-table")
        .select_related("round__event")
    )

    def correct() -> None:
        match = next(tables)
        score = Score(0, 2) if results.games_of(match).winner == match.player_a_id else Score(2, 0)
        results.enter_result(match, score, organiser, reason="benchmark correction")

    return correct


def _get(client, url: str) -> tuple[float, object]:
    started = time.perf_counter()
    response = client.get(url, secure=True)  # production redirects plain HTTP
    seconds = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    return seconds, response


def _queries_and_bytes(client, url: str) -> tuple[int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        _seconds, response = _get(client, url)
    return len(queries), len(response.content)


def measure(client, url: str, repeats: int, before=None) -> dict:
    """Median and slowest of ``repeats`` requests (each after ``before()``, if given), then
    one more request's queries and bytes."""
    times = []
    for _ in range(repeats):
        if before:
            before()
        times.append(_get(client, url)[0])
    if before:
        before()
    queries, size = _queries_and_bytes(client, url)
    return {
        "ms": round(1000 * statistics.median(times), 1),
        "max_ms": round(1000 * max(times), 1),
        "queries": queries,
        "bytes": size,
    }


def first_request(client, url: str) -> dict:
    """The process's first request: a cold report plus matplotlib's import and the URLs'
    and templates' loading (matplotlib comes in with ``metagame_site.views``)."""
    loaded = "matplotlib" in sys.modules
    seconds, response = _get(client, url)
    return {
        "ms": round(1000 * seconds, 1),
        "max_ms": round(1000 * seconds, 1),
        "queries": None,
        "bytes": len(response.content),
        "matplotlib_imported_before": loaded,
    }


def run(players: int, repeats: int, seed: int, database: str) -> list[dict]:
    from django.test import Client

    event, organiser = build_event(players, seed)
    # As a server process does once it has loaded (arbiter/asgi.py): what building the
    # event left here is set aside from the collector, which then runs as it does there.
    server_gc.settle()
    correct = _corrector(event, organiser)
    anonymous = Client()
    as_organiser = Client()
    as_organiser.force_login(organiser)
    pk = event.pk
    page = f"/events/{pk}/metagame/"
    swiss = f"{page}?phase=swiss"
    cases = [
        ("page, anonymous", page, anonymous, "cold"),
        ("page, anonymous", page, anonymous, "warm"),
        ("page, organiser", page, as_organiser, "cold"),
        ("page, organiser", page, as_organiser, "warm"),
        ("page ?phase=swiss", swiss, anonymous, "cold"),
        ("page ?phase=swiss", swiss, anonymous, "warm"),
        ("API", f"/api/v1/events/{pk}/metagame/", anonymous, "warm"),
        ("CSV", f"/events/{pk}/metagame.csv", anonymous, "warm"),
    ]
    print(
        f"{'request':<22}{'state':<6}{'median':>9}{'max':>9}{'queries':>9}{'bytes':>11}{'goal':>8}"
    )
    figures = [
        _row(database, players, "page, first request", "cold", first_request(anonymous, page))
    ]
    print(_line(figures[-1]), flush=True)
    for name, url, client, state in cases:
        if state == "warm":
            _get(client, url)  # the report and charts of this state are in the cache
        numbers = measure(client, url, repeats, before=correct if state == "cold" else None)
        figures.append(_row(database, players, name, state, numbers, url))
        print(_line(figures[-1]), flush=True)
    return figures


def _row(database: str, players: int, name: str, state: str, numbers: dict, url: str = "") -> dict:
    row = {"database": database, "players": players, "request": name, "state": state}
    row.update(numbers, url=url)
    row["goal_ms"] = GOAL_MS if state == "warm" and name.startswith("page") else None
    row["over"] = row["goal_ms"] is not None and row["ms"] > row["goal_ms"]
    return row


def _line(row: dict) -> str:
    mark = "  OVER" if row["over"] else ""
    goal = f"{row['goal_ms']:>8.0f}" if row["goal_ms"] else f"{'':>8}"
    queries = "" if row["queries"] is None else row["queries"]
    return (
        f"{row['request']:<22}{row['state']:<6}{row['ms']:>9.1f}{row['max_ms']:>9.1f}"
        f"{queries:>9}{row['bytes']:>11,}{goal}{mark}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database-url", default="", help="an empty database (default: SQLite)")
    parser.add_argument("--cache-url", default="", help="default: the per-process memory cache")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--strict", action="store_true", help="exit 1 if the page is over goal")
    args = parser.parse_args(argv)
    if args.players < 64 or args.repeats < 1:
        parser.error("--players needs at least 64, and --repeats at least 1")
    _setup_django(args.database_url, args.cache_url)
    from django.db import connection

    database = connection.vendor
    print(
        f"Goal: the page < {GOAL_MS:.0f} ms warm at 2,000 players (median of {args.repeats} "
        f"requests, server time); {database}, cache {args.cache_url or 'memory'}"
    )
    figures = run(args.players, args.repeats, args.seed, database)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    over = [row for row in figures if row["over"]]
    if over:
        print(f"{len(over)} over goal: " + ", ".join(row["request"] for row in over))
    return 1 if over and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
