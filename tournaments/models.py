"""Events, the people attached to them, and their roles."""

from __future__ import annotations

import datetime
import functools
import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from web.local_time import default_zone_name, validate_zone


class Game(models.TextChoices):
    IACTA = "iacta", "Iacta"
    SUPERJACK = "superjack", "Superjack"
    DATACLYSM = "dataclysm", "Dataclysm"


class MatchFormat(models.TextChoices):
    BO1 = "bo1", _lazy("Best of one")
    BO3 = "bo3", _lazy("Best of three")
    BO5 = "bo5", _lazy("Best of five")


class DecklistPolicy(models.TextChoices):
    """What pairing round 1 does about players without a legal submitted decklist."""

    NONE = "none", _lazy("No check: decklists are not asked for before round 1")
    WARN = "warn", _lazy("Warn: pairing round 1 says who has no legal list and asks to confirm")
    REQUIRE = "require", _lazy("Required: players without a legal list are dropped before round 1")


def new_seed() -> int:
    return secrets.randbits(48)


class EventQuerySet(models.QuerySet):
    def visible_to(self, user) -> EventQuerySet:
        """The events ``user`` may see: every one but drafts, and the drafts they organise.

        A draft is its organisers' work in progress (superusers may see everything, as
        they may do everything): every list and page that shows events starts here.
        """
        if user is not None and user.is_authenticated and user.is_superuser:
            return self.all()
        published = ~models.Q(status=Event.Status.DRAFT)
        if user is None or not user.is_authenticated:
            return self.filter(published)
        organises = EventRole.objects.filter(
            event=models.OuterRef("pk"), user=user, role=EventRole.Role.ORGANISER
        )
        return self.filter(published | models.Exists(organises))


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _lazy("Draft")
        REGISTRATION = "registration", _lazy("Open for registration")
        RUNNING = "running", _lazy("Running")
        FINISHED = "finished", _lazy("Finished")

    name = models.CharField(max_length=200)
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.IACTA)
    date = models.DateField(default=timezone.localdate)
    venue = models.CharField(max_length=200, blank=True)
    time_zone = models.CharField(
        max_length=64,
        default=default_zone_name,
        validators=[validate_zone],
        help_text=_lazy(
            "The venue's time zone: clocks, deadlines, slips and logs show its local time."
        ),
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    match_format = models.CharField(
        max_length=3, choices=MatchFormat.choices, default=MatchFormat.BO3
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_lazy("Leave empty to use the number suggested by the field size."),
    )
    top_cut = models.PositiveSmallIntegerField(
        default=0, help_text=_lazy("Players in the single-elimination top cut (0, 2, 4, 8, …).")
    )
    round_minutes = models.PositiveSmallIntegerField(default=50)
    registration_cap = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_lazy("Empty means no cap; players past the cap wait in line."),
    )
    registration_deadline = models.DateTimeField(null=True, blank=True)
    points_win = models.PositiveSmallIntegerField(default=3)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    tiebreakers = models.JSONField(
        default=list, blank=True, help_text=_lazy("Empty: the default order (OMW%, GW%, OGW%).")
    )
    print_paper = models.CharField(
        max_length=6,
        choices=[("A4", "A4"), ("Letter", _lazy("US Letter"))],
        default="A4",
        help_text=_lazy("Paper size for match slips and other printouts."),
    )
    decklists_public = models.CharField(
        max_length=10,
        choices=[
            ("none", _lazy("Private")),
            ("top_cut", _lazy("Top cut only")),
            ("all", _lazy("All")),
        ],
        default="none",
        help_text=_lazy("Decklists stay private to their player and the staff until published."),
    )
    decklist_deadline = models.DateTimeField(
        null=True, blank=True, help_text=_lazy("Empty: decklists can change until round 1 starts.")
    )
    self_check_in_opens = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_lazy(
            "From this time until round 1 is paired, registered players can check "
            "themselves in on the event's page or My match. Empty: only the organiser checks "
            "players in."
        ),
    )
    decklist_policy = models.CharField(
        max_length=10,
        choices=DecklistPolicy.choices,
        default=DecklistPolicy.NONE,
        help_text=_lazy("Whether a legal submitted decklist is needed to be paired in round 1."),
    )
    seed = models.BigIntegerField(
        default=new_seed,
        help_text=_lazy("Seeds every pairing draw, so any pairing can be replayed."),
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="flights",
        help_text=_lazy("The main event this Day 1 flight feeds: its Day 2 and top cut."),
    )
    flight_name = models.CharField(
        max_length=40, blank=True, help_text=_lazy('The flight\'s short name ("A", "Saturday").')
    )
    gate_points = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_lazy("Day 2: every player with at least this many match points after Day 1."),
    )
    gate_top = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_lazy(
            "Day 2: the top this many players of the merged Day 1 standings. With points "
            "too: whichever lets more players through."
        ),
    )
    gate_ties = models.CharField(
        max_length=12,
        choices=[
            ("tiebreakers", _lazy("Tiebreakers decide the last places")),
            ("points", _lazy("Everyone on the last place's points goes through")),
        ],
        default="tiebreakers",
        help_text=_lazy("Who goes through when players tie on points at the top-N boundary."),
    )
    gate_applied_at = models.DateTimeField(null=True, blank=True, editable=False)
    first_round_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_lazy("When round 1 is planned to start: the schedule counts from it."),
    )
    break_minutes = models.PositiveSmallIntegerField(
        default=10, help_text=_lazy("Planned minutes between the end of a round and the next.")
    )
    plan_table = models.CharField(
        max_length=40,
        blank=True,
        help_text=_lazy("The table that recommends rounds and cut; empty: the game's default."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    results_version = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text=_lazy(
            "Moves whenever the standings could: the cached standings are keyed on it."
        ),
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        permissions = [
            (
                "import_published_event",
                "Can import events that are public at once, within the higher import limits",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def save(self, *args, **kwargs) -> None:
        """Saved whole (the admin), every field but ``results_version``: only
        ``tournaments.record.standings.results_changed`` moves it, so a copy read before a result
        cannot put back an older version (and with it standings cached for that one)."""
        if kwargs.get("update_fields") is None and not self._state.adding:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "results_version"
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event", args=[self.pk])

    @property
    def registration_open(self) -> bool:
        if self.status != self.Status.REGISTRATION:
            return False
        return self.registration_deadline is None or timezone.now() < self.registration_deadline


class EventRole(models.Model):
    """A user's staff role in one event: the same user may organise one and judge another."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _lazy("Organiser")
        JUDGE = "judge", _lazy("Judge")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], name="one_role_grant")
        ]
        ordering = ["role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.event.name}"


@functools.cache
def name_columns(through: str) -> tuple[str, ...]:
    """``Registration.NAME_FIELDS`` read through a relation: ``player_a__name``, ..."""
    return tuple(f"{through}__{field}" for field in Registration.NAME_FIELDS)


class Registration(models.Model):
    """A player in an event. Being registered is what makes a user a player there.

    Imported events may hold players without accounts, so the name is kept here.
    """

    class Status(models.TextChoices):
        REGISTERED = "registered", _lazy("Registered")
        WAITLISTED = "waitlisted", _lazy("Waiting list")
        DROPPED = "dropped", _lazy("Dropped")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registrations",
    )
    name = models.CharField(max_length=200, blank=True)
    external_id = models.CharField(
        max_length=64, blank=True, help_text=_lazy("The player's id in an imported event file.")
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in = models.BooleanField(default=False)
    joined_round = models.PositiveSmallIntegerField(
        default=1,
        help_text=_lazy("Late entries join at a later round; earlier rounds count as losses."),
    )
    dropped_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_lazy("Last round played before the drop.")
    )
    disqualified = models.BooleanField(default=False)
    table_pin = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_lazy("Always seat this player at this table (accessibility)."),
    )
    number = models.PositiveIntegerField(
        null=True,
        blank=True,
        editable=False,
        help_text=_lazy(
            "The player's short number in this event (#1, #2, … in registration order)."
        ),
    )
    awarded_byes = models.PositiveSmallIntegerField(
        default=0,
        help_text=_lazy("Byes awarded before round 1 (0-3): a won round each, without a match."),
    )
    carried_from = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="carried_to",
        editable=False,
        help_text=_lazy("The Day 1 flight entry this Day 2 entry carries on."),
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"],
                condition=models.Q(user__isnull=False),
                name="one_registration_per_event",
            ),
            models.UniqueConstraint(fields=["event", "number"], name="one_player_number_per_event"),
        ]
        ordering = ["registered_at", "pk"]

    def __str__(self) -> str:
        return f"{self.display_name} in {self.event.name}"

    def save(self, *args, **kwargs) -> None:
        """A new registration takes the event's next player number. The services that
        create registrations hold the event's row lock, so two cannot take the same one."""
        if self.number is None and self._state.adding:
            taken = Registration.objects.filter(event_id=self.event_id).aggregate(
                top=models.Max("number")
            )["top"]
            self.number = (taken or 0) + 1
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        if self.user_id and not self.name:
            user = self.user
            return Registration.name_shown("", user.first_name, user.last_name, user.username)
        return Registration.name_shown(self.name, number=self.number)

    # The columns name_shown reads, through a match's player (for ``values()``).
    NAME_FIELDS = ("name", "number", "user__first_name", "user__last_name", "user__username")

    @staticmethod
    def name_in(row: Mapping[str, Any], through: str) -> str:
        """:meth:`name_shown` from a ``values()`` row that read :func:`name_columns`."""
        name, number, first, last, username = (row[c] for c in name_columns(through))
        return Registration.name_shown(name, first, last, username, number)

    @staticmethod
    def name_shown(
        name: str,
        first_name: str | None = None,
        last_name: str | None = None,
        username: str | None = None,
        number: int | None = None,
    ) -> str:
        """The one rule for a player's name on pages: the name entered, else the
        account's full name or username, else "Player #n". Pages that read a large
        field as plain values call it with the columns of ``NAME_FIELDS``."""
        if name:
            return name
        if username:
            return f"{first_name or ''} {last_name or ''}".strip() or username
        return f"Player #{number}" if number is not None else "Player "

    @property
    def label(self) -> str:
        """The name a page prints: ``tournaments.record.player_names.tell_apart`` sets it (with
        the player number where two share a name); the display name until then."""
        return self.__dict__.get("_label") or self.display_name

    @label.setter
    def label(self, value: str) -> None:
        self.__dict__["_label"] = value

    @property
    def player_number(self) -> str:
        """What people read for this player when a name is not enough: "#23"."""
        return f"#{self.number}" if self.number is not None else ""

    @property
    def public_id(self) -> str:
        """The id used in pairing files and exports."""
        return Registration.public_id_of(self.external_id, self.pk)

    @staticmethod
    def public_id_of(external_id: str, pk: int) -> str:
        """:attr:`public_id` from plain values: the imported id, else ``r<pk>``."""
        return external_id or f"r{pk}"


class EntryOffer(models.Model):
    """An organiser's offer to link a walk-in entry to an account; its holder decides.

    Until the holder accepts, the entry stays the walk-in's and the organiser learns
    nothing of the account: an offer to a name no account has is kept and reads exactly
    the same (``account`` is empty and nobody is ever shown it). Site staff may link an
    entry directly; that is kept here too, as a ``linked`` offer. Each change is also
    written to the event's log."""

    class State(models.TextChoices):
        PENDING = "pending", _lazy("Waiting for the player")
        ACCEPTED = "accepted", _lazy("Accepted by the player")
        DECLINED = "declined", _lazy("Declined by the player")
        WITHDRAWN = "withdrawn", _lazy("Withdrawn")
        LINKED = "linked", _lazy("Linked by site staff")

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="entry_offers"
    )
    username = models.CharField(max_length=150, help_text=_lazy("As the organiser typed it."))
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="entry_offers",
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    offered_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["registration"],
                condition=models.Q(state="pending"),
                name="one_pending_offer_per_entry",
            )
        ]
        ordering = ["-offered_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.registration} → {self.username} ({self.state})"


class AvoidPair(models.Model):
    """Two players the organiser's policy keeps apart in Swiss (family, teammates):
    the engine avoids the pair as it avoids a rematch."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="avoid_pairs")
    first = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "first", "second"], name="one_avoid_pair"),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="avoid_pair_ordered"
            ),
        ]
        ordering = ["added_at", "pk"]

    def __str__(self) -> str:
        return f"{self.first_id} / {self.second_id} ({self.event_id})"


class Round(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _lazy("Swiss")
        TOP_CUT = "top_cut", _lazy("Top cut")

    class Status(models.TextChoices):
        PAIRED = "paired", _lazy("Paired")
        RUNNING = "running", _lazy("Running")
        CLOSED = "closed", _lazy("Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SWISS)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRED)
    seed = models.BigIntegerField(default=0)
    pairing_stats = models.JSONField(default=dict, blank=True)
    bye_reason = models.TextField(blank=True)
    # The engine's input and output with its proof of optimality, as published on the
    # round's audit page (tournaments.rounds.audit); {} for top cuts and older rounds.
    audit = models.JSONField(default=dict, blank=True)
    paired_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_number")]
        ordering = ["event", "number"]

    def __str__(self) -> str:
        return f"{self.event.name} round {self.number}"

    @property
    def ends_at(self):
        if self.started_at is None:
            return None
        return self.started_at + datetime.timedelta(minutes=self.event.round_minutes)


class Match(models.Model):
    """One table of a round. ``games`` holds each game's winner (a Registration id) or
    None for a drawn game, as the event interchange format does; ``match_games`` reads
    and writes it, and only the result services (``results``, ``penalty_results``)
    change it."""

    class Status(models.TextChoices):
        PENDING = "pending", _lazy("Waiting for a result")
        REPORTED = "reported", _lazy("Reported, waiting for the opponent")
        CONFIRMED = "confirmed", _lazy("Confirmed")
        DISPUTED = "disputed", _lazy("Disputed: judge needed")
        FINAL = "final", _lazy("Entered by staff")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField(null=True, blank=True)
    player_a = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    is_bye = models.BooleanField(default=False)
    games = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    reported_by = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_games = models.JSONField(default=list, blank=True)
    extension_minutes = models.PositiveSmallIntegerField(default=0)
    explanation = models.TextField(blank=True, help_text=_lazy("Why this pairing (pair-downs)."))
    forced_games = models.JSONField(
        default=list,
        blank=True,
        help_text=_lazy(
            "Games decided by penalties: [{game, winner, penalty}], kept over reports."
        ),
    )
    games_in_order = models.BooleanField(
        default=False,
        help_text=_lazy(
            "Whether games lists each game's winner in the order played (a game-by-game "
            "report); otherwise only the score is known, in score order."
        ),
    )

    class Meta:
        ordering = ["round", "table", "pk"]
        verbose_name_plural = _lazy("matches")

    def __str__(self) -> str:
        if self.is_bye:
            return f"{self.round}: bye for {self.player_a.display_name}"
        return f"{self.round} table {self.table}"

    @property
    def has_result(self) -> bool:
        return Match.result_stands(self.is_bye, self.status)

    @staticmethod
    def result_stands(is_bye: bool, status: str) -> bool:
        """The one rule for "this table has its result": a bye, or a confirmed or final
        score (a report waiting for its confirmation does not count yet)."""
        return is_bye or status in (Match.Status.CONFIRMED, Match.Status.FINAL)

    def players(self) -> list[Registration]:
        return [p for p in (self.player_a, self.player_b) if p is not None]


class MatchClaim(models.Model):
    """What a player said about their match's result, kept as they said it.

    A report, a confirmation or a dispute: the judge who settles a dispute reads both
    sides. ``score`` is from the claiming player's side, as typed ("2-1": their wins
    first); a dispute may give none. Written only by the result services.
    """

    class Kind(models.TextChoices):
        REPORT = "report", _lazy("Reported")
        CONFIRM = "confirm", _lazy("Confirmed")
        DISPUTE = "dispute", _lazy("Disputed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="claims")
    player = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    score = models.CharField(max_length=20, blank=True)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.score or '(no score)'} by {self.player_id}"


class TimeExtension(models.Model):
    """Minutes a judge granted one table on top of the round's time (903.1b).

    Never deleted: removing one keeps who removed it and why. ``Match.extension_minutes``
    is the sum of the extensions still standing, kept by ``tournaments.clock.extensions``.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="extensions")
    minutes = models.PositiveSmallIntegerField()
    reason = models.TextField(blank=True)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    granted_at = models.DateTimeField(default=timezone.now)
    call = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_lazy("The judge call that granted it (judging.JudgeCall id)."),
    )
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    removal_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["granted_at", "pk"]

    def __str__(self) -> str:
        return f"+{self.minutes} min at {self.match}"

    @property
    def is_standing(self) -> bool:
        return self.removed_at is None


