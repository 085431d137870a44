"""The webhook tests' receiver: a listener on this machine, reached only because the
settings trust its host:port (OUTBOUND_TRUSTED_PRIVATE, as an operator lists their own)."""

import pytest

from tests.webhooks.receiver import start


@pytest.fixture
def receiver():
    running = start()
    yield running
    running.stop()


@pytest.fixture
def trusted(settings, receiver):
    """The explicit setting that lets the tests' own receiver be reached."""
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{receiver.port}"]
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0
    return receiver
