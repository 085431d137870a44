"""Penalties, judge calls and the rulings and time extensions they lead to."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import gettext_noop

from rules_engine.tournament import every_infraction, rules_for
from tournaments.models import Event, Match, Registration, Round

# Each infraction's name in English, as the logs keep it (a result change's reason);
# ``infraction_label`` gives it in the reader's language (gettext_noop: the catalogue
# holds every name, the table stays English).
INFRACTION_LABELS = {
    "slow_play": gettext_noop("Slow Play Warning"),
    "rule_violation": gettext_noop("Rule Violation Warning"),
    "unsporting_conduct_warning": gettext_noop("Unsporting Conduct Warning"),
    "sleeves_not_replaced": gettext_noop("Sleeves not replaced"),
    "hate_symbols": gettext_noop("Hate symbols"),
    "illegal_deck": gettext_noop("Illegal deck"),
    "stalling": gettext_noop("Stalling"),
    "abusive_language": gettext_noop("Abusive language"),
    "assault": gettext_noop("Assault"),
    "cheating": gettext_noop("Cheating"),
    "theft_or_damage": gettext_noop("Theft or damage"),
    "refused_acknowledgement": gettext_noop("Refused acknowledgement"),
    "hygiene_not_remedied": gettext_noop("Hygiene not remedied"),
    "hidden_trigger": gettext_noop("Hidden trigger"),
}


def infraction_label(infraction: str) -> str:
    """The infraction's name for people, in their language; an unknown code as itself."""
    label = INFRACTION_LABELS.get(infraction)
    return _(label) if label is not None else infraction


def _choice(key: str, rule: str) -> tuple[str, object]:
    """One choice: the name (translated when shown) and its rule, "Slow Play Warning (904.4)"."""
    if key in INFRACTION_LABELS:
        return (key, format_lazy("{} ({})", _lazy(INFRACTION_LABELS[key]), rule))
    return (key, f"{key} ({rule})")


def infraction_choices(game: str) -> list[tuple[str, object]]:
    """The infractions a judge may choose at an event of ``game``: its rules package's."""
    return [_choice(key, rule) for key, (rule, _leads) in rules_for(game).infractions.items()]


# What a penalty record may hold: every game's infractions (the form offers the event's).
INFRACTION_CHOICES = [_choice(key, rule) for key, rule in every_infraction().items()]


class Penalty(models.Model):
    """A penalty as issued. Never edited or deleted: a correction voids it, with a reason."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties"
    )
    player = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="penalties")
    game = models.PositiveSmallIntegerField(default=1)
    infraction = models.CharField(max_length=40, choices=INFRACTION_CHOICES)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    issued_at = models.DateTimeField(default=timezone.now)
    notes = models.TextField(blank=True)
    consequences = models.JSONField(
        default=list,
        blank=True,
        help_text=_lazy(
            "What this penalty causes now (game/match loss, disqualification), each "
            "with what it changed so it can be reversed."
        ),
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    void_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["issued_at", "pk"]
        verbose_name_plural = _lazy("penalties")
        indexes = [models.Index(fields=["event", "player"])]

    def __str__(self) -> str:
        return _("%(infraction)s for %(player)s") % {
            "infraction": self.get_infraction_display(),
            "player": self.player.display_name,
        }

    @property
    def rule(self) -> str:
        """The rule the infraction is issued under, in the rules the event's game follows."""
        return rules_for(self.event.game).rule_of(self.infraction)

    @property
    def is_void(self) -> bool:
        return self.voided_at is not None


