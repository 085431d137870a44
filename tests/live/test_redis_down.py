"""Redis down (the production channel layer): the change still commits and its notice is
lost, logged; a socket that cannot join is closed with 1011 (the page polls); once Redis
is back a new socket hears notices again. Needs redis-server: scripts/test's second pass."""

import logging
import os
import shutil

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator

from arbiter.asgi import application
from arbiter.env import channel_layers
from live.consumers import UNAVAILABLE
from tests.conftest import SERVICES_PASS
from tests.integration.topology import RedisServer
from tournaments.clock import extensions as clock
from tournaments.models import Round
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def redis_layer(tmp_path, settings):
    """A private redis-server as the channel layer (channels-redis), stoppable."""
    if not SERVICES_PASS:
        pytest.skip("needs redis-server: runs in scripts/test's second pass")
    if shutil.which("redis-server") is None:
        if os.environ.get("ARBITER_REQUIRE_SERVICES") == "1":
            pytest.fail("redis-server is not installed")
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path)
    server.start()
    # The layer exactly as production configures it (publish/subscribe, arbiter/env.py).
    settings.CHANNEL_LAYERS = channel_layers({"REDIS_URL": server.url})
    yield server
    server.stop()


def test_notices_pause_while_redis_is_down_and_resume_when_it_is_back(
    make_world, redis_layer, caplog
):
    world = make_world(4)
    path = f"/ws/events/{world.event.pk}/"

    async def run():
        redis_layer.stop()
        with caplog.at_level(logging.WARNING, logger="live.notify"):
            await sync_to_async(rounds.start_round)(world.round, world.organiser)
        lost = "live notices not sent" in caplog.text
        with caplog.at_level(logging.INFO):
            caplog.clear()
            refused = WebsocketCommunicator(application, path)
            await refused.connect()
            closed = await refused.receive_output(timeout=5)
            await refused.disconnect()
            said = list(caplog.records)
        redis_layer.start()
        socket = WebsocketCommunicator(application, path)
        connected, _ = await socket.connect()
        match = await sync_to_async(world.round.matches.get)(table=1)
        await sync_to_async(clock.grant_extension)(match, 3, "deck check", world.judge)
        heard = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return lost, closed, said, connected, heard

    lost, closed, said, connected, heard = async_to_sync(run)()
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.RUNNING  # committed
    assert lost
    assert closed == {"type": "websocket.close", "code": UNAVAILABLE}
    # One warning line for the refused socket, and no traceback anywhere.
    warnings = [r for r in said if r.levelno >= logging.WARNING]
    assert [r.name for r in warnings] == ["live.consumers"], [r.getMessage() for r in said]
    assert not any(r.exc_info for r in said)
    assert connected
    assert heard["type"] == "extension" and heard["table"] == 1 and heard["minutes"] == 3
