"""Fixtures shared by the Django tests: people in their per-event roles."""

import pytest
from django.contrib.auth.models import User

from tournaments import services
from tournaments.models import Event, EventRole

PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Real hashing costs ~0.3 s a user; tests that create dozens need it cheap."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
