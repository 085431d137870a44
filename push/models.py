"""A browser's push subscription: where its push service takes messages for one user."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser of one user, as ``PushSubscription.toJSON()`` gave it.

    The endpoint is the push service's address for that browser (unique: a browser that
    subscribes again renews its keys; it is never moved to another account); ``p256dh`` and
    ``auth`` are the browser's keys the message is encrypted for (RFC 8291).
    ``failed_count`` counts failed sends since the last one taken (push/sender.py drops the
    subscription at ``MAX_FAILURES``).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=2000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)
    last_ok = models.DateTimeField(null=True, blank=True)
    ok_count = models.PositiveIntegerField(default=0)
    failed_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.user} at {self.endpoint[:60]}"

    def info(self) -> dict:
        """The subscription as pywebpush takes it (the shape of ``toJSON()``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