class JudgeCall(models.Model):
    """A judge call at a table: the question, the answer, and the minutes it took."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_calls")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="judge_calls"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="judge_calls"
    )
    table = models.PositiveIntegerField(null=True, blank=True)
    called_at = models.DateTimeField(default=timezone.now)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    question = models.TextField()
    resolution = models.TextField(blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    extension_minutes = models.PositiveSmallIntegerField(
        default=0, help_text=_lazy("Minutes granted to the match as a time extension (903.1b).")
    )
    ruling_game = models.CharField(max_length=20, blank=True)
    ruling_question = models.CharField(max_length=40, blank=True)
    ruling_payload = models.JSONField(null=True, blank=True)
    ruling_answer = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-called_at", "-pk"]

    def __str__(self) -> str:
        return _("Call at table %(table)s (%(event)s)") % {
            "table": self.table or "—",
            "event": self.event.name,
        }

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None


class HistoryLook(models.Model):
    """Someone other than the player read their cross-event penalty history (issue 28):
    who looked, whose history, through which event (empty for site staff), and when.
    Site staff read these in the admin; nobody edits them."""

    viewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="history_looks"
    )
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    as_site_staff = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.viewer} → {self.player} ({self.at:%Y-%m-%d %H:%M})"


# --- the judge roster (issue 33): roles, teams and zones of tables ----------------------


class JudgeAssignment(models.Model):
    """A judge's place in the event's team: their role, their team and their zone.

    One per judge and event; the judge must hold the judge (or organiser) role there
    (``judging.roster`` checks it). No zone: the judge covers no section in particular.
    """

    class Role(models.TextChoices):
        HEAD = "head", _lazy("Head judge")
        LEAD = "lead", _lazy("Team lead")
        FLOOR = "floor", _lazy("Floor judge")

    class Team(models.TextChoices):
        NONE = "", _lazy("No team")
        DECK_CHECKS = "deck_checks", _lazy("Deck checks")
        END_OF_ROUND = "end_of_round", _lazy("End of round")
        PAPER = "paper", _lazy("Paper")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_roster")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.FLOOR)
    team = models.CharField(max_length=20, choices=Team.choices, default="", blank=True)
    zone = models.ForeignKey(
        "Zone", null=True, blank=True, on_delete=models.SET_NULL, related_name="assignments"
    )

    class Meta:
        ordering = ["role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="one_roster_place_per_judge")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.event_id})"


class Zone(models.Model):
    """A section of the hall: the tables from ``first_table`` to ``last_table``, both in."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_zones")
    name = models.CharField(max_length=40)
    first_table = models.PositiveIntegerField()
    last_table = models.PositiveIntegerField()

    class Meta:
        ordering = ["first_table", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="one_zone_name_per_event")
        ]

    def __str__(self) -> str:
        return _("Zone %(name)s (tables %(first)s to %(last)s)") % {
            "name": self.name,
            "first": self.first_table,
            "last": self.last_table,
        }

    def holds(self, table: int | None) -> bool:
        return table is not None and self.first_table <= table <= self.last_table


class JudgeAlert(models.Model):
    """A judge call or a dispute as it was sent to the judges: first to its zone's judges
    (``first_to``), to every judge of the event once ``due_at`` passes unanswered.

    ``due_at`` is empty when it went to everyone at once (no zone, or no judge in it);
    ``escalated_at`` is set once, by whichever escalation comes first (idempotent)."""

    class Kind(models.TextChoices):
        CALL = "call", _lazy("Judge call")
        DISPUTE = "dispute", _lazy("Disputed result")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_alerts")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    call = models.ForeignKey(
        JudgeCall, null=True, blank=True, on_delete=models.CASCADE, related_name="alerts"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="judge_alerts"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveIntegerField(null=True, blank=True)
    zone = models.ForeignKey(
        Zone, null=True, blank=True, on_delete=models.SET_NULL, related_name="alerts"
    )
    first_to = models.JSONField(default=list, blank=True)
    raised_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField(null=True, blank=True)
    escalated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-raised_at", "-pk"]
        indexes = [models.Index(fields=["escalated_at", "due_at"])]

    def __str__(self) -> str:
        return f"{self.kind} at table {self.table or '—'} ({self.event_id})"

    @property
    def to_everyone(self) -> bool:
        """Every judge has it: sent so at once, or escalated since."""
        return self.due_at is None or self.escalated_at is not None


class DeckCheckPick(models.Model):
    """The tables chosen at random for deck checks in a round: drawn once, with its seed,
    so every judge of the deck-check team sees the same tables."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deck_check_picks")
    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="deck_check_pick")
    seed = models.BigIntegerField()
    tables = models.JSONField(default=list)
    picked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    picked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-picked_at", "-pk"]

    def __str__(self) -> str:
        return f"deck checks, round {self.round_id}: {self.tables}"
