"""Web Push hears a round's pairings (``tournaments.signals.round_paired``) and queues
each subscribed player's seat (``push.announce``)."""

from __future__ import annotations

from push.announce import push_pairings
from tournaments import signals
from tournaments.models import Round


def round_paired(sender, *, round_id: int, **kwargs) -> None:
    """Any new seats, the round's first pairing, a re-pair or a swap: the phones hear."""
    push_pairings(Round.objects.get(pk=round_id))


def connect() -> None:
    """Called once from ``PushConfig.ready``."""
    signals.round_paired.connect(round_paired, dispatch_uid="push.listeners.round_paired")
