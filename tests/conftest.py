"""Fixtures shared by the Django tests: people in their per-event roles, and built events
(``make_world``, through ``arbiter.worlds``: the one world builder). And the test tiers:
what the second, services pass of ``scripts/test`` leaves to the first."""

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import User

from arbiter import worlds
from decks.models import Card, CardPoolImport, CardRevision, DeckCheck, Decklist
from judging.models import JudgeCall, Penalty
from metagame_site.models import MetagameSettings
from precedents.models import KnownCard, Precedent, Term
from printing.models import PrintJob
from tests import tiers
from tournaments.event import services
from tournaments.models import (
    AvoidPair,
    EntryOffer,
    Event,
    EventLog,
    EventRole,
    Match,
    Registration,
    ResultChange,
    Round,
    TimeExtension,
)
from tournaments.results import services as results
from tournaments.rounds import services as rounds
from web.errors import ServiceError

PASSWORD = "correct-horse-battery"

TEST_PASS = os.environ.get("ARBITER_TEST_PASS", "")  # what it means: tests/tiers.py
SERVICES_PASS = tiers.is_services_pass(TEST_PASS)  # the second pass: real PostgreSQL and Redis
PURE_LEFT_OUT = pytest.StashKey[int]()


@pytest.hookimpl(trylast=True)  # after -k and -m: it must see only what they selected
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """tests/unit holds pure tests only; the services pass deselects every pure test."""
    impure = tiers.impure_unit_tests(items)
    if impure:
        raise pytest.UsageError(
            "tests/unit is for pure tests (no database, cache or broker): " + ", ".join(impure[:5])
        )
    if not SERVICES_PASS:
        tiers.browser_tests_last(items)
        return
    keep, left_out = tiers.split(items, TEST_PASS)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        config.stash[PURE_LEFT_OUT] = len(left_out)
        items[:] = keep


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In the services pass, a selection that another pass or part runs (``-k swiss``, pure
    tests) is no failure here. A selection of no test at all still fails (exit code 5)."""
    left_out = session.config.stash.get(PURE_LEFT_OUT, 0)
    worker_output = getattr(session.config, "workeroutput", None)
    if worker_output is not None:  # a pytest-xdist worker: tell the controller
        worker_output["left_out"] = left_out
    status = tiers.exit_status(exitstatus, left_out)
    if status != exitstatus:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(tiers.left_out_notice(TEST_PASS, left_out))
        session.exitstatus = status


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """Under pytest-xdist the workers collect: sum what they left out on the controller."""
    left_out = getattr(node, "workeroutput", {}).get("left_out", 0)
    stash = node.config.stash
    stash[PURE_LEFT_OUT] = max(stash.get(PURE_LEFT_OUT, 0), left_out)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Real hashing costs ~0.3 s a user; tests that create dozens need it cheap."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """Each test counts rate limits (accounts/ratelimit.py) from zero: the cache outlives a
    test, and in the services pass Redis outlives the run and is shared by its workers."""
    settings.RATE_LIMIT_NAMESPACE = f"test-ratelimit-{uuid.uuid4().hex}"


def make_user(username: str, **extra) -> User:
    return User.objects.create_user(username, f"{username}@example.org", PASSWORD, **extra)


@pytest.fixture
def organiser(db) -> User:
    return make_user("olive", first_name="Olive")


@pytest.fixture
def judge(db) -> User:
    return make_user("jude")


@pytest.fixture
def player(db) -> User:
    return make_user("pat")


@pytest.fixture
def event(organiser, judge, player) -> Event:
    """An open Iacta event: olive organises, jude judges, pat plays."""
    created = services.create_event(
        organiser, name="Test Open", game="iacta", status=Event.Status.REGISTRATION
    )
    EventRole.objects.create(event=created, user=judge, role=EventRole.Role.JUDGE)
    services.register_player(created, player)
    return created


def make_event(organiser, players: int, **fields) -> Event:
    """An event with ``players`` registered, checked-in players (p01, p02, …), not paired."""
    options = {"name": "Loop Open", "swiss_rounds": 3, **fields}
    world = worlds.build_event(
        players, organiser=organiser, judge=None, paired=False, password=PASSWORD, **options
    )
    return world.event


def finished_event(organiser, players, name: str, rounds_played: int = 3, **fields) -> Event:
    """An event of ``players`` whose Swiss rounds were all paired, played and closed, then
    finished: what a series counts."""
    world = worlds.build_event(
        players,
        organiser=organiser,
        judge=None,
        name=name,
        swiss_rounds=rounds_played,
        rounds_played=rounds_played,
        paired=False,
        password=PASSWORD,
        **fields,
    )
    return rounds.finish_event(world.event, organiser)


def play_out(round_: Round, organiser, score: str = "2-0") -> None:
    """Staff enter ``score`` at every table still without a result (first player wins)."""
    for match in round_.matches.filter(is_bye=False):
        if not match.has_result:
            results.enter_result(match, results.Score.parse(score), organiser)


# Every model a request or a service of the site writes: counted by ``database_rows``.

WRITTEN = (
    AvoidPair,
    User,
    Event,
    EventRole,
    Registration,
    EntryOffer,
    Round,
    Match,
    ResultChange,
    EventLog,
    Penalty,
    JudgeCall,
    TimeExtension,
    Decklist,
    DeckCheck,
    PrintJob,
    Card,
    CardRevision,
    CardPoolImport,
    Precedent,
    Term,
    KnownCard,
    MetagameSettings,
)


def database_rows() -> dict:
    """Every row a request or a service could write, as plain values. A refusal must leave
    it equal: take one before and compare after, so a refused change can never half-happen."""

    def rows(model, *fields) -> list:
        return list(model.objects.order_by("pk").values_list("pk", *fields))

    return {
        "counts": {model.__name__: model.objects.count() for model in WRITTEN},
        "events": rows(Event, "status", "name", "decklists_public", "registration_cap"),
        "roles": rows(EventRole, "event", "user", "role"),
        "registrations": rows(
            Registration,
            "user",
            "status",
            "checked_in",
            "table_pin",
            "dropped_after_round",
            "joined_round",
            "disqualified",
        ),
        "rounds": rows(Round, "status", "started_at", "closed_at"),
        "matches": rows(
            Match,
            "player_a",
            "player_b",
            "table",
            "status",
            "games",
            "forced_games",
            "reported_by",
            "reported_games",
            "extension_minutes",
        ),
        "penalties": rows(Penalty, "voided_at", "consequences"),
        "calls": rows(JudgeCall, "judge", "resolved_at", "resolution", "extension_minutes"),
        "extensions": rows(TimeExtension, "minutes", "reason", "removed_at", "removal_reason"),
        "decklists": rows(Decklist, "status", "main", "sideboard", "unlocked", "legal"),
        "cards": rows(Card, "game", "name", "text", "cost", "max_copies", "demo"),
        "card_revisions": rows(CardRevision, "card", "text", "created_by"),
        "users": rows(User, "password", "is_active"),
        "entry_offers": rows(EntryOffer, "state", "account", "decided_by"),
    }


@contextmanager
def refused(match: str) -> Iterator[pytest.ExceptionInfo[ServiceError]]:
    """The block must raise a ServiceError matching ``match`` and leave every row as it was
    (``database_rows``): a refused service changes nothing."""
    before = database_rows()
    with pytest.raises(ServiceError, match=match) as caught:
        yield caught
    assert database_rows() == before, f"refused ({caught.value}) yet the database changed"


@pytest.fixture
def make_world(request):
    """``make_world(players=8, **options)``: ``arbiter.worlds.build_event`` with olive
    organising and jude judging (the ``organiser`` and ``judge`` fixtures; ``judge=None``
    for none), players p01, p02… with the test password, round 1 paired, "Loop Open" with
    three Swiss rounds unless told otherwise."""

    def build(players=8, **options) -> worlds.World:
        if "organiser" not in options:
            options["organiser"] = request.getfixturevalue("organiser")
        if "judge" not in options:
            options["judge"] = request.getfixturevalue("judge")
        options = {"name": "Loop Open", "swiss_rounds": 3, "password": PASSWORD, **options}
        return worlds.build_event(players, **options)

    return build


@pytest.fixture
def login(client):
    def as_user(user: User):
        client.force_login(user)
        return client

    return as_user


@pytest.fixture
def eager_tasks():
    """Run Celery tasks in-process even when a broker is configured (the second pass):
    for tests of what a task does, not of how it travels (tests/integration has those)."""
    from arbiter.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
