"""Sample printouts for the docs: ``docs/match-slips.png`` and ``docs/pairings.png``.

Run: ``.venv/bin/python -m printing.samples`` (``--out DIR`` to write elsewhere,
``--all`` to also write every document of the sample event as a PDF there).

Works on a throw-away SQLite database (never the project's own): a 24-player event
with names in several scripts (built by ``arbiter.worlds``), round 1 played, round 2
paired (an extension, a penalty); then the first page of the slips and of the pairings
by name go through pdftoppm.
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
    submitted decklists and a penalty for the other documents."""
    from arbiter import worlds
    from judging import calls

    world = worlds.build_event(
        NAMES,
        accounts=False,  # walk-ins entered by name, as at a real desk
        rounds_played=1,
        decklists=True,
        penalties=1,
        name="Arbiter Spring Open 2025 · 春季オープン",
        judge=None,
        match_format="bo3",
        print_paper="A4",
        venue="Town Hall",
        seed=2025,  # the same pairings, so the same pictures, on every run
    )
    call = calls.open_call(
        world.event, world.organiser, question="Spilled drink.", match=world.table(2)
    )
    calls.resolve_call(
        call, world.organiser, resolution="Table cleaned.", minutes=5, grant_extension=True
    )
    world.event.refresh_from_db()
    return world.event, world.round.number


def first_page_png(pdf: Path, png: Path) -> None:
    """Page 1 at 110 dpi: readable in a README, small in the repository."""
    stem = png.with_suffix("")
    subprocess.run(
        ["pdftoppm", "-r", "110", "-png", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(stem)],
        check=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
