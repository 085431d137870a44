"""Built events ("worlds") for the demo, the print samples, the benchmarks and the tests.

One builder, so every caller's event is made the way an organiser makes one: through
the services (create, register, check in, pair, start, results, close, decklists,
penalties), never by writing rows. The same arguments give the same event: accounts,
pairings (the event's seed) and results (a fixed pattern) are all deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import transaction

from tournaments.event import services
from tournaments.models import Event, EventRole, Match, Registration, Round
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

DEFAULT_SEED = 20261129
# Results by table, shifted by one each round so records spread out; "1-1" is time called.
RESULTS = ["2-0", "2-1", "2-1", "2-0", "1-2", "0-2", "1-1", "2-1"]
# Best of one: a win either way, and now and then a drawn game.
RESULTS_BO1 = ["1-0", "1-0", "0-1", "1-0", "0-1", "0-0-1", "1-0", "0-1"]

# The demo Iacta pool's cards that ``demo_decklist`` builds from.
MAJORS = ("EMB", "IRN", "TID")
MINORS = ("MTH", "SLT")


class Account(NamedTuple):
    """An account to find or create: the username and what is shown for it."""

    username: str
    first_name: str = ""
    last_name: str = ""
    is_staff: bool = False
    is_superuser: bool = False


@dataclass
class World:
    """A built event and the people in it, in the order they registered."""

    event: Event
    organiser: User
    judge: User | None
    users: list[User | None]  # None for a player without an account
    registrations: list[Registration]
    rounds: list[Round] = field(default_factory=list)

    @property
    def round(self) -> Round | None:
        """The latest round, or None before round 1 is paired."""
        return self.rounds[-1] if self.rounds else None

    def table(self, number: int = 1) -> Match:
        """The match at table ``number`` of the latest round."""
        if self.round is None:
            raise LookupError("No round is paired yet.")
        return self.round.matches.select_related("player_a__user", "player_b__user").get(
            table=number
        )


@transaction.atomic
def build_event(
    players: int | Sequence[str | User] = 16,
    *,
    rounds_played: int = 0,
    paired: bool = True,
    started: bool = False,
    decklists: bool = False,
    penalties: int = 0,
    game: str = "iacta",
    name: str = "Arbiter Open",
    organiser: User | str = "organiser",
    judge: User | str | None = "judge",
    seed: int = DEFAULT_SEED,
    checked_in: bool = True,
    accounts: bool = True,
    password: str | None = None,
    reported_by_players: bool = False,
    **event_fields,
) -> World:
    """An event with ``players`` in it, ``rounds_played`` rounds played and closed, then
    the next round ``paired`` (and ``started``) if asked.

    ``players`` is a count (accounts p01, p02…, shown as P01, P02…), names (an account
    each, or with ``accounts=False`` walk-in players entered by name) or existing users.
    Accounts are found or created, all new ones sharing one hash of ``password`` (no
    usable password when None), so a big event costs one hash. ``decklists`` submits a
    legal demo-pool list for every player (Iacta only; the demo pool is loaded if the game
    has no cards); ``penalties`` gives that many Slow Play Warnings in the latest round,
    one each to the first player at tables 1, 2, … Results are entered by staff, or with
    ``reported_by_players`` reported by the first player and confirmed by the second.
    Other keyword arguments are fields of the event (``match_format``, ``swiss_rounds``…).
    One transaction: a refused step leaves nothing half built (and SQLite syncs once).
    """
    if decklists and game != "iacta":
        raise ValueError("Demo decklists exist for Iacta only.")
    organiser = _person(organiser, password)
    event = services.create_event(
        organiser,
        name=name,
        game=game,
        status=Event.Status.REGISTRATION,
        seed=seed,
        **event_fields,
    )
    if judge is not None:
        judge = _person(judge, password)
        services.grant_role(event, judge.username, EventRole.Role.JUDGE)
    users, registrations = _enter_players(event, organiser, players, accounts, password)
    if checked_in:
        services.check_in(event, [r.pk for r in registrations], organiser)
    if decklists:
        ensure_demo_pool(game)
        submit_demo_decklists(registrations)
    world = World(event, organiser, judge, users, registrations)
    for _ in range(rounds_played):
        play_round(world, reported_by_players)
    if paired:
        world.rounds.append(rounds.pair_next_round(event, organiser))
        if started:
            world.rounds[-1] = rounds.start_round(world.round, organiser)
    if penalties:
        give_slow_play_warnings(world, penalties)
    world.event.refresh_from_db()
    fresh = Registration.objects.select_related("user").in_bulk([r.pk for r in registrations])
    world.registrations = [fresh[r.pk] for r in registrations]
    return world


def _person(who: User | str, password: str | None) -> User:
    if isinstance(who, User):
        return who
    return make_accounts([Account(who, who.title())], password)[0][0]


def player_accounts(players: int | Sequence[str]) -> list[Account]:
    """p01, p02… (shown as P01, P02…) for a count; for names, the name's lower case."""
    if isinstance(players, int):
        return [Account(f"p{i:02d}", f"P{i:02d}") for i in range(1, players + 1)]
    return [Account("".join(n.lower().split()), n) for n in players]


