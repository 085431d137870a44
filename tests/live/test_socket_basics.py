"""The socket's handshake and audiences (live-updates.md, Transport)."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from arbiter.asgi import application
from live import notify
from live.consumers import REFUSED
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


def _connect(event_id: int, headers=None):
    async def run():
        socket = WebsocketCommunicator(application, f"/ws/events/{event_id}/", headers=headers)
        connected, _ = await socket.connect()
        closed = await socket.receive_output(timeout=1) if connected else None
        await socket.disconnect()
        return connected, closed

    return async_to_sync(run)()


def test_a_draft_event_closes_the_socket_with_4403(make_world):
    world = make_world(4)
    Event.objects.filter(pk=world.event.pk).update(status=Event.Status.DRAFT)
    _, closed = _connect(world.event.pk)
    assert closed == {"type": "websocket.close", "code": REFUSED}


def test_a_public_notice_reaches_an_anonymous_follower(make_world):
    world = make_world(4)

    async def run():
        socket = WebsocketCommunicator(application, f"/ws/events/{world.event.pk}/")
        connected, _ = await socket.connect()
        assert connected
        layer_batch = [
            (notify.public_group(world.event.pk), notify.notice(world.event.pk, "round", round=1))
        ]
        await notify._send_all(get_channel_layer(), layer_batch)
        got = await socket.receive_json_from(timeout=1)
        await socket.disconnect()
        return got

    got = async_to_sync(run)()
    assert got["type"] == "round" and got["event"] == world.event.pk and got["round"] == 1


def test_another_sites_page_may_not_open_the_socket(make_world):
    world = make_world(4)
    connected, _ = _connect(world.event.pk, headers=[(b"origin", b"https://evil.example")])
    assert not connected
