"""Time an anonymous standings request of a large imported event, page and API.

Run: ``.venv/bin/python benchmarks/standings_requests.py`` (``--players N --rounds R``,
``--repeats K``; ``--cache-url redis://127.0.0.1:6379/N`` to use Redis as production
does, else the per-process memory cache). The event (a fixed seed, as
``benchmarks/standings.py`` simulates it) is imported into a fresh SQLite database with
``import_event`` as the operator's command does, and the import is timed too. Then the
API (``/api/v1/events/<id>/standings/``) and the page (``/events/<id>/standings/``) are
asked ``--repeats`` times each by anonymous clients: the first request computes the
standings, the next ones show what each request costs while no result changes; one staff
result entry later, the next request computes them again.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.standings import generate  # noqa: E402


def document(players: int, rounds: int, seed: int) -> dict:
    """The simulated event as an ``arbiter-event/1`` document (drops as drops)."""
    people, matches = generate(players, rounds, seed)
    last_round = {pid: 0 for pid in (p["id"] for p in people)}
    by_round: dict[int, list[dict]] = {}
    for entry in matches:
        for pid in entry["players"]:
            last_round[pid] = entry["round"]
        seat = {"players": entry["players"]}
        seat.update({"bye": True} if entry.get("bye") else {"games": entry["games"]})
        by_round.setdefault(entry["round"], []).append(seat)
    for seats in by_round.values():
        table = 0
        for seat in seats:
            if not seat.get("bye"):
                table += 1
                seat["table"] = table
    return {
        "format": "arbiter-event/1",
        "event": {
            "name": "Benchmark Open",
            "game": "iacta",
            "date": "2026-12-05",
            "match_format": "bo3",
            "status": "running",
        },
        "players": [{"id": p["id"], "name": p["name"]} for p in people],
        "rounds": [
            {"number": n, "kind": "swiss", "matches": by_round[n]} for n in sorted(by_round)
        ],
        "drops": [
            {"player": p["id"], "after_round": last_round[p["id"]]}
            for p in people
            if p.get("dropped")
        ],
    }


def timed(get, url: str) -> tuple[float, int]:
    started = time.perf_counter()
    response = get(url, secure=True)  # production redirects plain HTTP
    seconds = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    return seconds, len(response.content)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cache-url", default="")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-standings-bench-"))
    os.environ.update(
        DATABASE_URL=f"sqlite:///{workdir}/bench.sqlite3",
        CACHE_URL=args.cache_url,
        DJANGO_SETTINGS_MODULE="arbiter.settings",
        ALLOWED_HOSTS="testserver",
        DEBUG="false",  # as production: no query log, no debug pages
        SECRET_KEY="benchmark-only-" + "x" * 40,
        STATIC_ROOT=str(workdir / "static"),
    )
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    from tournaments.interchange import import_event

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    cache.clear()
    doc = document(args.players, args.rounds, args.seed)
    matches = sum(len(r["matches"]) for r in doc["rounds"])
    started = time.perf_counter()
    event = import_event(doc, None)
    print(
        f"import: {args.players} players, {args.rounds} rounds, {matches} matches "
        f"in {time.perf_counter() - started:.2f} s"
    )
    client = Client()  # anonymous; one handler, as a server process keeps one
    print(f"{'request':<28}{'first s':>9}{'then median s':>15}{'bytes':>11}")
    for name, url in (
        ("API", f"/api/v1/events/{event.pk}/standings/"),
        ("page", f"/events/{event.pk}/standings/"),
    ):
        first, size = timed(client.get, url)
        then = [timed(client.get, url)[0] for _ in range(args.repeats)]
        print(f"{name:<28}{first:>9.3f}{statistics.median(then):>15.3f}{size:>11,}")
    _after_a_result(event, client)
    return 0


def _after_a_result(event, client) -> None:
    """A staff correction moves the standings: the next request computes them again."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Match
    from tournaments.record.match_games import Score
    from tournaments.results import services as results

    staff = get_user_model().objects.create_superuser("bench", "bench@example.org", "x")
    match = Match.objects.filter(round__event=event, is_bye=False).order_by("-pk").first()
    score = Score(0, 2) if results.games_of(match).winner == match.player_a_id else Score(2, 0)
    results.enter_result(match, score, staff, reason="benchmark correction")
    url = f"/api/v1/events/{event.pk}/standings/"
    first, _ = timed(client.get, url)
    then, _ = timed(client.get, url)
    print(f"{'API after a correction':<28}{first:>9.3f}{then:>15.3f}")


if __name__ == "__main__":
    sys.exit(main())
