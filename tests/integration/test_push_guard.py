"""Pairing pushes sent by a real ``celery worker`` never reach an internal address.

Subscriptions an attacker could have stored are written straight into the database (as if
kept from before the allow-list, or inserted behind the site's back): a name on the list
that resolves to loopback, a trusted push service that redirects to an internal page, and
a host written as a number. A real listener on loopback stands for the internal address:
after the worker has sent the round's pushes, it has recorded no connection. The honest
subscription beside them is delivered, so the worker did run.
"""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from arbiter.celery import app
from push.management.commands.push_keys import new_keys
from push.models import PushSubscription
from push.subscriptions import subscribe
from tests.push.pushservice import Browser, Listener, start
from tests.waiting import wait_until
from tournaments.rounds import services as rounds

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER or connection.vendor != "postgresql",
        reason="needs PostgreSQL and a Redis broker (scripts/test's second pass)",
    ),
]


@pytest.fixture
def service():
    running = start()
    yield running
    running.server.shutdown()
    running.server.server_close()


@pytest.fixture
def listener():
    running = Listener()
    yield running
    running.close()


@pytest.fixture
def push_settings(settings, service):
    """VAPID keys, the allow-list with loopback names on it, and only the local push
    service trusted to be private: as the environment of the worker and of this process."""
    public, private = new_keys()
    values = {
        "WEBPUSH_VAPID_PUBLIC_KEY": public,
        "WEBPUSH_VAPID_PRIVATE_KEY": private,
        "WEBPUSH_VAPID_SUBJECT": "mailto:to@example.org",
        "WEBPUSH_ALLOWED_HOSTS": "fcm.googleapis.com,127.0.0.1,localhost",
        "OUTBOUND_TRUSTED_PRIVATE": f"127.0.0.1:{service.port}",
    }
    for name, value in values.items():
        setattr(settings, name, value.split(",") if name.endswith(("HOSTS", "PRIVATE")) else value)
    return values


@pytest.fixture
def worker(push_settings):
    """A worker on a queue of its own, sharing the test database."""
    queue = f"arbiter-push-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    db = connection.settings_dict
    env = {
        **os.environ,
        **push_settings,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_QUEUE": queue,
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "arbiter",
            "worker",
            "--pool",
            "solo",
            "--queues",
            queue,
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield process
    app.conf.task_default_queue = previous
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def planted(user, endpoint: str) -> PushSubscription:
    """A subscription row written directly, past the checks at subscribe."""
    return PushSubscription.objects.create(user=user, endpoint=endpoint, **_keys())


def _keys() -> dict[str, str]:
    return Browser("x").to_json()["keys"]


def test_a_worker_sends_pairing_pushes_to_no_internal_address(
    worker, service, listener, make_world
):
    world = make_world(4, paired=False)
    ada, grace, alan, edsger = (r.user for r in world.registrations)
    subscribe(ada, Browser(f"{service.url}/push/ada").to_json())
    rebound = planted(grace, f"https://localhost:{listener.port}/push/grace")
    redirected = planted(alan, f"{service.url}/push/alan")
    service.redirects["/push/alan"] = f"http://127.0.0.1:{listener.port}/internal-admin"
    numeric = planted(edsger, f"https://2130706433:{listener.port}/push/edsger")

    rounds.pair_next_round(world.event, world.organiser)  # the pushes leave on commit

    def settled() -> bool:
        rows = {s.pk: s for s in PushSubscription.objects.all()}
        return (
            rows.get(rebound.pk) is not None
            and rows[rebound.pk].failed_count == 1
            and rows[redirected.pk].failed_count == 1
            and numeric.pk not in rows
            and rows[ada.push_subscriptions.get().pk].ok_count == 1
        )

    def worker_settled() -> bool:
        assert worker.poll() is None, worker.stdout.read()
        return settled()

    wait_until(
        worker_settled,
        60,
        lambda: f"the worker to settle every push: {list(PushSubscription.objects.values())}",
        0.3,
    )
    assert listener.seen() == []
    assert sorted(r.path for r in service.received) == ["/push/ada", "/push/alan"]
    assert settled(), list(PushSubscription.objects.values())
