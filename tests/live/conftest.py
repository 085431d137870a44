"""Fixtures for the live notices: what the services hand the channel layer, on commit."""

from __future__ import annotations

import pytest

from live import notify


class Sent:
    """The (group, notice) pairs handed to the channel layer, in order."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.messages.append((group, message["notice"]))

    def clear(self) -> None:
        self.messages.clear()

    def of_type(self, notice_type: str) -> list[tuple[str, dict]]:
        return [(g, n) for g, n in self.messages if n["type"] == notice_type]

    def summary(self) -> list[tuple[str, str, dict]]:
        """(group, type, the type's own keys): what a test compares, without ``at``."""
        plain = {"type", "event", "at"}
        return [
            (group, body["type"], {k: v for k, v in body.items() if k not in plain})
            for group, body in self.messages
        ]


@pytest.fixture
def sent(monkeypatch) -> Sent:
    """Record what ``live.notify`` delivers instead of handing it to a channel layer."""
    recorder = Sent()
    monkeypatch.setattr(notify, "get_channel_layer", lambda: recorder)
    return recorder
