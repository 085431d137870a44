"""Web Push reaches push services only: an endpoint is taken when its host is on the
allow-list, and the worker's POST goes through the outbound guard (web.outbound). A real
listener on loopback stands for the internal address an attacker aims at: it records
every connection, and must record none."""

import socket

import pytest
from django.test import Client

from push import sender
from push.models import PushSubscription
from push.subscriptions import subscribe
from push.tasks import send_pairing_pushes
from tests.push.conftest import trust_local
from tests.push.pushservice import Browser

pytestmark = pytest.mark.django_db

# The forms the attack used (all accepted before), and other ways to write an inside host.
REFUSED = [
    "https://localhost:{port}/push/x",
    "https://2130706433:{port}/push/x",
    "https://127.1:{port}/push/x",
    "https://0x7f000001:{port}/push/x",
    "https://017700000001:{port}/push/x",
    "https://localhost.:{port}/push/x",
    "https://LOCALHOST:{port}/push/x",
    "https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54:{port}/push/x",  # fullwidth
    "https://0177.0.0.1:{port}/push/x",
    "https://127.0.0.1:{port}/push/x",
    "https://[::1]:{port}/push/x",
    "https://[::ffff:127.0.0.1]:{port}/push/x",
    "https://169.254.169.254/latest/meta-data/",
    "https://fcm.googleapis.com@127.0.0.1:{port}/push/x",
    "https://fcm.googleapis.com:pw@127.0.0.1:{port}/push/x",
    "https://127.0.0.1:{port}\\@fcm.googleapis.com/push/x",
    "https://evilfcm.googleapis.com/push/x",
    "https://fcm.googleapis.com.evil.example/push/x",
    "https://fcm.googleapis.com\u3002evil.example/push/x",  # an ideographic full stop
]
TAKEN = [
    "https://fcm.googleapis.com/fcm/send/abc",
    "https://updates.push.services.mozilla.com/wpush/v2/abc",
    "https://web.push.apple.com/QGx9abc",
    "https://wns2-par02p.notify.windows.com/w/?token=abc",
    "https://FCM.googleapis.com./fcm/send/abc",
]


