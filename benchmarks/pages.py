"""Time the big pages of a running event at 2,000 and 20,000 players.

Run: ``.venv/bin/python benchmarks/pages.py`` (``--sizes 2000,20000``, ``--repeats N``,
``--json out.json``, ``--strict`` to exit 1 over a goal, ``--database-url`` for an
empty PostgreSQL database instead of a fresh SQLite file; ``--cache-url`` as production).

How each event is built, fast: its three played rounds are an ``arbiter-event/1``
document simulated from a fixed seed (as ``benchmarks/standings.py`` does) and loaded
with the project's own importer (``import_event``: bulk inserts, as an operator's
import). Round 4 is then paired and started by the services an organiser's buttons call
(``rounds.pair_next_round``, ``rounds.start_round``), so its tables are seated by the
real pairing engine. One registration gets an account, for "My match".

Each page is asked ``--repeats`` times by one Django test ``Client`` (one handler, as a
server process keeps one); the figure is the median server time, with the query count
and the response bytes of one more request. "standings cold" is the first standings
request after a result change (a staff entry at a round-4 table before each request);
"standings warm" the requests after it. Goals: every page under 150 ms at 2,000 players
and under 500 ms at 20,000.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbiter import server_gc  # noqa: E402
from benchmarks.standings_requests import document  # noqa: E402

GOALS_MS = {2000: 150.0, 20000: 500.0}
PLAYED_ROUNDS = 3


def goal_for(players: int) -> float:
    """The goal for a size: the nearest named size's at or above it."""
    named = sorted(GOALS_MS)
    return GOALS_MS[next((size for size in named if players <= size), named[-1])]


def _setup_django(database_url: str, cache_url: str) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-pages-bench-"))
    os.environ.update(
        DATABASE_URL=database_url or f"sqlite:///{workdir}/bench.sqlite3",
        CACHE_URL=cache_url,
        DJANGO_SETTINGS_MODULE="arbiter.settings",
        ALLOWED_HOSTS="testserver",
        DEBUG="false",  # as production: no query log, no debug pages
        SECRET_KEY="benchmark-only-" + "x" * 40,
        STATIC_ROOT=str(workdir / "static"),
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)


def build_event(players: int, seed: int):
    """A running event: three Swiss rounds played (imported), round 4 paired and started."""
    from django.contrib.auth import get_user_model

    from tournaments.interchange import import_event
    from tournaments.models import EventRole, Registration
    from tournaments.rounds import services as rounds

    users = get_user_model()
    doc = document(players, PLAYED_ROUNDS, seed)
    doc["event"]["name"] = f"Pages Open {players}"
    doc["event"]["swiss_rounds"] = 6
    started = time.perf_counter()
    event = import_event(doc, None)
    imported = time.perf_counter() - started
    organiser = users.objects.create_user(f"organiser{players}", password="x")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    started = time.perf_counter()
    round_ = rounds.pair_next_round(event, organiser)
    rounds.start_round(round_, organiser)
    paired = time.perf_counter() - started
    player = users.objects.create_user(f"player{players}", password="x")
    seated = round_.matches.filter(is_bye=False).order_by("table").first()
    # The account goes on its row as signing up would put it: no bulk write on entries.
    entry = Registration.objects.get(pk=seated.player_a_id)
    entry.user = player
    entry.save(update_fields=["user"])
    print(
        f"{players:,} players: import of {PLAYED_ROUNDS} rounds {imported:.1f} s, "
        f"round 4 paired and started {paired:.1f} s ({round_.matches.count():,} tables)",
        flush=True,
    )
    event.refresh_from_db()
    return event, organiser, player


def _changer(event, organiser):
    """Each call enters a different round-4 result: the standings move every time."""
    from tournaments.models import Match
    from tournaments.record.match_games import Score
    from tournaments.results import services as results

    open_matches = iter(
        Match.objects.filter(round__event=event, round__number=PLAYED_ROUNDS + 1, is_bye=False)
        .order_by("-table")
        .select_related("round")
    )

    def change() -> None:
        results.enter_result(next(open_matches), Score(2, 1), organiser, reason="benchmark")

    return change


def measure(client, url: str, repeats: int, before=None) -> dict:
    """Median server time of ``repeats`` requests, and one more request's queries and bytes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(repeats):
        if before:
            before()
        started = time.perf_counter()
        response = client.get(url, secure=True)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
    if before:
        before()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, secure=True)
    return {
        "ms": round(1000 * statistics.median(times), 1),
        "queries": len(queries),
        "bytes": len(response.content),
    }


def pages_of(event, organiser, player) -> list[tuple[str, str, object, bool]]:
    """(name, url, client, result changes before each request) for every page measured."""
    from django.test import Client
    from django.urls import reverse

    anonymous = Client()
    as_organiser = Client()
    as_organiser.force_login(organiser)
    as_player = Client()
    as_player.force_login(player)
    pk = event.pk

    def url(name: str) -> str:
        return reverse(f"tournaments:{name}", args=[pk])

    return [
        ("organiser dashboard", url("manage"), as_organiser, False),
        ("public pairings", url("pairings"), anonymous, False),
        ("standings cold", url("standings"), anonymous, True),
        ("standings warm", url("standings"), anonymous, False),
        ("standings API", url("api_standings"), anonymous, False),
        ("hall display", url("hall"), anonymous, False),
        ("event page", url("event"), anonymous, False),
        ("my match", url("my_match"), as_player, False),
    ]


def run_size(players: int, repeats: int, seed: int) -> list[dict]:
    event, organiser, player = build_event(players, seed)
    # As a server process does once it has loaded (arbiter/asgi.py): what building the
    # event left here is set aside from the collector, which then runs as it does there.
    server_gc.settle()
    change = _changer(event, organiser)
    figures = []
    for name, url, client, cold in pages_of(event, organiser, player):
        client.get(url, secure=True)  # the handler's first request loads templates
        row = {"players": players, "page": name, "url": url}
        row.update(measure(client, url, repeats, before=change if cold else None))
        row["goal_ms"] = goal_for(players)
        row["over"] = row["ms"] > row["goal_ms"]
        figures.append(row)
        print(_line(row), flush=True)
    return figures


def _line(row: dict) -> str:
    mark = "  OVER" if row["over"] else ""
    return (
        f"{row['players']:>7,} {row['page']:<20}{row['ms']:>9.1f}{row['queries']:>9}"
        f"{row['bytes']:>12,}{row['goal_ms']:>8.0f}{mark}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="2000,20000", help="players per event, comma-separated")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database-url", default="", help="an empty database (default: SQLite)")
    parser.add_argument("--cache-url", default="", help="default: the per-process memory cache")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a page is over goal")
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes takes whole numbers separated by commas, e.g. 2000,20000")
    if not sizes or min(sizes) < 16 or args.repeats < 1:
        parser.error("each size needs at least 16 players, and --repeats at least 1")
    _setup_django(args.database_url, args.cache_url)
    goals = ", ".join(f"< {ms:.0f} ms at {size:,} players" for size, ms in GOALS_MS.items())
    print(f"Goals: every page {goals} (median of {args.repeats} requests, server time)")
    print(f"{'players':>7} {'page':<20}{'ms':>9}{'queries':>9}{'bytes':>12}{'goal':>8}")
    figures = [row for players in sizes for row in run_size(players, args.repeats, args.seed)]
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    over = [row for row in figures if row["over"]]
    if over:
        print(
            f"{len(over)} page(s) over goal: "
            + ", ".join(f"{r['page']} at {r['players']:,}" for r in over)
        )
    return 1 if over and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
