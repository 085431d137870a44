"""Print jobs: who asked for what, how far it got, and the file it made."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tournaments.models import Event


class PrintJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _lazy("Waiting for a worker")
        RUNNING = "running", _lazy("Rendering")
        DONE = "done", _lazy("Ready")
        FAILED = "failed", _lazy("Failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="print_jobs")
    kind = models.CharField(max_length=30)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    fingerprint = models.CharField(max_length=64, help_text=_lazy("Hash of the data printed."))
    # The language the document is printed in: the asker's when the job was made (a worker
    # has no request). Part of the fingerprint, so a print is reused in its language only.
    language = models.CharField(
        max_length=10,
        default=settings.LANGUAGE_CODE,
        help_text=_lazy("The language the document is printed in."),
    )
    total_chunks = models.PositiveIntegerField(default=0)
    done_chunks = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="prints/", blank=True)
    pages = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    note = models.TextField(blank=True, help_text=_lazy("Why the job is waiting, if it is."))
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set when the job is sent and whenever a worker starts or finishes a part: a job
    # whose progress_at is older than PRINT_JOB_STALL_SECONDS has stalled (printing/jobs.py).
    progress_at = models.DateTimeField(default=timezone.now)
    # Each sending of the job is one attempt; its tasks carry the number, and only those
    # of the current attempt may write, so a late worker of an earlier one changes nothing.
    attempt = models.PositiveIntegerField(default=1)
    queue = models.CharField(
        max_length=200, blank=True, help_text=_lazy("Where its tasks were sent.")
    )

    class Meta:
        ordering = ["-requested_at", "-pk"]
        indexes = [
            models.Index(fields=["event", "kind", "round_number", "fingerprint"]),
            models.Index(fields=["status", "progress_at"], name="printjob_progress"),
        ]

    def __str__(self) -> str:
        return _("%(kind)s for %(event)s") % {"kind": self.kind, "event": self.event.name}

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        if not self.total_chunks:
            return 0
        return round(100 * self.done_chunks / self.total_chunks)

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    def get_download_url(self) -> str:
        return reverse("printing:download", args=[self.event_id, self.pk])
