"""The webhooks API: private, loopback and link-local URLs refused naming url; a test's
own receiver allowed only through the explicit setting; who may subscribe and see."""

import pytest

from webhooks.models import Subscription

pytestmark = pytest.mark.django_db

PATH = "/api/v1/webhooks/"


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hooks/arbiter",
        "https://169.254.169.254/latest/meta-data/",
        "https://localhost./hooks/arbiter",  # a name: refused once resolved, as the guard does
        "https://[::1]/hooks",
        "https://10.1.2.3/hooks",
    ],
)
def test_a_private_loopback_or_link_local_url_is_refused_naming_url(login, event, organiser, url):
    response = login(organiser).post(
        PATH, {"url": url, "event": event.pk}, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == ["url"]
    assert not Subscription.objects.exists()


def test_the_tests_own_receiver_only_through_the_explicit_setting(
    login, event, organiser, receiver, settings
):
    client = login(organiser)
    body = {"url": receiver.url(), "event": event.pk, "announcements": ["round.started"]}
    refused = client.post(PATH, body, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "url"

    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{receiver.port}"]
    made = client.post(PATH, body, content_type="application/json")
    assert made.status_code == 201, made.content
    data = made.json()
    assert data["secret"].startswith("whsec_") and data["announcements"] == ["round.started"]
    assert data["event"] == event.pk and data["active"] and not data["discord"]
    assert [w["id"] for w in client.get(PATH).json()] == [data["id"]]
    assert client.get(f"{PATH}{data['id']}/deliveries/").json() == []
    assert client.delete(f"{PATH}{data['id']}/").status_code == 204
    assert not Subscription.objects.exists()


def test_unknown_announcements_are_named(login, event, organiser, receiver, settings):
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{receiver.port}"]
    body = {"url": receiver.url(), "event": event.pk, "announcements": ["round.eaten"]}
    response = login(organiser).post(PATH, body, content_type="application/json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "announcements" and "round.eaten" in error["message"]


def test_only_organisers_subscribe_and_see(
    login, event, organiser, player, judge, receiver, settings
):
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{receiver.port}"]
    body = {"url": receiver.url(), "event": event.pk}
    for who in (player, judge):
        response = login(who).post(PATH, body, content_type="application/json")
        assert response.status_code == 403, response.content
    made = login(organiser).post(PATH, body, content_type="application/json").json()
    client = login(player)
    assert client.get(PATH).json() == []
    assert client.get(f"{PATH}{made['id']}/").status_code == 403
    assert client.delete(f"{PATH}{made['id']}/").status_code == 403
    assert Subscription.objects.count() == 1
