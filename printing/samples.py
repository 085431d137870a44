"""Sample printouts for the docs: ``docs/match-slips.png`` and ``docs/pairings.png``.

Run: ``.venv/bin/python -m printing.samples`` (``--out DIR`` to write elsewhere,
``--all`` to also write every document of the sample event as a PDF there).

Works on a throw-away SQLite database (never the project's own): a 24-player event
with names in several scripts, round 1 paired and under way (an extension, a drop),
then the first page of the slips and of the pairings by name go through pdftoppm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

NAMES = [
    "山田太郎",
    "김민준",
    "Ana García",
    "Olivier Dubois",
    "Σοφία Παπαδοπούλου",
    "Дмитрий Иванов",
    "佐藤花子",
    "이서연",
    "Zoë Müller",
    "Łukasz Nowak",
    "Priya Raman",
    "Tomás Ó Briain",
    "Mia Johansson",
    "Kwame Mensah",
    "Chloé Lefèvre",
    "Ngozi Okafor",
    "Hiroshi Tanaka",
    "Olga Petrova",
    "Mateo Rossi",
    "Aino Virtanen",
    "Sebastián Cruz",
    "Emma de Vries",
    "Jonas Becker",
    "Fatima Zahra",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--all", action="store_true", help="every document as a PDF too")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-print-samples-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/samples.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from printing import documents

    call_command("migrate", verbosity=0)
    event, number = build_event()
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        for kind, image in (("match_slips", "match-slips"), ("pairings_by_name", "pairings")):
            pdf_path = workdir / f"{image}.pdf"
            pdf_path.write_bytes(render(documents, kind, event, number))
            first_page_png(pdf_path, args.out / f"{image}.png")
            print(f"wrote {args.out / image}.png")
        if args.all:
            for kind in documents.all_kinds():
                path = args.out / f"sample-{kind.name.replace('_', '-')}.pdf"
                path.write_bytes(render(documents, kind.name, event, number))
                print(f"wrote {path}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def render(documents, kind: str, event, number: int) -> bytes:
    round_number = number if documents.needs_round(kind) else None
    units = documents.plan(kind, event, round_number)
    return documents.render_units(kind, event.pk, round_number, units)


def build_event():
    """A running 24-player bo3 event: round 1 played, round 2 paired with an extension;
    a submitted decklist and a penalty for the other documents."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from decks.models import Decklist
    from judging.models import Penalty
    from tournaments import clock, results, rounds, services
    from tournaments.models import Event, Registration
    from tournaments.results import Score

    organiser = User.objects.create_user("organiser", first_name="Olive")
    event = services.create_event(
        organiser,
        name="Arbiter Spring Open 2025 · 春季オープン",
        status=Event.Status.REGISTRATION,
        match_format="bo3",
        print_paper="A4",
        venue="Town Hall",
        seed=2025,  # the same pairings, so the same pictures, on every run
    )
    Registration.objects.bulk_create(
        Registration(event=event, name=name, checked_in=True, external_id=f"AB{1000 + i}")
        for i, name in enumerate(NAMES)
    )
    first = rounds.pair_next_round(event, organiser)
    for i, match in enumerate(first.matches.filter(is_bye=False).order_by("table")):
        results.enter_result(match, Score.parse(("2-0", "2-1", "1-2")[i % 3]), organiser)
    rounds.close_round(first, organiser)
    second = rounds.pair_next_round(event, organiser)
    clock.extend_match_time(second.matches.get(table=2), 5, organiser)
    table_one = second.matches.get(table=1)
    Decklist.objects.create(
        registration=table_one.player_a,
        main=[{"name": f"Card {n}", "count": 4 if n < 10 else 2} for n in range(1, 13)],
        sideboard=[{"name": "Spare Die", "count": 3}, {"name": "Loaded Die", "count": 2}],
        status=Decklist.Status.SUBMITTED,
        submitted_at=timezone.now(),
    )
    Penalty.objects.create(
        event=event,
        round=second,
        match=table_one,
        player=table_one.player_b,
        infraction="slow_play",
        judge=organiser,
        game=1,
        notes="Took several minutes over one roll.",
    )
    event.refresh_from_db()
    return event, second.number


def first_page_png(pdf: Path, png: Path) -> None:
    """Page 1 at 110 dpi: readable in a README, small in the repository."""
    stem = png.with_suffix("")
    subprocess.run(
        ["pdftoppm", "-r", "110", "-png", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(stem)],
        check=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
