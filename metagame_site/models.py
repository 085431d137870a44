"""What the organiser decided about an event's archetypes; the archetypes themselves
are computed (``Decklist.archetype`` for Iacta, clusters for the other games)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _lazy

from tournaments.models import Event


class MetagameSettings(models.Model):
    """One per event that has any: names, merges and moved decks, and the sharing rule.

    ``overrides`` is ``metagame.archetypes.Overrides`` as JSON (``names``, ``merge``,
    ``move`` by registration id). ``version`` moves with every change, so a cached
    report of the old names is never read again.
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="metagame")
    overrides = models.JSONField(default=dict, blank=True)
    shares_after_event = models.BooleanField(
        default=False,
        help_text=_lazy(
            "With decklists private: show the archetypes' shares (nothing else) once the "
            "event is finished."
        ),
    )
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Metagame settings of {self.event_id}"
