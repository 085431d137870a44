"""The demo data set: accounts, and an Iacta event that shows every feature.

Each step creates only what is missing, so running ``manage.py demo`` again
changes nothing. Later features add their own steps to ``STEPS``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournaments.models import Event, EventRole, Registration

DEMO_PASSWORD = "arbiter-demo"
DEMO_EVENT_NAME = "Arbiter Demo Open"
PLAYER_COUNT = 16
PRE_REGISTERED = 12  # the rest can try registering themselves

PLAYER_NAMES = [
    ("Ada", "Lovelace"),
    ("Alan", "Turing"),
    ("Grace", "Hopper"),
    ("Edsger", "Dijkstra"),
    ("Barbara", "Liskov"),
    ("Donald", "Knuth"),
    ("Frances", "Allen"),
    ("Tony", "Hoare"),
    ("Radia", "Perlman"),
    ("Ken", "Thompson"),
    ("Yukihiro", "Matsumoto"),
    ("Hedy", "Lamarr"),
    ("Niklaus", "Wirth"),
    ("Margaret", "Hamilton"),
    ("John", "Backus"),
    ("Sophie", "Wilson"),
]


@dataclass
class DemoReport:
    created: list[str]
    logins: list[tuple[str, str, str]]  # (role, username, password)
    _hash: str = ""

    def password_hash(self) -> str:
        if not self._hash:
            self._hash = make_password(DEMO_PASSWORD)
        return self._hash


def _account(username: str, first: str, last: str, report: DemoReport, **flags) -> User:
    user, created = User.objects.get_or_create(
        username=username,
        defaults={
            "first_name": first,
            "last_name": last,
            "email": f"{username}@example.org",
            **flags,
        },
    )
    if created:
        user.password = report.password_hash()  # one hash for all: hashing is slow
        user.save(update_fields=["password"])
        report.created.append(f"account {username}")
    return user


def create_accounts(report: DemoReport) -> dict[str, object]:
    _account("admin", "Site", "Admin", report, is_staff=True, is_superuser=True)
    organiser = _account("organiser", "Olive", "Organiser", report)
    judge = _account("judge", "Jude", "Judge", report)
    players = [
        _account(f"player{i:02d}", first, last, report)
        for i, (first, last) in enumerate(PLAYER_NAMES[:PLAYER_COUNT], start=1)
    ]
    report.logins += [
        ("site admin", "admin", DEMO_PASSWORD),
        ("organiser", "organiser", DEMO_PASSWORD),
        ("judge", "judge", DEMO_PASSWORD),
    ]
    report.logins += [("player", p.username, DEMO_PASSWORD) for p in players]
    return {"organiser": organiser, "judge": judge, "players": players}


def create_event(report: DemoReport, people: dict) -> Event:
    event = Event.objects.filter(name=DEMO_EVENT_NAME).first()
    if event is None:
        event = Event.objects.create(
            name=DEMO_EVENT_NAME,
            game="iacta",
            date=timezone.localdate() + datetime.timedelta(days=14),
            venue="Demo Hall, Table Row A",
            status=Event.Status.REGISTRATION,
            match_format="bo3",
            swiss_rounds=4,
            top_cut=4,
            round_minutes=50,
            registration_cap=32,
            created_by=people["organiser"],
        )
        report.created.append(f"event {DEMO_EVENT_NAME}")
    for user, role in ((people["organiser"], "organiser"), (people["judge"], "judge")):
        if EventRole.objects.get_or_create(event=event, user=user, role=role)[1]:
            report.created.append(f"{role} role for {user.username}")
    for player in people["players"][:PRE_REGISTERED]:
        if Registration.objects.get_or_create(event=event, user=player)[1]:
            report.created.append(f"registration of {player.username}")
    from decks.models import Decklist

    without = [
        r
        for r in event.registrations.select_related("user").order_by("pk")
        if not Decklist.objects.filter(registration=r).exists()
    ]
    if without:
        register_demo_decks(report, event, without)
    return event


RUNNING_EVENT_NAME = "Arbiter Demo Championship"
PLAYED_ROUNDS = 3
RESULTS = ["2-0", "2-1", "2-1", "2-0", "1-2", "0-2", "1-1", "2-1"]


def create_running_event(report: DemoReport, people: dict) -> Event | None:
    """A 16-player event with three rounds played and the fourth paired."""
    from tournaments import results, rounds, services

    if Event.objects.filter(name=RUNNING_EVENT_NAME).exists():
        return None
    organiser, judge = people["organiser"], people["judge"]
    event = services.create_event(
        organiser,
        name=RUNNING_EVENT_NAME,
        game="iacta",
        date=timezone.localdate(),
        venue="Demo Hall, Main Stage",
        status=Event.Status.REGISTRATION,
        match_format="bo3",
        swiss_rounds=5,
        top_cut=8,
        round_minutes=50,
        seed=20261129,
    )
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    for player in people["players"]:
        services.register_player(event, player)
    services.check_in(event, list(event.registrations.values_list("pk", flat=True)), organiser)
    register_demo_decks(report, event, list(event.registrations.select_related("user")))
    for number in range(1, PLAYED_ROUNDS + 2):
        round_ = rounds.pair_next_round(event, organiser)
        if number > PLAYED_ROUNDS:
            break
        rounds.start_round(round_, organiser)
        for i, match in enumerate(round_.matches.filter(is_bye=False).order_by("table")):
            score = results.Score.parse(RESULTS[(i + number) % len(RESULTS)])
            results.enter_result(match, score, organiser)
        rounds.close_round(round_, organiser)
    _judging_demo(event, judge)
    report.created.append(f"event {RUNNING_EVENT_NAME} with {PLAYED_ROUNDS} rounds played")
    return event


def _judging_demo(event: Event, judge) -> None:
    """A warning, a game loss, an open call and one that granted a time extension."""
    from judging import calls
    from judging.penalties import issue_penalty

    tables = list(event.rounds.order_by("-number").first().matches.filter(is_bye=False))
    slow = tables[1].player_a
    for _ in range(3):  # the third Slow Play Warning in game 1 is a game loss (905.1)
        issue_penalty(slow, "slow_play", judge, game=1, match=tables[1], notes="Demo")
    issue_penalty(tables[2].player_b, "rule_violation", judge, game=2, match=tables[2])
    calls.open_call(event, judge, question="Does a Trap respond to a Flush?", match=tables[0])
    extended = calls.open_call(
        event, judge, question="Dispute over a die value after a Roll.", match=tables[3]
    )
    calls.resolve_call(
        extended,
        judge,
        resolution="The die stays as rolled (102.1).",
        minutes=3,
        grant_extension=True,
    )


MAJORS = ("EMB", "IRN", "TID")
MINORS = ("MTH", "SLT")


def demo_decklist(index: int) -> str:
    """A legal 44-card Iacta list from the demo pool: a Major, Neutrals and a Minor splash.

    8 Main Syndicate cards and 2 Neutral cards, four of each (40), plus four copies of one
    Minor card (a Splash of 4, within one per five cards, 202.3); a six-card sideboard.
    """
    from decks.models import Card

    main = list(Card.objects.filter(game="iacta", syndicate=MAJORS[index % 3]).order_by("name"))
    neutral = list(Card.objects.filter(game="iacta", tier="neutral").order_by("name"))
    splash = list(Card.objects.filter(game="iacta", syndicate=MINORS[index % 2]).order_by("name"))
    lines = [f"4 {c.name}" for c in main[index % 4 : index % 4 + 8]]
    lines += [f"4 {c.name}" for c in neutral[index % 5 : index % 5 + 2]]
    lines += [f"4x {splash[index % len(splash)].name}"]
    lines += ["", "Sideboard"] + [f"2 {c.name}" for c in neutral[8:11]]
    return "\n".join(lines)


def register_demo_decks(report: DemoReport, event: Event, registrations) -> None:
    from decks.services import save_decklist

    for i, registration in enumerate(registrations):
        save_decklist(registration, demo_decklist(i), submit=True, actor=registration.user)
    report.created.append(f"{len(registrations)} decklists for {event.name}")


def create_card_pools(report: DemoReport) -> None:
    from decks.cardpool import load_demo_pools

    for game, imported in load_demo_pools().items():
        if imported.created:
            report.created.append(f"{imported.created} demo {game} cards")


@transaction.atomic
def build_demo() -> DemoReport:
    report = DemoReport(created=[], logins=[])
    create_card_pools(report)
    people = create_accounts(report)
    create_event(report, people)
    create_running_event(report, people)
    return report
