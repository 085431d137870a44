"""Deliveries as a receiver sees them: announced once a change commits, signed so that the
Standard Webhooks reference code verifies them, retried after a 500, logged, replayable,
and a webhook that keeps failing turned off with an e-mail to its owner."""

import json

import pytest
from django.core import mail
from django.db import transaction
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from tournaments.rounds import services as rounds
from webhooks import announcements, subscriptions
from webhooks.listeners import queue
from webhooks.models import Attempt, Delivery, Subscription

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_world):
    return make_world(["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"])


def hook(world, receiver, **options) -> Subscription:
    return subscriptions.subscribe(
        world.organiser, url=receiver.url(), event=world.event, **options
    )


def start_round_committed(world, capture) -> None:
    with capture(execute=True), transaction.atomic():
        rounds.start_round(world.round, world.organiser)


def test_a_delivery_answered_500_is_retried_and_both_attempts_verify_and_are_logged(
    trusted, world, eager_tasks, django_capture_on_commit_callbacks
):
    subscription = hook(world, trusted)
    trusted.statuses = [500]  # the first attempt fails, the retry is taken
    start_round_committed(world, django_capture_on_commit_callbacks)

    assert len(trusted.received) == 2
    first, second = trusted.received
    assert first.headers["webhook-id"] == second.headers["webhook-id"]  # one message
    verifier = Webhook(subscription.secret)  # the reference library, from the secret alone
    for sent in (first, second):
        payload = verifier.verify(sent.body, sent.headers)
        assert payload["type"] == "round.started"
        assert payload["data"]["event"]["id"] == world.event.pk
        assert payload["data"]["round"] == {**payload["data"]["round"], "number": 1}
        assert payload["data"]["round"]["status"] == "running"
    with pytest.raises(WebhookVerificationError):  # a body changed on the way fails
        Webhook(subscription.secret).verify(first.body.replace(b"1", b"2"), first.headers)

    delivery = Delivery.objects.get(subscription=subscription)
    assert delivery.outcome == Delivery.Outcome.DELIVERED
    assert delivery.attempts == 2 and delivery.status_code == 200
    assert delivery.message_id == first.headers["webhook-id"]
    tries = list(delivery.tries.values_list("number", "status_code", "response_excerpt"))
    assert tries == [(1, 500, "answered 500"), (2, 200, "answered 200")]
    subscription.refresh_from_db()
    assert subscription.failures == 0 and subscription.active


def test_the_announcement_leaves_once_on_commit_and_never_for_a_rolled_back_change(
    trusted, world, eager_tasks, django_capture_on_commit_callbacks
):
    subscription = hook(world, trusted, chosen=["round.started", "round.closed"])
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                rounds.start_round(world.round, world.organiser)
                raise RuntimeError("the change failed")
        except RuntimeError:
            pass
    assert trusted.received == [] and not Delivery.objects.exists()

    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        rounds.start_round(world.round, world.organiser)
        assert trusted.received == []  # nothing leaves before the commit
        assert not Delivery.objects.exists()  # nor is it announced before
    assert callbacks  # the signal waited for the commit
    kinds = list(Delivery.objects.values_list("kind", flat=True))
    assert kinds == ["round.started"]  # once, and only the chosen announcements
    assert [json.loads(r.body)["type"] for r in trusted.received] == ["round.started"]
    assert subscription.deliveries.count() == 1


def test_a_round_paired_carries_the_pairings(
    trusted, make_world, eager_tasks, django_capture_on_commit_callbacks
):
    world = make_world(4, paired=False)
    subscription = hook(world, trusted, chosen=["round.paired"])
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        round_ = rounds.pair_next_round(world.event, world.organiser)
    (sent,) = trusted.received
    payload = Webhook(subscription.secret).verify(sent.body, sent.headers)
    pairings = payload["data"]["pairings"]
    expected = {(m.table, tuple(p.display_name for p in m.players())) for m in round_.matches.all()}
    assert {(p["table"], tuple(x["name"] for x in p["players"])) for p in pairings} == expected
    assert payload["data"]["how"] == "paired"


