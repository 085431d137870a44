"""Re-validate every decklist of a 2,000-player event on SQLite (target: under 5 s).

Run: .venv/bin/python benchmarks/validate_decks.py [--players 2000]

Builds a throw-away SQLite database (never the project's own), loads the demo
card pool, registers N players each with a legal 44+6 Iacta list (a tenth with an
illegal fifth copy), then times ``manage.py validate_decks`` end to end.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="arbiter-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    event_id = build_event(args.players)
    started = time.perf_counter()
    call_command("validate_decks", event_id)
    seconds = time.perf_counter() - started
    print(f"validate_decks for {args.players} players: {seconds:.2f} s (target < 5 s)")
    return 0 if seconds < 5 else 1


def build_event(players: int) -> int:
    from arbiter.demo import demo_decklist
    from decks import decklist as text_lists
    from decks.cardpool import load_demo_pools
    from decks.models import Decklist
    from decks.services import pool
    from tournaments.models import Event, Registration

    load_demo_pools()
    event = Event.objects.create(name="Benchmark Open", game="iacta", status="registration")
    Registration.objects.bulk_create(
        Registration(event=event, name=f"Player {i}", checked_in=True) for i in range(players)
    )
    index, _ = pool("iacta")
    lists = []
    for i, registration in enumerate(event.registrations.order_by("pk")):
        resolved = index.resolve(text_lists.parse(demo_decklist(i)))
        main = text_lists.to_payload(resolved.main)
        if i % 10 == 9:
            main[0] = {**main[0], "count": 5}  # a fifth copy: illegal (201.1)
        lists.append(
            Decklist(
                registration=registration,
                main=main,
                sideboard=text_lists.to_payload(resolved.sideboard),
                status=Decklist.Status.SUBMITTED,
            )
        )
    Decklist.objects.bulk_create(lists, batch_size=500)
    return event.pk


if __name__ == "__main__":
    raise SystemExit(main())
