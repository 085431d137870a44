"""A ruling kept as a precedent: the engine's question and answer with their context,
players' names removed, and the judge's decision on it (issue 35)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _lazy

from judging.models import JudgeCall
from tournaments.models import Event

NEWEST = ("ruled_on", "id")
FILTERS = ("question", "visibility", "event")


class Precedent(models.Model):
    """One ruling as later judges read it. It outlives its call and event (both links are
    kept only while they exist); ``uid`` names it across sites for export and import."""

    class Status(models.TextChoices):
        FOLLOW = "follow", _lazy("Precedent: rule the same way")
        AVOID = "avoid", _lazy("Not to be followed")

    class Decision(models.TextChoices):
        UPHELD = "upheld", _lazy("The judge upheld the engine's ruling")
        OVERTURNED = "overturned", _lazy("The judge overturned the engine's ruling")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _lazy("Everyone (the game's rules page)")
        JUDGES = "judges", _lazy("Judges of any event on this site")

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    call = models.OneToOneField(
        JudgeCall, null=True, blank=True, on_delete=models.SET_NULL, related_name="precedent"
    )
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="precedents"
    )
    event_name = models.CharField(max_length=200, blank=True)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    ruled_on = models.DateField()
    ruled_by = models.CharField(max_length=150, blank=True)
    game = models.CharField(max_length=20)
    question = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    answer = models.JSONField(default=dict)
    asked = models.TextField(blank=True)
    cards = models.JSONField(default=list)
    rules = models.JSONField(default=list)
    decision = models.CharField(max_length=12, choices=Decision.choices)
    note = models.TextField(blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.FOLLOW)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.JUDGES
    )
    appeal = models.TextField(blank=True)
    appeal_upheld = models.BooleanField(null=True, blank=True)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    marked_at = models.DateTimeField(auto_now=True)
    origin = models.CharField(max_length=200, blank=True)  # "" here; else the site it came from
    # The text of each cited rule when the ruling was kept: {citation: text}. A rules file
    # updated since shows as ``review`` {citation: {"old": ..., "new": ...}} until a head
    # judge has read the ruling against the new text (precedents.review).
    rule_texts = models.JSONField(default=dict)
    review = models.JSONField(default=dict, blank=True)
    needs_review = models.BooleanField(default=False, db_index=True)
    # The engine's ruling stood: the judge upheld it and no appeal overturned that. Kept
    # by save() so "upheld first" is an index walk, not a sort of every match.
    stood = models.BooleanField(default=True, editable=False)

    class Meta:
        ordering = ["-ruled_on", "-pk"]
        # Everything a search filters, counts and orders by, in the two orders and with
        # or without a game, so both databases walk an index in order and read whole rows
        # only for the page shown (precedents.search).
        indexes = [
            models.Index(fields=[*NEWEST, "game", *FILTERS, "stood"], name="precedent_newest"),
            models.Index(fields=["stood", *NEWEST, "game", *FILTERS], name="precedent_upheld"),
            models.Index(fields=["game", *NEWEST, *FILTERS, "stood"], name="precedent_game_newest"),
            models.Index(fields=["game", "stood", *NEWEST, *FILTERS], name="precedent_game_upheld"),
        ]

    def __str__(self) -> str:
        return f"{self.game}/{self.question} ({self.ruled_on})"

    def save(self, *args, **kwargs) -> None:
        self.stood = self.ruling_stood()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "stood" not in update_fields:
            kwargs["update_fields"] = [*update_fields, "stood"]
        super().save(*args, **kwargs)

    def ruling_stood(self) -> bool:
        """What ``stood`` holds (bulk_create skips save(): callers of it set it from here)."""
        return self.decision == self.Decision.UPHELD and self.appeal_upheld is not False


class Term(models.Model):
    """A card or rule a precedent is about, in the key a search compares (precedents.index):
    both databases find precedents by card and rule through one indexed lookup."""

    class Kind(models.TextChoices):
        CARD = "card", _lazy("Card")
        RULE = "rule", _lazy("Rule")

    precedent = models.ForeignKey(Precedent, on_delete=models.CASCADE, related_name="terms")
    game = models.CharField(max_length=20)  # the precedent's: the known cards of one game
    kind = models.CharField(max_length=4, choices=Kind.choices)
    value = models.CharField(max_length=200)

    class Meta:
        indexes = [models.Index(fields=["kind", "value", "game"])]
        constraints = [
            models.UniqueConstraint(fields=["precedent", "kind", "value"], name="one_term_each")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.value}"


class KnownCard(models.Model):
    """Every card name a precedent of the game has named (kept when the precedent goes):
    the short list a misspelt name is matched against, read instead of every term."""

    game = models.CharField(max_length=20)
    key = models.CharField(max_length=200)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="one_known_card")]

    def __str__(self) -> str:
        return f"{self.game}: {self.key}"
