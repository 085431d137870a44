"""Redis down (the production channel layer): the change still commits and its notice is
lost, logged; a socket that cannot join is closed with 1011 (the page polls); once Redis
is back a new socket hears notices again. Needs redis-server: scripts/test's second pass."""

import contextlib
import logging
import os
import shutil

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from redis.exceptions import RedisError

from arbiter.asgi import application
from live.consumers import UNAVAILABLE
from tests.conftest import SERVICES_PASS
from tests.integration.topology import RedisServer
from tournaments import clock, rounds
from tournaments.models import Round

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
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [server.url], "capacity": 1500, "expiry": 30},
        }
    }
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
        refused = WebsocketCommunicator(application, path)
        await refused.connect()
        closed = await refused.receive_output(timeout=5)
        # Once it has closed the socket, the consumer's own channel still cannot reach
        # Redis: the server logs that, the client has its 1011 already.
        with contextlib.suppress(RedisError):
            await refused.disconnect()
        redis_layer.start()
        socket = WebsocketCommunicator(application, path)
        connected, _ = await socket.connect()
        match = await sync_to_async(world.round.matches.get)(table=1)
        await sync_to_async(clock.grant_extension)(match, 3, "deck check", world.judge)
        heard = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return closed, connected, heard

    closed, connected, heard = async_to_sync(run)()
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.RUNNING  # committed
    assert "live notices not sent" in caplog.text
    assert closed == {"type": "websocket.close", "code": UNAVAILABLE}
    assert connected
    assert heard["type"] == "extension" and heard["table"] == 1 and heard["minutes"] == 3
