"""Backups hear a round close (``tournaments.signals.round_status_changed``) and write."""

from __future__ import annotations

from backups import snapshots
from tournaments import signals
from tournaments.models import Round


def round_status_changed(sender, *, event_id: int, round_number: int, status: str, **kwargs):
    """After a close commits: the event's snapshot and the database (``snapshots``)."""
    if status == Round.Status.CLOSED:
        snapshots.after_round_closed(event_id, round_number)


def connect() -> None:
    """Called once from ``BackupsConfig.ready``."""
    signals.round_status_changed.connect(
        round_status_changed, dispatch_uid="backups.listeners.round_closed"
    )
