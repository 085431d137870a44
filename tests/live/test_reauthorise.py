"""An open socket loses (or gains) rights with the change that takes (or gives) them
(live/access.py): a role or an entry removed, a token deleted, a session ended, an account
deactivated, the event moved back to draft. The socket leaves the groups it may no longer
hear, or closes with 4403; an entry made after it opened is heard without reconnecting."""

import logging

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from accounts import tokens
from arbiter.asgi import application
from live import notify
from live.consumers import REFUSED
from tests.conftest import PASSWORD
from tests.live.test_audiences import session_cookie, token_header
from tournaments.event import services
from tournaments.models import Event, EventRole

pytestmark = pytest.mark.django_db(transaction=True)
SETTLE = 0.5  # seconds for a socket to act on a change (the in-memory layer: at once)
WAIT = 3.0  # seconds to wait for a close that must come
CLOSED_4403 = {"type": "websocket.close", "code": REFUSED}


async def _open(event_id: int, headers=None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, f"/ws/events/{event_id}/", headers=headers or [])
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_nothing(timeout=0.2), "the socket was refused on opening"
    return socket


async def _say(event_id: int, *groups: str) -> None:
    """One notice to each group, named after the group, as a service would send it."""
    batch = [(group, notify.notice(event_id, "test", group=group)) for group in groups]
    await notify._send_all(get_channel_layer(), batch)


async def _heard(socket: WebsocketCommunicator) -> list[str]:
    """The groups whose test notices the socket got, until it stays quiet."""
    got = []
    while not await socket.receive_nothing(timeout=SETTLE):
        got.append((await socket.receive_json_from())["group"])
    return got


async def _closed(socket: WebsocketCommunicator) -> dict | None:
    """The close the socket gets within WAIT seconds (frames before it passed over)."""
    try:
        while True:
            output = await socket.receive_output(timeout=WAIT)
            if output["type"] == "websocket.close":
                return output
    except TimeoutError:
        return None


def _groups(world):
    event_id = world.event.pk
    return notify.public_group(event_id), notify.staff_group(event_id)


@pytest.mark.parametrize("opened_with", [session_cookie, token_header])
def test_a_judge_removed_from_the_event_hears_no_more_staff_notices(make_world, opened_with):
    world = make_world(4)
    event_id = world.event.pk
    public, staff = _groups(world)
    grant = EventRole.objects.get(event=world.event, user=world.judge)
    headers = opened_with(world.judge)

    async def run():
        socket = await _open(event_id, headers)
        await _say(event_id, staff, public)
        before = await _heard(socket)
        await sync_to_async(services.revoke_role)(world.event, grant.pk)
        await socket.receive_nothing(timeout=SETTLE)
        await _say(event_id, staff, public)
        after = await _heard(socket)
        await socket.disconnect()
        return before, after

    before, after = async_to_sync(run)()
    assert before == [staff, public]
    assert after == [public]  # still open, still following the event: no reconnect


def test_a_judge_granted_after_opening_hears_staff_notices(make_world, judge):
    world = make_world(4, judge=None)
    event_id = world.event.pk
    public, staff = _groups(world)
    headers = session_cookie(judge)

    async def run():
        socket = await _open(event_id, headers)
        await sync_to_async(services.grant_role)(world.event, judge.username, EventRole.Role.JUDGE)
        await socket.receive_nothing(timeout=SETTLE)
        await _say(event_id, staff, public)
        heard = await _heard(socket)
        await socket.disconnect()
        return heard

    assert async_to_sync(run)() == [staff, public]


def test_a_withdrawn_player_no_longer_hears_their_own_notices(make_world):
    world = make_world(4, paired=False)
    event_id = world.event.pk
    public, _staff = _groups(world)
    entry = world.registrations[0]
    own = notify.player_group(event_id, entry.pk)
    headers = session_cookie(entry.user)

    async def run():
        socket = await _open(event_id, headers)
        await _say(event_id, own)
        before = await _heard(socket)
        await sync_to_async(services.withdraw_player)(world.event, entry.user)
        await socket.receive_nothing(timeout=SETTLE)
        await _say(event_id, own, public)
        after = await _heard(socket)
        await socket.disconnect()
        return before, after

    before, after = async_to_sync(run)()
    assert before == [own]
    assert after == [public]


def test_a_player_registered_after_opening_hears_their_own_match_without_reconnecting(
    make_world,
):
    world = make_world(4, paired=False)
    event_id = world.event.pk
    newcomer = User.objects.create_user("newcomer", password=PASSWORD)
    headers = session_cookie(newcomer)

    async def run():
        socket = await _open(event_id, headers)
        entry = await sync_to_async(services.register_player)(world.event, newcomer)
        own = notify.player_group(event_id, entry.pk)
        await socket.receive_nothing(timeout=SETTLE)
        await _say(event_id, own)
        heard = await _heard(socket)
        await socket.disconnect()
        return own, heard

    own, heard = async_to_sync(run)()
    assert heard == [own]


