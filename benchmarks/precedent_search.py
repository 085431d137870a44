"""Search 10,000 precedents (target: every search under 50 ms).

Run: .venv/bin/python benchmarks/precedent_search.py [--precedents 10000] [--repeats 25]
     DATABASE_URL=postgres://postgres@127.0.0.1:5432/arbiter_bench \\
       .venv/bin/python benchmarks/precedent_search.py      # the same on PostgreSQL

Without DATABASE_URL it builds a throw-away SQLite database (never the project's own);
with one, it migrates that database and adds the precedents to it (use an empty one);
on PostgreSQL it then runs ANALYZE, as autovacuum would after such a load.
The precedents are made from a fixed seed: 200 events (a tenth in draft), the demo Iacta
pool's card names, each question's real citations, a note and question of 8-30 words
from a 2,000-word vocabulary; a third public. Each is indexed by ``precedents.index``, as
the services do. Then, as a judge of one event, it times ``precedents.search.find`` for
each kind of search a judge makes (a misspelt card, a rule number, free text, a question,
all at once, the newest page, upheld first) and the earlier-rulings panel of a call
naming two cards, and prints the median and the 95th percentile of each.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 50.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--precedents", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=25)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        workdir = tempfile.mkdtemp(prefix="arbiter-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    judge, cards = build(args.precedents)
    if connection.vendor == "postgresql":  # what autovacuum does after a bulk load
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    built = time.perf_counter() - started
    print(
        f"{args.precedents:,} precedents on {connection.vendor}, built and indexed in {built:.1f} s"
    )
    worst = 0.0
    for label, run in searches(judge, cards):
        timings = [timed(run) for _ in range(args.repeats)]
        median = statistics.median(timings)
        p95 = sorted(timings)[max(0, round(0.95 * len(timings)) - 1)]
        worst = max(worst, p95)
        print(f"  {label:<44} median {median:6.1f} ms   p95 {p95:6.1f} ms   {run():>5} found")
    print(f"slowest p95 {worst:.1f} ms (target < {TARGET_MS:.0f} ms)")
    return 0 if worst < TARGET_MS else 1


def timed(run) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def searches(judge, cards: list[str]):
    from judging.models import JudgeCall
    from precedents import panel, search

    def find(**params):
        def run() -> int:
            return search.find(search.read_query(params), judge).total

        return run

    misspelt = cards[7][:-1] + "x"  # "Ember Tithx"
    call = JudgeCall(
        event=judge.event_roles.first().event,
        question=f"Does {cards[3]} count when {cards[9]} is played?",
    )

    def call_panel() -> int:
        return sum(group.total for group in panel.for_call(call, judge).groups)

    return [
        (f"card, misspelt ({misspelt!r})", find(card=misspelt)),
        ("rule number (202.1)", find(rule="202.1")),
        ("rule section (202)", find(rule="202")),
        ("free text, two words", find(q="ledger sleeves")),
        ("free text, one word's beginning", find(q="sle")),
        ("question (pay-cost)", find(question="pay-cost")),
        (
            "card + rule + words, upheld first",
            find(card=cards[2], rule="202", q="deck", order="upheld"),
        ),
        ("nothing typed: the newest 50", find()),
        ("game + upheld first", find(game="iacta", order="upheld")),
        ("a call naming two cards: the panel", call_panel),
    ]


def build(count: int):
    from django.db import transaction

    from decks.cardpool import load_demo_pools
    from decks.models import Card
    from precedents import extract, index
    from precedents.models import Precedent
    from rules_engine import adjudicate
    from rules_engine.reference import rule_text
    from tests.conftest import make_user
    from tournaments.models import Event, EventRole

    rng = random.Random(35)
    load_demo_pools()
    cards = sorted(Card.objects.filter(game="iacta").values_list("name", flat=True))
    vocabulary = [_word(rng) for _ in range(2_000)] + ["sleeves", "ledger", "deck", "count"]
    kinds = _rulings(cards, rng, adjudicate)
    with transaction.atomic():
        events = Event.objects.bulk_create(
            Event(
                name=f"Bench Open {n}",
                game="iacta",
                status=Event.Status.DRAFT if n % 10 == 0 else Event.Status.FINISHED,
            )
            for n in range(200)
        )
        judge = make_user("bench-judge")
        EventRole.objects.create(event=events[1], user=judge, role=EventRole.Role.JUDGE)
        texts = {}
        for i in range(count):
            question, payload, answer = kinds[i % len(kinds)]
            rules = extract.rules_cited(answer)
            for rule in rules:
                if rule not in texts:
                    texts[rule] = rule_text(rule)
            precedent = Precedent.objects.create(
                event=events[i % len(events)],
                event_name=events[i % len(events)].name,
                round_number=1 + i % 9,
                ruled_on=f"20{24 + i % 3}-{1 + i % 12:02d}-{1 + i % 28:02d}",
                ruled_by="Bench Judge",
                game="iacta",
                question=question,
                payload=payload,
                answer=answer,
                asked=" ".join(rng.choices(vocabulary, k=rng.randint(8, 30))),
                cards=extract.cards_named(payload),
                rules=rules,
                rule_texts={rule: texts[rule] for rule in rules if texts[rule]},
                decision="upheld" if rng.random() < 0.8 else "overturned",
                note=" ".join(rng.choices(vocabulary, k=rng.randint(8, 30))),
                status="follow" if rng.random() < 0.9 else "avoid",
                visibility="public" if i % 3 == 0 else "judges",
            )
            index.refresh(precedent)
    return judge, cards


def _rulings(cards: list[str], rng: random.Random, adjudicate) -> list[tuple[str, dict, dict]]:
    """Engine rulings to copy: deck rulings on two or three cards, and cost rulings."""
    out = []
    for n in range(300):
        named = rng.sample(cards, rng.choice((2, 3)))
        payload = {
            "main": [{"name": name, "count": rng.randint(3, 5)} for name in named],
            "sideboard": [],
            "cards": {name: {"syndicate": "EMB", "tier": "major"} for name in named},
        }
        out.append(("deck-legality", payload, adjudicate("iacta", "deck-legality", payload)))
        if n % 3 == 0:
            cost = {"cost": ["4+", "ODD"], "reserve": [rng.randint(1, 6) for _ in range(3)]}
            out.append(("pay-cost", cost, adjudicate("iacta", "pay-cost", cost)))
    return out


def _word(rng: random.Random) -> str:
    return "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(3, 9)))


if __name__ == "__main__":
    raise SystemExit(main())
