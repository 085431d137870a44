"""Pairings pushed to closed phones: a local push service records what pywebpush sends;
the test holds the browser's keys, so it decrypts the message and reads the seat."""

import json

import pytest
from django.db import transaction
from py_vapid import Vapid, b64urldecode

from push.announce import push_pairings
from push.models import PushSubscription
from push.subscriptions import subscribe
from push.tasks import send_pairing_pushes
from tests.push.conftest import trust_local
from tests.push.pushservice import Browser
from tournaments.rounds import services as rounds
from tournaments.rounds.my_match import opponent_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_world):
    return make_world(["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"])


def phone_of(service, user, name: str) -> Browser:
    browser = Browser(f"{service.url}/push/{name}")
    subscribe(user, browser.to_json())
    return browser


def pairing(world, registration) -> str:
    match = world.round.matches.get(
        pk__in=[m.pk for m in world.round.matches.all() if registration in m.players()]
    )
    return f"Round 1 — table {match.table} vs {opponent_of(match, registration).display_name}"


def test_each_subscribed_player_gets_their_seat_encrypted_for_their_phone(
    service, vapid, world, eager_tasks, django_capture_on_commit_callbacks
):
    ada, grace = world.registrations[0], world.registrations[1]
    ada_phone = phone_of(service, ada.user, "ada")
    grace_phone = phone_of(service, grace.user, "grace")
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        push_pairings(world.round)
        assert service.received == []  # nothing leaves before the pairing is committed
    by_path = {r.path: r for r in service.received}
    assert sorted(by_path) == ["/push/ada", "/push/grace"]  # the unsubscribed get nothing

    for phone, me, path in ((ada_phone, ada, "/push/ada"), (grace_phone, grace, "/push/grace")):
        sent = by_path[path]
        assert sent.headers["content-encoding"] == "aes128gcm"
        assert int(sent.headers["ttl"]) == 3600
        scheme, _, credentials = sent.headers["authorization"].partition(" ")
        assert scheme == "vapid"
        parts = dict(p.strip().split("=", 1) for p in credentials.split(","))
        assert parts["k"] == vapid
        claims = json.loads(b64urldecode(parts["t"].split(".")[1].encode()))
        assert claims["aud"] == service.url and claims["sub"] == "mailto:to@example.org"
        assert Vapid.verify(sent.headers["authorization"])  # signed by the key named in k
        message = json.loads(phone.decrypt(sent.body))
        assert message["body"] == pairing(world, me)
        assert message["title"] == world.event.name
        assert message["url"] == f"/events/{world.event.pk}/my-match/"
    ok = PushSubscription.objects.get(endpoint=ada_phone.endpoint)
    assert ok.ok_count == 1 and ok.last_ok is not None and ok.failed_count == 0


def test_a_rolled_back_pairing_pushes_nothing(
    service, vapid, world, eager_tasks, django_capture_on_commit_callbacks
):
    phone_of(service, world.registrations[0].user, "ada")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                push_pairings(world.round)
                raise RuntimeError("the pairing failed")
        except RuntimeError:
            pass
    assert callbacks == [] and service.received == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_calls_gone_is_deleted(service, vapid, world, status):
    ada, grace = world.registrations[0], world.registrations[1]
    phone_of(service, ada.user, "ada")
    phone_of(service, grace.user, "grace")
    service.answers["/push/ada"] = status
    assert send_pairing_pushes(world.round.pk) == 1
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [grace.user_id]


def test_another_failure_is_counted_and_the_subscription_kept(service, vapid, world):
    phone_of(service, world.registrations[0].user, "ada")
    service.answers["/push/ada"] = 500
    assert send_pairing_pushes(world.round.pk) == 0
    kept = PushSubscription.objects.get()
    assert kept.failed_count == 1 and kept.ok_count == 0 and kept.last_ok is None


def test_an_unreachable_push_service_is_a_failure_not_an_error(vapid, world, settings):
    trust_local(settings, 9)
    browser = Browser("http://127.0.0.1:9/push/nobody")  # the discard port: refused
    subscribe(world.registrations[0].user, browser.to_json())
    assert send_pairing_pushes(world.round.pk) == 0
    assert PushSubscription.objects.get().failed_count == 1


def test_without_vapid_keys_nothing_is_queued_or_sent(
    service, world, settings, eager_tasks, django_capture_on_commit_callbacks
):
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    phone_of(service, world.registrations[0].user, "ada")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        push_pairings(world.round)
    assert callbacks == []
    assert send_pairing_pushes(world.round.pk) == 0
    assert service.received == []


def test_pairing_a_round_pushes_each_subscribed_players_seat(
    service, vapid, make_world, eager_tasks, django_capture_on_commit_callbacks
):
    """Pairing a round reaches Web Push: push listens to ``tournaments.signals.round_paired``."""
    world = make_world(["Ada Lovelace", "Grace Hopper"], paired=False)
    ada = world.registrations[0]
    phone = phone_of(service, ada.user, "ada")
    with django_capture_on_commit_callbacks(execute=True):
        round_ = rounds.pair_next_round(world.event, world.organiser)
    table = round_.matches.get()
    [sent] = service.received
    assert json.loads(phone.decrypt(sent.body))["body"] == (
        f"Round 1 — table {table.table} vs Grace Hopper"
    )
