"""A URL subscribed to an event's (or a series') announcements, and each delivery to it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _lazy

from series.models import Series
from tournaments.models import Event


class Subscription(models.Model):
    """One URL that hears one event's announcements, or those of every event of a series.

    ``secret`` (``whsec_`` and base64) signs every delivery; its owner reads it back.
    ``announcements`` lists the types it hears (empty: all of them). ``failures`` counts
    deliveries that failed in a row (every attempt spent); at ``MAX_FAILURES`` the
    subscription is switched off (``active``), with the time and reason, and its owner told.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.CharField(max_length=2000)
    description = models.CharField(max_length=200, blank=True)
    announcements = models.JSONField(default=list, blank=True)
    secret = models.CharField(max_length=100)
    active = models.BooleanField(default=True)
    failures = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=500, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(event__isnull=False, series__isnull=True)
                | models.Q(event__isnull=True, series__isnull=False),
                name="webhook_scope_is_an_event_or_a_series",
            )
        ]

    def __str__(self) -> str:
        return f"{self.url[:60]} ({self.event or self.series})"

    def hears(self, kind: str) -> bool:
        return not self.announcements or kind in self.announcements


class Delivery(models.Model):
    """One announcement sent (or being sent) to one subscription, with every attempt's
    outcome: the last status code and the start of the answer (``EXCERPT`` characters).
    ``message_id`` is the ``webhook-id`` header, the same on every attempt and replay, so a
    receiver can tell a delivery it already took."""

    class Outcome(models.TextChoices):
        PENDING = "pending", _lazy("Being sent")
        DELIVERED = "delivered", _lazy("Delivered")
        FAILED = "failed", _lazy("Failed")

    EXCERPT = 500

    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    message_id = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=40)
    payload = models.JSONField()
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response_excerpt = models.TextField(blank=True)
    error = models.CharField(max_length=500, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["subscription", "-created"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.message_id} ({self.outcome})"


class Attempt(models.Model):
    """One try at a delivery: when, what came back (status, excerpt) or why nothing did."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="tries")
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField(auto_now_add=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response_excerpt = models.TextField(blank=True)
    error = models.CharField(max_length=500, blank=True)
    replay = models.BooleanField(default=False)

    class Meta:
        ordering = ["delivery", "pk"]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}: {self.status_code or self.error}"