class ResultChange(models.Model):
    """Every change to a match result: who, when, before and after, and what caused it.

    ``source`` names a cause other than a person's report or entry, such as
    ``penalty:17`` for the penalty whose consequence changed the result.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    reason = models.TextField(blank=True)
    source = models.CharField(
        max_length=40,
        blank=True,
        help_text=_lazy("What caused the change, if not a person: penalty:17."),
    )
    rule = models.CharField(
        max_length=20, blank=True, help_text=_lazy("The rule behind a penalty's change: 905.1.")
    )

    class Meta:
        ordering = ["changed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.action} of {self.match} by {self.changed_by}"


def with_result_versions(matches: models.QuerySet[Match]) -> models.QuerySet[Match]:
    """``matches`` with each one's result version (``results.result_version``: the id of
    its latest ``ResultChange``, 0 if none) read in the same query."""
    latest = ResultChange.objects.filter(match=models.OuterRef("pk")).order_by("-pk")
    return matches.annotate(latest_change_id=Coalesce(models.Subquery(latest.values("pk")[:1]), 0))


class EventLog(models.Model):
    """Organiser actions that change pairings or entries, with the reason given."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=30)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    # What the dashboard's log says for each action code (the codes stay in the data,
    # the API and exports; people read these, in their language).
    WORDS = {
        "pair": _lazy("paired the round"),
        "repair": _lazy("paired the round again"),
        "swap": _lazy("swapped two players' seats"),
        "start": _lazy("started the round"),
        "close": _lazy("closed the round"),
        "top_cut": _lazy("started the top cut"),
        "top_cut_round": _lazy("paired the next round of the top cut"),
        "finish": _lazy("finished the event"),
        "edit": _lazy("edited the event"),
        "plan": _lazy("accepted the plan for the field"),
        "check_in": _lazy("checked players in"),
        "drop": _lazy("dropped a player"),
        "late_entry": _lazy("added a late entry"),
        "pin": _lazy("pinned a player to a table"),
        "import": _lazy("imported the event"),
        "decklist_reminder": _lazy("sent decklist reminders"),
        "unlock_decklist": _lazy("unlocked a decklist"),
        "time_extension": _lazy("granted a time extension"),
        "time_extension_removed": _lazy("removed a time extension"),
        "game_loss": _lazy("applied a game loss"),
        "undo_game_loss": _lazy("undid a game loss"),
        "match_loss": _lazy("applied a match loss"),
        "undo_match_loss": _lazy("undid a match loss"),
        "reinstate": _lazy("reinstated a player"),
        "merge_walk_in": _lazy("merged a walk-in entry into an account"),
        "entry_offered": _lazy("offered a walk-in entry to an account"),
        "entry_offer_accepted": _lazy("accepted the offer of a walk-in entry"),
        "entry_offer_declined": _lazy("declined the offer of a walk-in entry"),
        "entry_offer_withdrawn": _lazy("withdrew the offer of a walk-in entry"),
        "merge_accounts": _lazy("moved an entry to the player's other account"),
        "avoid_pair_added": _lazy("kept two players apart in Swiss"),
        "avoid_pair_removed": _lazy("let two players kept apart meet again"),
        "precedent": _lazy("kept a ruling as a precedent"),
        "precedent_appeal": _lazy("recorded the appeal of a precedent"),
        "precedent_review": _lazy("reviewed a precedent against a changed rules text"),
        "metagame": _lazy("changed how the metagame names and groups archetypes"),
    }

    def __str__(self) -> str:
        return f"{self.event.name}: {self.action}"

    @property
    def words(self) -> str:
        """The action as a person reads it ("closed the round"), the code if it is new."""
        if self.action == "drop" and self.data.get("disqualified"):
            return _("disqualified a player")
        if self.action == "merge_walk_in" and self.data.get("consent") == "staff":
            return _("linked a walk-in entry to an account (site staff)")
        return str(self.WORDS.get(self.action, self.action.replace("_", " ")))


class AnsweredRequest(models.Model):
    """A write answered once: a retry carrying the same key gets this answer, writes nothing.

    ``key`` is the caller's (an ``Idempotency-Key`` header, or the one-time token a form
    was rendered with); ``fingerprint`` is what the request was for (method, path and
    body), so a key reused for another request is refused. Written in the transaction of
    the write it answers; rows older than a day are swept as new ones come
    (``tournaments.once``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(default=0)
    answer = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_answer_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"
