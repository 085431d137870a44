"""Re-validate every decklist of a 2,000-player event on SQLite (target: under 5 s).

Run: .venv/bin/python benchmarks/validate_decks.py [--players 2000]

Builds a throw-away SQLite database (never the project's own) and, with
``arbiter.worlds``, an event of N players each with a legal 44+6 Iacta list from the
demo pool (a tenth then save a draft with an illegal fifth copy), stored verdicts
cleared, then times ``manage.py validate_decks`` end to end.
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
    """Every player submits a legal list, a tenth then save an illegal draft; the stored
    verdicts are then cleared, as if from an older card revision, so the command both
    rechecks every list and writes most verdicts back."""
    from django.db import transaction

    from arbiter import worlds
    from decks.models import Decklist
    from decks.services import save_decklist

    with transaction.atomic():  # one commit: SQLite syncs the disk once, not per list
        world = worlds.build_event(
            players, accounts=False, decklists=True, paired=False, name="Bench Open", judge=None
        )
        pool = worlds.DemoPool.load()
        for i, registration in enumerate(world.registrations):
            if i % 10 == 9:
                first = pool.decklist(i).splitlines()[0]  # "4 <name>"
                fifth = pool.decklist(i) + "\n1 " + first.split(" ", 1)[1]
                save_decklist(registration, fifth, submit=False, actor=None)
        Decklist.objects.filter(registration__event=world.event).update(legal=False, violations=[])
    return world.event.pk


if __name__ == "__main__":
    raise SystemExit(main())
