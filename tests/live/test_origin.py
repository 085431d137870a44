"""The socket's Origin check compares scheme, host and port with the site's own origins
(live/origin.py): the address the upgrade was sent to (a Host of ALLOWED_HOSTS; http for
ws, https for wss or behind a TLS proxy) and CSRF_TRUSTED_ORIGINS."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from arbiter.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def site(settings):
    settings.ALLOWED_HOSTS = ["localhost", "arbiter.example.org", "192.168.1.20"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://live.example.net", "https://*.example.com"]


def _opens(event_id: int, origin: str, host: str, scheme: str = "ws", forwarded=None) -> bool:
    headers = [(b"host", host.encode()), (b"origin", origin.encode())]
    if forwarded is not None:
        headers.append((b"x-forwarded-proto", forwarded.encode()))

    async def run():
        socket = WebsocketCommunicator(application, f"/ws/events/{event_id}/", headers=headers)
        socket.scope["scheme"] = scheme  # before the application first runs
        connected, _ = await socket.connect()
        await socket.disconnect()
        return connected

    return async_to_sync(run)()


@pytest.mark.parametrize(
    "origin, host, scheme, forwarded",
    [
        ("http://localhost:8000", "localhost:8000", "ws", None),
        ("https://arbiter.example.org", "arbiter.example.org", "wss", None),
        ("https://arbiter.example.org", "arbiter.example.org", "ws", "https"),  # TLS proxy
        ("http://192.168.1.20:8000", "192.168.1.20:8000", "ws", None),  # venue mode
        ("https://live.example.net", "arbiter.example.org", "wss", None),  # trusted origin
        ("https://hall.example.com", "arbiter.example.org", "wss", None),  # trusted subdomain
        ("http://localhost:80", "localhost", "ws", None),  # the default port, written out
    ],
)
def test_the_sites_own_origins_open_the_socket(make_world, origin, host, scheme, forwarded):
    world = make_world(2)
    assert _opens(world.event.pk, origin, host, scheme, forwarded)


@pytest.mark.parametrize(
    "origin, host, scheme, forwarded",
    [
        ("http://localhost:9999", "localhost:8000", "ws", None),  # another port
        ("http://localhost", "localhost:8000", "ws", None),
        ("https://localhost:8000", "localhost:8000", "ws", None),  # another scheme
        ("http://arbiter.example.org", "arbiter.example.org", "wss", None),
        ("http://arbiter.example.org", "arbiter.example.org", "ws", "https"),
        ("https://arbiter.example.org:8443", "arbiter.example.org", "wss", None),
        ("http://evil.example:8000", "evil.example:8000", "ws", None),  # not an allowed host
        ("http://live.example.net", "arbiter.example.org", "ws", None),  # trusted as https only
        ("https://live.example.net:444", "arbiter.example.org", "wss", None),
        ("https://evil.example", "arbiter.example.org", "wss", None),
        ("null", "localhost:8000", "ws", None),
    ],
)
def test_any_other_origin_is_refused(make_world, origin, host, scheme, forwarded):
    world = make_world(2)
    assert not _opens(world.event.pk, origin, host, scheme, forwarded)