@pytest.mark.parametrize(
    "take_back",
    [tokens.revoke_token, lambda user: tokens.issue_token(user, rotate=True)],
    ids=["revoked", "rotated"],
)
def test_a_deleted_token_closes_the_socket_it_opened(make_world, take_back):
    world = make_world(4)
    player = world.registrations[0].user
    headers = token_header(player)

    async def run():
        socket = await _open(world.event.pk, headers)
        await sync_to_async(take_back)(player)
        return await _closed(socket)

    assert async_to_sync(run)() == CLOSED_4403


def test_logging_out_closes_the_sockets_of_that_session_only(make_world):
    world = make_world(4)
    event_id = world.event.pk
    entry = world.registrations[0]
    own = notify.player_group(event_id, entry.pk)
    phone, laptop = Client(), Client()
    phone.force_login(entry.user)
    laptop.force_login(entry.user)

    def cookie(client):
        return [(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]

    async def run():
        on_phone = await _open(event_id, cookie(phone))
        on_laptop = await _open(event_id, cookie(laptop))
        logged_out = await sync_to_async(phone.post)("/accounts/logout/")
        closed = await _closed(on_phone)
        await _say(event_id, own)
        heard = await _heard(on_laptop)
        await on_laptop.disconnect()
        return logged_out.status_code, closed, heard

    status, closed, heard = async_to_sync(run)()
    assert status == 302
    assert closed == CLOSED_4403
    assert heard == [own]


def test_a_password_change_closes_the_sockets_of_other_sessions(make_world):
    world = make_world(4)
    event_id = world.event.pk
    user = world.registrations[0].user
    own = notify.player_group(event_id, world.registrations[0].pk)
    other_device = session_cookie(user)
    tool = token_header(user)
    changing = Client()
    changing.force_login(user)
    form = {"old_password": PASSWORD, "new_password1": "a-new-horse-9", "new_password2": ""}
    form["new_password2"] = form["new_password1"]

    async def run():
        stale = await _open(event_id, other_device)
        by_token = await _open(event_id, tool)
        changed = await sync_to_async(changing.post)("/accounts/password_change/", form)
        closed = await _closed(stale)
        await _say(event_id, own)
        heard = await _heard(by_token)
        await by_token.disconnect()
        return changed.status_code, closed, heard

    status, closed, heard = async_to_sync(run)()
    assert status == 302
    assert closed == CLOSED_4403
    assert heard == [own]  # a token is not a session: the tool keeps following


def test_a_deactivated_account_s_sockets_close(make_world):
    world = make_world(4)
    user = world.judge
    headers = [session_cookie(user), token_header(user)]

    def deactivate():
        user.is_active = False
        user.save(update_fields=["is_active"])

    async def run():
        sockets = [await _open(world.event.pk, h) for h in headers]
        await sync_to_async(deactivate)()
        return [await _closed(socket) for socket in sockets]

    assert async_to_sync(run)() == [CLOSED_4403, CLOSED_4403]


def test_an_event_moved_back_to_draft_closes_its_open_sockets(make_world):
    world = make_world(4, paired=False)
    event_id = world.event.pk
    callers = [[], session_cookie(world.registrations[0].user), token_header(world.organiser)]

    async def run():
        sockets = [await _open(event_id, headers) for headers in callers]
        await sync_to_async(services.update_event)(
            world.event, world.organiser, status=Event.Status.DRAFT
        )
        return [await _closed(socket) for socket in sockets]

    assert async_to_sync(run)() == [CLOSED_4403] * 3


def test_a_channel_layer_that_is_down_never_undoes_the_change(make_world, monkeypatch, caplog):
    world = make_world(4)
    grant = EventRole.objects.get(event=world.event, user=world.judge)

    class Down:
        async def group_send(self, group, message):
            raise ConnectionError("Redis is down")

    from live import access  # imported here: the module is what this test is about

    monkeypatch.setattr(access, "get_channel_layer", lambda: Down())
    with caplog.at_level(logging.WARNING, logger="live.access"):
        services.revoke_role(world.event, grant.pk)
    assert not EventRole.objects.filter(pk=grant.pk).exists()
    assert f"user.{world.judge.pk}.access not re-checked" in caplog.text


def test_a_notice_already_on_its_way_to_a_group_the_socket_left_is_dropped(make_world):
    """The rights are checked while notices may be queued for the socket: one sent to a
    group it is no longer in (here: never was, the staff's) is not passed on."""
    world = make_world(4)
    event_id = world.event.pk
    public, staff = _groups(world)

    async def run():
        socket = await _open(event_id)
        layer = get_channel_layer()
        late = notify.notice(event_id, "test", group=staff)
        await layer.group_send(
            public, {"type": notify.MESSAGE_TYPE, "notice": late, "group": staff}
        )
        await _say(event_id, public)
        heard = await _heard(socket)
        await socket.disconnect()
        return heard

    assert async_to_sync(run)() == [public]
