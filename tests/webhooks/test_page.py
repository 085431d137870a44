"""The organiser's webhooks page, linked from the dashboard: add, see, delete."""

import pytest

from webhooks.models import Attempt, Delivery, Subscription

pytestmark = pytest.mark.django_db


def test_the_dashboard_links_the_page_and_an_organiser_adds_and_deletes(
    login, event, organiser, receiver, settings
):
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{receiver.port}"]
    client = login(organiser)
    page = f"/events/{event.pk}/webhooks/"
    assert page in client.get(f"/events/{event.pk}/manage/").content.decode()

    refused = client.post(page, {"url": "https://169.254.169.254/x"}, follow=True)
    assert not Subscription.objects.exists()
    assert "private address" in refused.content.decode()

    client.post(page, {"url": receiver.url(), "announcements": ["round.closed"]})
    hook = Subscription.objects.get()
    shown = client.get(page).content.decode()
    assert receiver.url() in shown and hook.secret in shown  # the owner reads the secret

    client.post(f"{page}{hook.pk}/delete/")
    assert not Subscription.objects.exists()


def test_players_may_not_open_it(login, event, player):
    assert login(player).get(f"/events/{event.pk}/webhooks/").status_code == 403


def test_the_page_reads_as_many_queries_for_ten_webhooks_as_for_one(login, event, organiser):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def add(n: int) -> None:
        hook = Subscription.objects.create(
            owner=organiser, event=event, url=f"https://example.org/{n}", secret="whsec_eA=="
        )
        for k in range(12):
            delivery = Delivery.objects.create(
                subscription=hook, message_id=f"msg_{n}_{k}", kind="webhook.test", payload={}
            )
            Attempt.objects.create(delivery=delivery, number=1, status_code=500)

    client = login(organiser)
    page = f"/events/{event.pk}/webhooks/"

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(page).status_code == 200
        return len(seen)

    add(0)
    one = queries()
    for n in range(1, 10):
        add(n)
    assert queries() == one
    shown = client.get(page).content.decode()
    assert shown.count("Send again") == 10 * 10  # the latest 10 deliveries of each
