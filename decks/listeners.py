"""Decks hear the gate to Day 2 (``tournaments.signals.gate_applied``): each player let
through keeps the decklist they registered for Day 1, so Day 2's deck checks, published
lists and the metagame read the same deck."""

from __future__ import annotations

from django.db import transaction

from decks.models import Decklist
from tournaments import signals
from tournaments.models import Registration

COPIED = (
    "main",
    "sideboard",
    "raw_text",
    "status",
    "legal",
    "violations",
    "submitted_at",
    "draft_text",
)


@transaction.atomic
def carry_decklists(event_id: int) -> int:
    """Copy each carried player's Day 1 list onto their Day 2 entry; returns how many."""
    carried = dict(
        Registration.objects.filter(
            event_id=event_id, carried_from__isnull=False, decklist__isnull=True
        ).values_list("carried_from_id", "pk")
    )
    lists = Decklist.objects.filter(registration_id__in=list(carried))
    Decklist.objects.bulk_create(
        Decklist(
            registration_id=carried[deck.registration_id],
            **{name: getattr(deck, name) for name in COPIED},
        )
        for deck in lists
    )
    return len(lists)


def gate_applied(sender, *, event_id: int, **kwargs) -> None:
    carry_decklists(event_id)


def connect() -> None:
    """Called once from ``DecksConfig.ready``."""
    signals.gate_applied.connect(gate_applied, dispatch_uid="decks.listeners.gate_applied")