def post(client, body, path="/push/subscribe/"):
    return client.post(path, body, content_type="application/json")


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("endpoint", REFUSED)
def test_an_endpoint_that_is_not_a_push_service_is_refused(
    client, player, settings, endpoint, debug
):
    settings.DEBUG = debug
    client.force_login(player)
    response = post(client, Browser(endpoint.format(port=8443)).to_json())
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "endpoint" and error["message"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", TAKEN)
def test_the_listed_push_services_are_taken(client, player, endpoint):
    client.force_login(player)
    assert post(client, Browser(endpoint).to_json()).status_code == 201


def test_an_operator_adds_a_self_hosted_push_service(client, player, settings):
    client.force_login(player)
    body = Browser("https://push.example.org/send/1").to_json()
    assert post(client, body).status_code == 400
    settings.WEBPUSH_ALLOWED_HOSTS = [*settings.WEBPUSH_ALLOWED_HOSTS, "push.example.org"]
    assert post(client, body).status_code == 201


@pytest.fixture
def world(make_world):
    return make_world(["Ada Lovelace", "Grace Hopper"])


def test_the_listener_records_a_connection(listener):
    """What the tests below rely on: a connection to it is seen."""
    socket.create_connection(("127.0.0.1", listener.port), timeout=2).close()
    assert len(listener.seen()) == 1


def test_an_allow_listed_name_that_resolves_to_loopback_is_never_connected(
    listener, vapid, world, settings
):
    """localhost is on the list here but not trusted to be private: the worker resolves
    it itself and refuses 127.0.0.1 before connecting."""
    settings.WEBPUSH_ALLOWED_HOSTS = ["localhost"]
    subscribe(
        world.registrations[0].user, Browser(f"https://localhost:{listener.port}/p").to_json()
    )
    assert send_pairing_pushes(world.round.pk) == 0
    assert listener.seen() == []
    assert PushSubscription.objects.get().failed_count == 1


def test_a_push_service_name_rebound_to_loopback_is_never_connected(
    listener, vapid, world, settings, monkeypatch
):
    """DNS rebinding: the name of a listed push service answers 127.0.0.1 when the worker
    sends (the patched resolver stands for the attacker's DNS)."""
    real = socket.getaddrinfo

    def rebound(host, port, *args, **kwargs):
        if host == "rebind.push.services.mozilla.com":
            return real("127.0.0.1", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebound)
    endpoint = f"https://rebind.push.services.mozilla.com:{listener.port}/wpush/v2/x"
    subscribe(world.registrations[0].user, Browser(endpoint).to_json())
    assert send_pairing_pushes(world.round.pk) == 0
    assert listener.seen() == []
    assert PushSubscription.objects.get().failed_count == 1


def test_a_redirect_from_a_push_service_is_not_followed(service, listener, vapid, world, settings):
    """A trusted push service answering 307 to an internal page: the message is not
    POSTed again anywhere, even to an address the guard would allow."""
    trust_local(settings, listener.port)
    ada = world.registrations[0].user
    subscribe(ada, Browser(f"{service.url}/push/ada").to_json())
    service.redirects["/push/ada"] = f"http://127.0.0.1:{listener.port}/internal-admin"
    assert send_pairing_pushes(world.round.pk) == 0
    assert [r.path for r in service.received] == ["/push/ada"]
    assert listener.seen() == []
    assert PushSubscription.objects.get().failed_count == 1


def test_a_row_kept_from_before_the_allow_list_is_dropped_unsent(listener, vapid, world):
    """A subscription stored before the rule (or inserted behind the site's back)."""
    PushSubscription.objects.create(
        user=world.registrations[0].user,
        endpoint=f"https://2130706433:{listener.port}/push/x",
        **Browser("x").to_json()["keys"],
    )
    assert send_pairing_pushes(world.round.pk) == 0
    assert listener.seen() == []
    assert not PushSubscription.objects.exists()


def test_a_subscription_failing_again_and_again_is_dropped(service, vapid, world):
    ada = world.registrations[0].user
    subscribe(ada, Browser(f"{service.url}/push/ada").to_json())
    service.answers["/push/ada"] = 500
    for _ in range(sender.MAX_FAILURES - 1):
        send_pairing_pushes(world.round.pk)
    assert PushSubscription.objects.get().failed_count == sender.MAX_FAILURES - 1
    send_pairing_pushes(world.round.pk)
    assert not PushSubscription.objects.exists()
    assert len(service.received) == sender.MAX_FAILURES


def test_a_message_taken_resets_the_failures(service, vapid, world):
    ada = world.registrations[0].user
    subscribe(ada, Browser(f"{service.url}/push/ada").to_json())
    service.answers["/push/ada"] = 500
    for _ in range(sender.MAX_FAILURES - 1):
        send_pairing_pushes(world.round.pk)
    service.answers["/push/ada"] = 201
    assert send_pairing_pushes(world.round.pk) == 1
    service.answers["/push/ada"] = 500
    for _ in range(sender.MAX_FAILURES - 1):
        send_pairing_pushes(world.round.pk)
    kept = PushSubscription.objects.get()
    assert (kept.failed_count, kept.ok_count) == (sender.MAX_FAILURES - 1, 1)


def test_another_accounts_endpoint_is_not_reassigned(world):
    """Through the service as through the page: the owner keeps it."""
    ada, grace = world.registrations[0].user, world.registrations[1].user
    endpoint = "https://fcm.googleapis.com/fcm/send/ada-phone"
    subscribe(ada, Browser(endpoint).to_json())
    thief = Client()
    thief.force_login(grace)
    assert post(thief, Browser(endpoint).to_json()).status_code == 400
    assert PushSubscription.objects.get().user == ada