def test_webhooks_failing_again_and_again_are_turned_off_and_the_owner_told(
    trusted, world, eager_tasks, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    settings.WEBHOOK_DISABLE_AFTER = 2
    subscription = hook(world, trusted)
    trusted.statuses = [503] * 10
    with django_capture_on_commit_callbacks(execute=True):  # queue() sends on commit
        queue([subscription], announcements.ping(world.event))
    subscription.refresh_from_db()
    assert subscription.active and subscription.failures == 1
    assert len(trusted.received) == 2 and mail.outbox == []  # two attempts, one failure

    with django_capture_on_commit_callbacks(execute=True):
        queue([subscription], announcements.ping(world.event))
    subscription.refresh_from_db()
    assert not subscription.active and subscription.disabled_at is not None
    assert "503" in subscription.disabled_reason
    assert list(Delivery.objects.values_list("outcome", flat=True)) == ["failed", "failed"]
    (notice,) = mail.outbox
    assert notice.to == [world.organiser.email]
    assert subscription.url in notice.subject
    assert f"/events/{world.event.pk}/webhooks/" in notice.body

    sent = len(trusted.received)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        rounds.start_round(world.round, world.organiser)
    assert callbacks  # the round's start was announced
    assert len(trusted.received) == sent  # a webhook turned off hears nothing more
    assert Delivery.objects.count() == 2

    subscriptions.switch_on(subscription)
    subscription.refresh_from_db()
    assert subscription.active and subscription.failures == 0


def test_a_logged_delivery_is_replayed_with_its_id_and_a_fresh_signature(
    trusted, world, eager_tasks, login, django_capture_on_commit_callbacks
):
    subscription = hook(world, trusted)
    with django_capture_on_commit_callbacks(execute=True):
        queue([subscription], announcements.ping(world.event))
    delivery = Delivery.objects.get()
    client = login(world.organiser)
    path = f"/api/v1/webhooks/{subscription.pk}/deliveries/{delivery.pk}/replay/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(path)
    assert response.status_code == 202, response.content
    first, again = trusted.received
    assert again.headers["webhook-id"] == first.headers["webhook-id"]
    assert Webhook(subscription.secret).verify(again.body, again.headers)["type"] == "webhook.test"
    assert list(Attempt.objects.values_list("replay", flat=True)) == [False, True]

    listed = client.get(f"/api/v1/webhooks/{subscription.pk}/deliveries/").json()
    assert [t["replay"] for t in listed[0]["tries"]] == [False, True]
    assert listed[0]["outcome"] == "delivered" and listed[0]["attempts"] == 2


def test_a_discord_webhook_gets_readable_messages_unsigned(
    trusted, make_world, eager_tasks, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_DISCORD_HOSTS = ["127.0.0.1"]  # the receiver stands in for Discord
    world = make_world(["Ada Lovelace", "Grace Hopper", "Alan Turing"], paired=False)
    subscriptions.subscribe(
        world.organiser,
        url=trusted.url("/api/webhooks/123/token"),
        event=world.event,
        chosen=["round.paired"],
    )
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        round_ = rounds.pair_next_round(world.event, world.organiser)
    (sent,) = trusted.received
    assert "webhook-signature" not in sent.headers
    message = json.loads(sent.body)
    assert message["allowed_mentions"] == {"parse": []}
    text = message["content"]
    assert text.startswith("**Loop Open**\nRound 1 pairings:")
    table = round_.matches.get(is_bye=False)
    a, b = (p.display_name for p in table.players())
    assert f"Table {table.table}: {a} vs {b}" in text
    bye = round_.matches.get(is_bye=True)
    assert f"Bye: {bye.player_a.display_name}" in text


def test_a_series_webhook_hears_its_events_and_no_other(
    trusted, world, make_world, eager_tasks, django_capture_on_commit_callbacks
):
    from series.services import create_series

    series = create_series(world.organiser, [world.event], name="League", placing_points="1: 3")
    other = make_world(4, name="Elsewhere")
    league = subscriptions.subscribe(world.organiser, url=trusted.url("/league"), series=series)
    elsewhere = subscriptions.subscribe(
        world.organiser, url=trusted.url("/elsewhere"), event=other.event
    )
    start_round_committed(world, django_capture_on_commit_callbacks)
    assert [r.path for r in trusted.received] == ["/league"]
    payload = Webhook(league.secret).verify(trusted.received[0].body, trusted.received[0].headers)
    assert payload["data"]["event"]["id"] == world.event.pk
    assert not elsewhere.deliveries.exists()
