"""Series: events grouped into a season or a circuit, and how their results add up.

The rule itself (points per event, best N, tiebreakers) is ``pairing.series``; a series
row stores its settings, and ``series.standings`` reads the events' placings into it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _lazy

from pairing.series import DEFAULT_TIEBREAKERS, METHODS, SeriesRule
from tournaments.models import Event


class Series(models.Model):
    class Method(models.TextChoices):
        MATCH_POINTS = "match_points", _lazy("Match points")
        PLACINGS = "placings", _lazy("Points per final place")

    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, max_length=2000)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="series_organised"
    )
    method = models.CharField(max_length=20, choices=Method.choices, default=Method.PLACINGS)
    placing_points = models.JSONField(
        default=list, blank=True, help_text=_lazy("Points for 1st, 2nd, 3rd… place, best first.")
    )
    participation = models.PositiveSmallIntegerField(
        default=0, help_text=_lazy("Points for every event a player takes part in.")
    )
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_lazy("Count each player's best N events; empty: all.")
    )
    tiebreakers = models.JSONField(default=list, blank=True)
    events = models.ManyToManyField(Event, through="SeriesEvent", related_name="series")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "pk"]
        verbose_name_plural = _lazy("series")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series:detail", args=[self.pk])

    @property
    def rule(self) -> SeriesRule:
        return SeriesRule(
            method=self.method if self.method in METHODS else "match_points",
            placing_points=tuple(self.placing_points or ()),
            participation=self.participation,
            best_of=self.best_of,
            tiebreakers=tuple(self.tiebreakers or DEFAULT_TIEBREAKERS),
        )


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="series_entries")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="an_event_joins_a_series_once")
        ]

    def __str__(self) -> str:
        return f"{self.event} in {self.series}"


class SeriesLog(models.Model):
    """What changed a series' standings: its rule, its events, a walk-in merged."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=30)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    WORDS = {
        "create": _lazy("created the series"),
        "edit": _lazy("changed how points are counted"),
        "add_event": _lazy("added an event"),
        "remove_event": _lazy("removed an event"),
        "merge": _lazy("merged a walk-in entry into an account"),
        "offer": _lazy("offered a walk-in entry to an account"),
    }

    def __str__(self) -> str:
        return f"{self.series}: {self.action}"

    @property
    def words(self) -> str:
        words = self.WORDS.get(self.action)
        return str(words) if words is not None else self.action
