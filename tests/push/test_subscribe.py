"""A browser's subscription: POST /push/subscribe/ and /push/unsubscribe/ with the JSON of
PushSubscription.toJSON(); every bad field refused with a 400 that names it, nothing kept."""

import json

import pytest
from django.test import Client

from push.models import PushSubscription
from push.subscriptions import MAX_PER_USER
from tests.conftest import make_user
from tests.push.pushservice import Browser

pytestmark = pytest.mark.django_db

SERVICE = "https://fcm.googleapis.com/fcm/send/abc123"


def post(client, body, path="/push/subscribe/"):
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(path, data, content_type="application/json")


def valid(endpoint: str = SERVICE) -> dict:
    return Browser(endpoint).to_json()


@pytest.fixture
def pat(client, player):
    client.force_login(player)
    return client


def test_a_subscription_is_kept_for_the_user(pat, player):
    body = valid()
    response = post(pat, body)
    assert response.status_code == 201 and response.json()["subscribed"] is True
    kept = PushSubscription.objects.get()
    assert (kept.user, kept.endpoint) == (player, SERVICE)
    assert (kept.p256dh, kept.auth) == (body["keys"]["p256dh"], body["keys"]["auth"])


def without(body: dict, *path: str) -> dict:
    copy = json.loads(json.dumps(body))
    target = copy
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return copy


def changed(body: dict, value, *path: str) -> dict:
    copy = json.loads(json.dumps(body))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


BODY = valid()
BAD = [
    (without(BODY, "endpoint"), "endpoint", "missing"),
    (changed(BODY, "http://fcm.googleapis.com/x", "endpoint"), "endpoint", "https"),
    (changed(BODY, "ftp://fcm.googleapis.com/x", "endpoint"), "endpoint", "https"),
    (changed(BODY, "https://push.example.net/x", "endpoint"), "endpoint", "push service"),
    (changed(BODY, "https:///nohost", "endpoint"), "endpoint", "host"),
    (changed(BODY, "https://10.0.0.8/x", "endpoint"), "endpoint", "private address"),
    (changed(BODY, SERVICE + "a" * 2000, "endpoint"), "endpoint", "longer"),
    (changed(BODY, 7, "endpoint"), "endpoint", "missing"),
    (without(BODY, "keys"), "keys", "missing"),
    (changed(BODY, [], "keys"), "keys", "missing"),
    (without(BODY, "keys", "p256dh"), "keys.p256dh", "missing"),
    (without(BODY, "keys", "auth"), "keys.auth", "missing"),
    (changed(BODY, "not base64!", "keys", "auth"), "keys.auth", "16 bytes"),
    (changed(BODY, "AAAA", "keys", "p256dh"), "keys.p256dh", "65 bytes"),
    (changed(BODY, "A" + BODY["keys"]["p256dh"][1:], "keys", "p256dh"), "keys.p256dh", "P-256"),
]


@pytest.mark.parametrize(("body", "field", "words"), BAD)
def test_a_bad_field_is_named_and_nothing_kept(pat, body, field, words):
    response = post(pat, body)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == [field], errors
    assert words in errors[0]["message"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("body", ["", "not json", "[1, 2]", '"text"'])
def test_a_body_that_is_no_subscription_is_a_400(pat, body):
    response = post(pat, body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"]
    assert not PushSubscription.objects.exists()


def test_a_huge_body_is_refused_unread(pat):
    response = post(pat, json.dumps({**valid(), "padding": "x" * 10_000}))
    assert response.status_code == 400 and "limit is 4096 bytes" in response.content.decode()


def test_a_local_push_service_only_when_listed_and_trusted(pat, settings):
    """An operator's own push service on a private network: its host on the allow-list
    and its host:port trusted to be private; plain http only for such an entry."""
    local = valid("http://127.0.0.1:8123/push/1")
    assert post(pat, local).status_code == 400
    settings.WEBPUSH_ALLOWED_HOSTS = [*settings.WEBPUSH_ALLOWED_HOSTS, "127.0.0.1"]
    assert post(pat, local).status_code == 400  # listed, but not trusted to be private
    settings.OUTBOUND_TRUSTED_PRIVATE = ["127.0.0.1:8123"]
    assert post(pat, local).status_code == 201
    assert post(pat, valid("http://127.0.0.1:8124/push/2")).status_code == 400  # other port
    assert post(pat, valid("http://10.1.1.1:8123/push/3")).status_code == 400


def test_anonymous_callers_are_sent_to_log_in(client):
    response = post(client, valid())
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not PushSubscription.objects.exists()


def test_the_csrf_token_is_required(player):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    assert post(browser, valid()).status_code == 403
    assert not PushSubscription.objects.exists()


def test_an_endpoint_held_by_another_account_is_never_moved_to_the_caller(client, player):
    body = valid()
    client.force_login(player)
    assert post(client, body).status_code == 201
    thief = Client()
    thief.force_login(make_user("grace"))
    response = post(thief, valid())  # the same endpoint, the thief's own keys
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "endpoint" and "another account" in error["message"]
    kept = PushSubscription.objects.get()
    assert (kept.user, kept.p256dh) == (player, body["keys"]["p256dh"])
    # The owner can still turn it off.
    assert post(client, body, "/push/unsubscribe/").json()["removed"] == 1


def test_the_same_account_subscribing_again_renews_its_keys(pat, player):
    assert post(pat, valid()).status_code == 201
    renewed = valid()
    assert post(pat, renewed).status_code == 201
    kept = PushSubscription.objects.get()
    assert (kept.user, kept.p256dh, kept.auth) == (
        player,
        renewed["keys"]["p256dh"],
        renewed["keys"]["auth"],
    )


def test_an_account_keeps_its_newest_browsers_only(pat, player):
    endpoints = [f"{SERVICE}/{n}" for n in range(MAX_PER_USER + 2)]
    for endpoint in endpoints:
        assert post(pat, valid(endpoint)).status_code == 201
    kept = set(PushSubscription.objects.filter(user=player).values_list("endpoint", flat=True))
    assert kept == set(endpoints[2:])


def test_unsubscribe_forgets_only_the_callers_browser(pat, player, client):
    mine, theirs = valid(), valid(f"{SERVICE}/theirs")
    post(pat, mine)
    other = make_user("grace")
    other_client = Client()
    other_client.force_login(other)
    post(other_client, theirs)
    # Someone else's endpoint is not the caller's to remove.
    assert post(pat, theirs, "/push/unsubscribe/").json()["removed"] == 0
    assert post(pat, mine, "/push/unsubscribe/").json() == {"subscribed": False, "removed": 1}
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [other.pk]
    response = post(pat, {"keys": {}}, "/push/unsubscribe/")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "endpoint"
