"""Telling players' closed phones their seat when a round is paired (Web Push).

``push_pairings`` is called when a round's pairings are published (``push.listeners``
hears ``tournaments.signals.round_paired`` once the pairing has committed); the messages
leave from a Celery task, queued after commit (never for a rolled-back one), so pairing a
round never waits for a push service.
"""

from __future__ import annotations

from django.db import transaction

from push import config
from tournaments.models import Round


def push_pairings(round_: Round) -> None:
    """After commit, send every seated player who has a subscription their seat."""
    if not config.enabled():
        return
    round_id = round_.pk

    def enqueue() -> None:
        from push.tasks import send_pairing_pushes

        send_pairing_pushes.delay(round_id)

    # robust: a broker that is down costs the pushes (logged), never the pairing.
    transaction.on_commit(enqueue, robust=True)