def make_accounts(wanted: Sequence[Account], password: str | None) -> tuple[list[User], list[str]]:
    """The accounts, in order, found or created in one query; and the usernames created.

    New accounts share one hash of ``password``: hashing is deliberately slow and the
    salt is inside the hash, so one serves them all.
    """
    found = {u.username: u for u in User.objects.filter(username__in=[a.username for a in wanted])}
    missing = [a for a in wanted if a.username not in found]
    if missing:
        hashed = make_password(password)
        User.objects.bulk_create(
            User(
                username=a.username,
                first_name=a.first_name,
                last_name=a.last_name,
                email=f"{a.username}@example.org",
                is_staff=a.is_staff,
                is_superuser=a.is_superuser,
                password=hashed,
            )
            for a in missing
        )
        created = User.objects.filter(username__in=[a.username for a in missing])
        found.update((u.username, u) for u in created)
    return [found[a.username] for a in wanted], [a.username for a in missing]


def _enter_players(
    event: Event, organiser: User, players, accounts: bool, password: str | None
) -> tuple[list[User | None], list[Registration]]:
    if not accounts:
        names = [a.first_name for a in player_accounts(players)]
        entered = [services.add_late_entry(event, organiser, name=n) for n in names]
        return [None] * len(entered), entered
    users = _users(players, password)
    return list(users), register_players(event, users)[0]


def _users(players, password: str | None) -> list[User]:
    if isinstance(players, int):
        return make_accounts(player_accounts(players), password)[0]
    names = [p for p in players if not isinstance(p, User)]
    made = iter(make_accounts(player_accounts(names), password)[0])
    return [p if isinstance(p, User) else next(made) for p in players]


def register_players(
    event: Event, users: Iterable[User]
) -> tuple[list[Registration], list[Registration]]:
    """Register each user not yet in the event; (everyone's registration, the new ones)."""
    existing = {r.user_id: r for r in event.registrations.filter(user__isnull=False)}
    everyone, new = [], []
    for user in users:
        registration = existing.get(user.pk)
        if registration is None:
            registration = services.register_player(event, user)
            new.append(registration)
        everyone.append(registration)
    return everyone, new


def ensure_demo_pool(game: str) -> None:
    from decks.cardpool import load_demo_pools
    from decks.models import Card

    if not Card.objects.filter(game=game).exists():
        load_demo_pools()


def submit_demo_decklists(registrations: Sequence[Registration]) -> None:
    """Submit ``demo_decklist(i)`` for the i-th registration, as its player would."""
    from decks.services import save_decklist

    pool = DemoPool.load()
    for i, registration in enumerate(registrations):
        save_decklist(registration, pool.decklist(i), submit=True, actor=registration.user)


@dataclass(frozen=True)
class DemoPool:
    """The card names demo lists are built from, read once for many lists."""

    majors: tuple[list[str], ...]
    minors: tuple[list[str], ...]
    neutral: list[str]

    @classmethod
    def load(cls) -> DemoPool:
        from decks.models import Card

        def names(**where) -> list[str]:
            cards = Card.objects.filter(game="iacta", **where).order_by("name")
            return list(cards.values_list("name", flat=True))

        return cls(
            majors=tuple(names(syndicate=s) for s in MAJORS),
            minors=tuple(names(syndicate=s) for s in MINORS),
            neutral=names(tier="neutral"),
        )

    def decklist(self, index: int) -> str:
        """See ``demo_decklist``."""
        main, neutral = self.majors[index % 3], self.neutral
        splash = self.minors[index % 2]
        lines = [f"4 {name}" for name in main[index % 4 : index % 4 + 8]]
        lines += [f"4 {name}" for name in neutral[index % 5 : index % 5 + 2]]
        lines += [f"4x {splash[index % len(splash)]}"]
        lines += ["", "Sideboard"] + [f"2 {name}" for name in neutral[8:11]]
        return "\n".join(lines)


def demo_decklist(index: int) -> str:
    """A legal 44-card Iacta list from the demo pool: a Major, Neutrals and a Minor splash.

    8 Main Syndicate cards and 2 Neutral cards, four of each (40), plus four copies of one
    Minor card (a Splash of 4, within one per five cards, 202.3); a six-card sideboard.
    """
    return DemoPool.load().decklist(index)


def score_for(match_format: str, number: int, index: int) -> Score:
    """The result of the ``index``-th table (by table number) of round ``number``."""
    pattern = RESULTS_BO1 if match_format == "bo1" else RESULTS
    return Score.parse(pattern[(index + number) % len(pattern)])


def play_round(world: World, reported_by_players: bool = False) -> Round:
    """Pair the next round, start it, give every table its result and close it."""
    organiser = world.organiser
    round_ = rounds.pair_next_round(world.event, organiser)
    rounds.start_round(round_, organiser)
    event_format = world.event.match_format
    tables = round_.matches.filter(is_bye=False).select_related("player_a__user", "player_b__user")
    for index, match in enumerate(tables.order_by("table")):
        score = score_for(event_format, round_.number, index)
        if reported_by_players:
            a, b = match.player_a, match.player_b
            results.report_result(match, a, score, a.user)  # a's own side is the table's
            results.confirm_result(match, b, b.user)
        else:
            results.enter_result(match, score, organiser)
    round_ = rounds.close_round(round_, organiser)
    world.rounds.append(round_)
    return round_


def give_slow_play_warnings(world: World, count: int) -> list:
    """A Slow Play Warning in game 1 to the first player of each of the first ``count``
    tables of the latest round, from the judge (or the organiser)."""
    from judging.penalties import issue_penalty

    if world.round is None:
        raise ValueError("Penalties need a paired round.")
    tables = list(world.round.matches.filter(is_bye=False).order_by("table")[:count])
    if len(tables) < count:
        raise ValueError(f"Round {world.round.number} has fewer tables than {count}.")
    judge = world.judge or world.organiser
    return [issue_penalty(m.player_a, "slow_play", judge, game=1, match=m) for m in tables]
