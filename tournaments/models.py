"""Events, the people attached to them, and their roles."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone


class Game(models.TextChoices):
    IACTA = "iacta", "Iacta"
    SUPERJACK = "superjack", "Superjack"
    DATACLYSM = "dataclysm", "Dataclysm"


class MatchFormat(models.TextChoices):
    BO1 = "bo1", "Best of one"
    BO3 = "bo3", "Best of three"
    BO5 = "bo5", "Best of five"


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Open for registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=200)
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.IACTA)
    date = models.DateField(default=timezone.localdate)
    venue = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    match_format = models.CharField(
        max_length=3, choices=MatchFormat.choices, default=MatchFormat.BO3
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Leave empty to use the number suggested by the field size.",
    )
    top_cut = models.PositiveSmallIntegerField(
        default=0, help_text="Players in the single-elimination top cut (0, 2, 4, 8, …)."
    )
    round_minutes = models.PositiveSmallIntegerField(default=50)
    registration_cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="Empty means no cap; players past the cap wait in line."
    )
    registration_deadline = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

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
        ORGANISER = "organiser", "Organiser"
        JUDGE = "judge", "Judge"

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


class Registration(models.Model):
    """A player in an event. Being registered is what makes a user a player there."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        WAITLISTED = "waitlisted", "Waiting list"
        DROPPED = "dropped", "Dropped"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="one_registration_per_event")
        ]
        ordering = ["registered_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} in {self.event.name}"
