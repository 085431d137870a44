"""Card pools per game, decklists with sideboards, and deck checks."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import pgettext_lazy

from tournaments.models import Event, Game, Match, Registration, Round


def name_key(name: str) -> str:
    """Names match ignoring case and surrounding spaces (card-pools.md)."""
    return " ".join(name.split()).casefold()


class Card(models.Model):
    """One card of a game's pool; its text is the latest revision (101.4).

    The labels of its game terms (tier, class, speed, type) have the context "card":
    "Event" is an Iacta card class here, not a tournament; "Settings" a Dataclysm type.
    """

    class Tier(models.TextChoices):
        MAJOR = "major", pgettext_lazy("card", "Major")
        MINOR = "minor", pgettext_lazy("card", "Minor")
        NEUTRAL = "neutral", pgettext_lazy("card", "Neutral")

    class CardClass(models.TextChoices):
        EVENT = "event", pgettext_lazy("card", "Event")
        PERPETUAL = "perpetual", pgettext_lazy("card", "Perpetual")
        TRAP = "trap", pgettext_lazy("card", "Trap")

    class Speed(models.TextChoices):
        FAST = "fast", pgettext_lazy("card", "Fast")
        SLOW = "slow", pgettext_lazy("card", "Slow")

    class CardType(models.TextChoices):
        TROOP = "troop", pgettext_lazy("card", "Troop")
        CHEAT = "cheat", pgettext_lazy("card", "Cheat")
        METHOD = "method", pgettext_lazy("card", "Method")
        SETTINGS = "settings", pgettext_lazy("card", "Settings")

    game = models.CharField(max_length=20, choices=Game.choices)
    name = models.CharField(max_length=200)
    key = models.CharField(max_length=200, editable=False)
    text = models.TextField(blank=True)
    # Iacta
    syndicate = models.CharField(max_length=12, blank=True)
    tier = models.CharField(max_length=10, choices=Tier.choices, blank=True)
    card_class = models.CharField(max_length=10, choices=CardClass.choices, blank=True)
    speed = models.CharField(max_length=5, choices=Speed.choices, blank=True)
    cost = models.CharField(
        max_length=100, blank=True, help_text=_lazy("Dice cost symbols, e.g. 4+ ODD")
    )
    max_copies = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_lazy("Overrides the four-copy limit (201.1).")
    )
    # Dataclysm
    card_type = models.CharField(max_length=10, choices=CardType.choices, blank=True)
    subtypes = models.CharField(max_length=200, blank=True)
    gpu = models.BooleanField(default=False)
    atk = models.IntegerField(null=True, blank=True)
    hp = models.IntegerField(null=True, blank=True)
    demo = models.BooleanField(
        default=False, help_text=_lazy("Part of the demo pool, not real cards.")
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="one_card_name")]
        ordering = ["game", "name"]
        # The pool is every event's: only this grant changes it (decks.cardpool.EDITORS_GROUP).
        permissions = [("edit_card_pool", "Can change the card pool every event shares")]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_display()})"

    def save(self, *args, **kwargs) -> None:
        self.key = name_key(self.name)
        super().save(*args, **kwargs)


class CardPoolImport(models.Model):
    """One import that changed a game's pool: who made it, when, from which file, and counts.

    Written in the same transaction as the cards it changed, so every change of the
    shared pool has an author on record (None: the command run without ``--user``).
    """

    game = models.CharField(max_length=20, choices=Game.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_lazy(
            "Who imported; empty for the command run without --user and the demo pools."
        ),
    )
    created_at = models.DateTimeField(default=timezone.now)
    filename = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=200, blank=True)
    created = models.PositiveIntegerField(default=0)
    updated = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(
        default=0, help_text=_lazy("Rows with problems, not imported.")
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} import {self.filename or self.source}"

    def summary(self) -> str:
        """``1 created, 1 updated, 1 unchanged, 1 skipped``, as the import history lists it."""
        return _(
            "%(created)s created, %(updated)s updated, %(unchanged)s unchanged, %(skipped)s skipped"
        ) % {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": self.skipped,
        }


# The card fields an import may change, in the order a revision lists them, with the
# words the card page uses for them.
REVISED_FIELDS: dict[str, str] = {
    "name": _lazy("Name"),
    "syndicate": _lazy("Syndicate"),
    "tier": _lazy("Tier"),
    "card_class": _lazy("Class"),
    "speed": _lazy("Speed"),
    "cost": _lazy("Dice cost"),
    "max_copies": _lazy("Copies allowed"),
    "card_type": _lazy("Type"),
    "subtypes": _lazy("Subtypes"),
    "gpu": "GPU",
    "atk": "ATK",
    "hp": "HP",
    "text": _lazy("Text"),
    "demo": _lazy("Demo card"),
}


class CardRevision(models.Model):
    """A card as it was before one import changed it: its earlier text and cost (101.4),
    and in ``changes`` every field that import changed, as ``{field: [before, after]}``."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="revisions")
    pool_import = models.ForeignKey(
        CardPoolImport,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="revisions",
        help_text=_lazy(
            "The import that made this change; empty for rows from before imports were kept."
        ),
    )
    changes = models.JSONField(
        default=dict,
        blank=True,
        help_text=_lazy(
            '{"max_copies": [4, 99]}: each changed field, before and after; '
            "empty for rows from before changes were kept (they changed the text or cost)."
        ),
    )
    text = models.TextField(blank=True)
    cost = models.CharField(max_length=100, blank=True)
    replaced_at = models.DateTimeField(default=timezone.now)
    source = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_lazy(
            "Whose import replaced this text; empty for older rows and the command "
            "run without --user."
        ),
    )

    class Meta:
        ordering = ["-replaced_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.card.name} before {self.replaced_at:%Y-%m-%d}"

    def changed_list(self) -> list[str]:
        """``Copies allowed: 4 → 99`` per changed field; a text is too long for a line, so
        it is named only (the earlier text is shown whole beside it)."""
        shown = []
        for name, label in REVISED_FIELDS.items():
            if name == "text" and name in self.changes:
                shown.append(_("Text (the earlier one is beside)"))
            elif name in self.changes:
                before, after = self.changes[name]
                shown.append(f"{label}: {_shown(before)} → {_shown(after)}")
        return shown

    @property
    def text_changed(self) -> bool:
        """Older rows without ``changes`` were kept only for a new text or cost: show both."""
        return not self.changes or "text" in self.changes

    @property
    def cost_changed(self) -> bool:
        return not self.changes or "cost" in self.changes


def _shown(value: object) -> str:
    """A stored value as the card page says it: no value is a dash, a flag is yes or no."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


class Decklist(models.Model):
    """A player's registered deck and sideboard for one event."""

    class Status(models.TextChoices):
        DRAFT = "draft", _lazy("Draft")
        SUBMITTED = "submitted", _lazy("Submitted")

    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="decklist"
    )
    main = models.JSONField(default=list, help_text=_lazy('[{"name": ..., "count": ...}]'))
    sideboard = models.JSONField(default=list)
    raw_text = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    legal = models.BooleanField(default=False)
    violations = models.JSONField(default=list, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # What the deck is (issue 36), computed when the list is submitted: for Iacta its
    # Major Syndicate and Splash Syndicate ("EMB/VOX", rule 202). Games whose rules give no
    # grouping are grouped by shared cards when the metagame is read; "" until then.
    archetype = models.CharField(max_length=60, blank=True)
    unlocked = models.BooleanField(
        default=False, help_text=_lazy("An organiser reopened it after round 1 started.")
    )
    draft_text = models.TextField(
        blank=True,
        help_text=_lazy("A newer list refused for submission while this one stays submitted."),
    )

    def __str__(self) -> str:
        return f"Decklist of {self.registration.display_name}"

    @property
    def editor_text(self) -> str:
        """What the player's editor shows: their newest typed list."""
        return self.draft_text or self.raw_text

    @property
    def main_count(self) -> int:
        return sum(entry["count"] for entry in self.main)

    @property
    def sideboard_count(self) -> int:
        return sum(entry["count"] for entry in self.sideboard)


class DeckCheck(models.Model):
    """What a player presented at a deck check, and how it differs from the registration."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deck_checks")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL)
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="deck_checks"
    )
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    checked_at = models.DateTimeField(default=timezone.now)
    presented_main = models.JSONField(default=list)
    presented_sideboard = models.JSONField(default=list)
    differences = models.JSONField(default=list)
    penalty = models.ForeignKey(
        "judging.Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-checked_at", "-pk"]

    def __str__(self) -> str:
        return f"Deck check of {self.registration.display_name}"
