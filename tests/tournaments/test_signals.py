"""tournaments.signals: who may follow an event changed, announced once on commit, for
every way the change is made; a listener that fails is logged and undoes nothing."""

import logging

import pytest
from django.db import transaction

from tests.conftest import make_user
from tournaments import signals
from tournaments.event import services
from tournaments.models import Event, EventRole, Registration

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard():
    """Every (signal name, arguments) sent while the test runs, in order."""
    got = []
    names = {
        signals.role_changed: "role",
        signals.registration_changed: "registration",
        signals.event_status_changed: "status",
    }

    def listen(sender, signal, **arguments):
        got.append((names[signal], arguments))

    for signal in names:
        signal.connect(listen, dispatch_uid="test-heard")
    yield got
    for signal in names:
        signal.disconnect(dispatch_uid="test-heard")


def test_a_role_granted_and_removed_is_announced_once_each(make_world, heard):
    world = make_world(2, judge=None)
    other = make_user("rita")
    heard.clear()
    grant = services.grant_role(world.event, "rita", EventRole.Role.JUDGE)
    services.revoke_role(world.event, grant.pk)
    role = {"event_id": world.event.pk, "user_id": other.pk}
    assert heard == [("role", role), ("role", role)]


def test_nothing_is_announced_for_a_rolled_back_change(make_world, heard):
    world = make_world(2, paired=False)
    heard.clear()
    with transaction.atomic():
        services.withdraw_player(world.event, world.registrations[0].user)
        services.update_event(world.event, world.organiser, status=Event.Status.DRAFT)
        assert heard == []  # not before the commit either
        transaction.set_rollback(True)
    assert heard == []
    assert Registration.objects.filter(pk=world.registrations[0].pk).exists()


def test_entries_made_removed_and_moved_are_announced_for_each_account(make_world, heard):
    world = make_world(2, paired=False)
    event_id = world.event.pk
    newcomer, walk_in_owner = make_user("nia"), make_user("wade")
    heard.clear()
    services.register_player(world.event, newcomer)
    services.withdraw_player(world.event, newcomer)
    walk_in = services.add_late_entry(world.event, world.organiser, name="Wade Walker")
    Registration.objects.filter(pk=walk_in.pk).update(status=Registration.Status.REGISTERED)
    walk_in.user = walk_in_owner  # however the entry reaches the account
    walk_in.save()
    services.merge_accounts(walk_in_owner, newcomer, world.organiser)
    walk_in.refresh_from_db()
    walk_in.status = Registration.Status.DROPPED  # a status change: still the same account's
    walk_in.save(update_fields=["status"])

    def entry(user):
        return ("registration", {"event_id": event_id, "user_id": user.pk})

    moved = heard[3:]
    assert heard[:3] == [entry(newcomer), entry(newcomer), entry(walk_in_owner)]
    assert sorted(m[1]["user_id"] for m in moved) == sorted([walk_in_owner.pk, newcomer.pk])


def test_a_status_change_is_announced_with_the_status_it_left(make_world, heard):
    world = make_world(2, paired=False)
    heard.clear()
    services.update_event(world.event, world.organiser, status=Event.Status.DRAFT)
    services.update_event(world.event, world.organiser, name="Renamed")
    assert heard == [
        (
            "status",
            {"event_id": world.event.pk, "status": "draft", "previous": "registration"},
        )
    ]


def test_a_listener_that_fails_is_logged_and_undoes_nothing(make_world, heard, caplog):
    world = make_world(2)
    grant = EventRole.objects.get(event=world.event, user=world.judge)

    def broken(sender, **arguments):
        raise RuntimeError("listener broke")

    signals.role_changed.connect(broken, dispatch_uid="test-broken")
    try:
        heard.clear()
        with caplog.at_level(logging.ERROR, logger="tournaments.signals"):
            services.revoke_role(world.event, grant.pk)
    finally:
        signals.role_changed.disconnect(dispatch_uid="test-broken")
    assert not EventRole.objects.filter(pk=grant.pk).exists()
    assert "listener broke" in caplog.text
    assert heard == [("role", {"event_id": world.event.pk, "user_id": world.judge.pk})]
