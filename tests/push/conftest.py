"""The push tests' VAPID keys, their local push service (allow-listed and trusted to be on
loopback, as an operator lists a self-hosted one) and the listener nothing may reach."""

import pytest
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid

from tests.push.pushservice import Listener, b64url, start


@pytest.fixture
def vapid(settings):
    """A fresh VAPID key pair in the settings (push is on), made with py_vapid."""
    key = Vapid()
    key.generate_keys()
    public = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.WEBPUSH_VAPID_PUBLIC_KEY = b64url(public)
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64url(private)
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:to@example.org"
    return settings.WEBPUSH_VAPID_PUBLIC_KEY


def trust_local(settings, *ports: int) -> None:
    """Allow-list 127.0.0.1 as a push service and trust it on these ports (plain http)."""
    settings.WEBPUSH_ALLOWED_HOSTS = [*settings.WEBPUSH_ALLOWED_HOSTS, "127.0.0.1"]
    settings.OUTBOUND_TRUSTED_PRIVATE = [
        *settings.OUTBOUND_TRUSTED_PRIVATE,
        *(f"127.0.0.1:{port}" for port in ports),
    ]


@pytest.fixture
def service(settings):
    """The local push service, listed by the settings as an operator's own one."""
    running = start()
    trust_local(settings, running.port)
    yield running
    running.server.shutdown()
    running.server.server_close()


@pytest.fixture
def listener():
    running = Listener()
    yield running
    running.close()
