"""The demo data set: accounts, and an Iacta event that shows every feature.

Each step creates only what is missing, so running ``manage.py demo`` again
changes nothing. The events are built by ``arbiter.worlds``, through the services.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from arbiter import worlds
from tournaments.models import Event, EventRole

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


def create_accounts(report: DemoReport) -> dict[str, object]:
    wanted = [
        worlds.Account("admin", "Site", "Admin", is_staff=True, is_superuser=True),
        worlds.Account("organiser", "Olive", "Organiser"),
        worlds.Account("judge", "Jude", "Judge"),
    ]
    wanted += [
        worlds.Account(f"player{i:02d}", first, last)
        for i, (first, last) in enumerate(PLAYER_NAMES[:PLAYER_COUNT], start=1)
    ]
    users, created = worlds.make_accounts(wanted, DEMO_PASSWORD)
    report.created += [f"account {username}" for username in created]
    _, organiser, judge, *players = users
    report.logins += [
        ("site admin", "admin", DEMO_PASSWORD),
        ("organiser", "organiser", DEMO_PASSWORD),
        ("judge", "judge", DEMO_PASSWORD),
    ]
    report.logins += [("player", p.username, DEMO_PASSWORD) for p in players]
    return {"organiser": organiser, "judge": judge, "players": players}


OPEN_EVENT = {
    "venue": "Demo Hall, Table Row A",
    "match_format": "bo3",
    "swiss_rounds": 4,
    "top_cut": 4,
    "round_minutes": 50,
    "registration_cap": 32,
}


def create_event(report: DemoReport, people: dict) -> Event:
    """The open event: twelve players registered with their lists, four seats left to try."""
    event = Event.objects.filter(name=DEMO_EVENT_NAME).first()
    if event is None:
        world = worlds.build_event(
            people["players"][:PRE_REGISTERED],
            name=DEMO_EVENT_NAME,
            organiser=people["organiser"],
            judge=people["judge"],
            checked_in=False,
            paired=False,
            decklists=True,
            date=timezone.localdate() + datetime.timedelta(days=14),
            **OPEN_EVENT,
        )
        report.created.append(f"event {DEMO_EVENT_NAME}")
        report.created += ["organiser role for organiser", "judge role for judge"]
        report.created += [f"registration of {u.username}" for u in world.users]
        report.created.append(f"{len(world.registrations)} decklists for {DEMO_EVENT_NAME}")
        return world.event
    _complete_open_event(report, event, people)
    return event


def _complete_open_event(report: DemoReport, event: Event, people: dict) -> None:
    """Put back what was removed from the open event since the demo built it."""
    from decks.models import Decklist

    for user, role in ((people["organiser"], "organiser"), (people["judge"], "judge")):
        if EventRole.objects.get_or_create(event=event, user=user, role=role)[1]:
            report.created.append(f"{role} role for {user.username}")
    _, new = worlds.register_players(event, people["players"][:PRE_REGISTERED])
    report.created += [f"registration of {r.user.username}" for r in new]
    without = [
        r
        for r in event.registrations.select_related("user").order_by("pk")
        if not Decklist.objects.filter(registration=r).exists()
    ]
    if without:
        worlds.submit_demo_decklists(without)
        report.created.append(f"{len(without)} decklists for {event.name}")


RUNNING_EVENT_NAME = "Arbiter Demo Championship"
PLAYED_ROUNDS = 3


def create_running_event(report: DemoReport, people: dict) -> Event | None:
    """A 16-player event with three rounds played and the fourth paired."""
    if Event.objects.filter(name=RUNNING_EVENT_NAME).exists():
        return None
    world = worlds.build_event(
        people["players"],
        name=RUNNING_EVENT_NAME,
        organiser=people["organiser"],
        judge=people["judge"],
        decklists=True,
        rounds_played=PLAYED_ROUNDS,
        date=timezone.localdate(),
        venue="Demo Hall, Main Stage",
        match_format="bo3",
        swiss_rounds=5,
        top_cut=8,
        round_minutes=50,
        seed=20261129,
    )
    report.created.append(f"{len(world.registrations)} decklists for {RUNNING_EVENT_NAME}")
    _judging_demo(world.event, world.judge)
    report.created.append(f"event {RUNNING_EVENT_NAME} with {PLAYED_ROUNDS} rounds played")
    return world.event


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


DEMO_SERIES_NAME = "Arbiter Winter League"
WEEKLY_NAMES = ("Winter League · Week 1", "Winter League · Week 2")


def create_demo_series(report: DemoReport, people: dict) -> None:
    """Two finished weekly events with overlapping players, added up as a league."""
    from series.models import Series
    from series.services import create_series
    from tournaments.rounds import services as rounds

    if Series.objects.filter(name=DEMO_SERIES_NAME).exists():
        return
    players = people["players"]
    weeks = []
    for week, (name, field) in enumerate(
        zip(WEEKLY_NAMES, (players[:8], players[4:12]), strict=True)
    ):
        world = worlds.build_event(
            field,
            name=name,
            organiser=people["organiser"],
            judge=None,
            rounds_played=3,
            paired=False,
            swiss_rounds=3,
            decklists=True,
            decklists_public="all",
            date=timezone.localdate() - datetime.timedelta(days=14 - 7 * week),
            venue="Demo Hall, Store Tables",
            seed=20261201 + week,
        )
        weeks.append(rounds.finish_event(world.event, people["organiser"]))
    create_series(
        people["organiser"],
        weeks,
        name=DEMO_SERIES_NAME,
        description="A weekly store league: points per place, one for taking part.",
        method="placings",
        placing_points="1: 10, 2: 8, 3-4: 6, 5-8: 4",
        participation=1,
    )
    report.created.append(f"series {DEMO_SERIES_NAME} of {len(weeks)} finished events")


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
    create_demo_series(report, people)
    return report
