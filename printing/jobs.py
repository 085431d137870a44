"""Print jobs: ask for a document, reuse an unchanged one, render it in chunks on workers.

A job is split into chunks (``documents.CHUNK`` units each) that Celery workers
render side by side; a final task joins the parts into one PDF. More workers make
a big job faster. On the embedded default the same tasks run in-process.
"""

from __future__ import annotations

import logging
from pathlib import Path

from celery import chord, shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from kombu.exceptions import OperationalError

from printing import documents
from printing.models import PrintJob
from printing.render import join_pdfs
from tournaments.models import Event
from tournaments.services import ServiceError

log = logging.getLogger(__name__)
PARTS_DIR = "prints/parts"


def request_print(event: Event, kind: str, round_number: int | None, user) -> tuple[PrintJob, bool]:
    """The job for this document: an existing one if the data has not changed, else a new one.

    Returns (job, reused).
    """
    if kind not in documents.KINDS:
        raise ServiceError(f"Unknown document {kind!r}.")
    if documents.needs_round(kind):
        if round_number is None:
            raise ServiceError("Choose the round to print.")
        if not event.rounds.filter(number=round_number).exists():
            raise ServiceError(f"Round {round_number} is not paired yet.")
    else:
        round_number = None
    fingerprint = documents.fingerprint(kind, event, round_number)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        existing = (
            PrintJob.objects.filter(
                event=event, kind=kind, round_number=round_number, fingerprint=fingerprint
            )
            .exclude(status=PrintJob.Status.FAILED)
            .first()
        )
        if existing is not None and (existing.is_active or _file_exists(existing)):
            return existing, True
        job = PrintJob.objects.create(
            event=event,
            kind=kind,
            round_number=round_number,
            requested_by=user,
            fingerprint=fingerprint,
        )
    enqueue(job)  # after the commit above, so a worker always finds the job
    return job, False


def _file_exists(job: PrintJob) -> bool:
    return bool(job.file) and job.file.storage.exists(job.file.name)


def enqueue(job: PrintJob) -> None:
    """Send the job's chunks to the workers; if the broker is down, say the job waits."""
    units = documents.plan(job.kind, job.event, job.round_number)
    size = documents.CHUNK.get(job.kind, 50)
    chunks = [units[i : i + size] for i in range(0, len(units), size)] or [[]]
    PrintJob.objects.filter(pk=job.pk).update(total_chunks=len(chunks), done_chunks=0)
    work = chord(
        [render_chunk.s(job.pk, index, chunk) for index, chunk in enumerate(chunks)],
        join_chunks.s(job.pk),
    )
    try:
        work.apply_async()
    except OperationalError as exc:
        log.warning("print job %s waits for the broker: %s", job.pk, exc)
        PrintJob.objects.filter(pk=job.pk).update(
            note="Waiting for the job queue: the broker (Redis) cannot be reached. The job "
            "starts as soon as it is back; ask again if it does not."
        )


def _part_path(job_id: int, index: int) -> Path:
    folder = Path(settings.MEDIA_ROOT) / PARTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"job-{job_id}-{index:05d}.pdf"


@shared_task(name="printing.render_chunk", acks_late=True, reject_on_worker_lost=True)
def render_chunk(job_id: int, index: int, units: list[int]) -> str:
    """Render one chunk to a part file; parts are joined by ``join_chunks``."""
    job = PrintJob.objects.select_related("event").get(pk=job_id)
    if job.status == PrintJob.Status.FAILED:
        return ""
    PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.RUNNING, started_at=timezone.now(), note=""
    )
    try:
        pdf = documents.render_units(job.kind, job.event_id, job.round_number, units)
    except Exception as exc:
        _fail(job_id, f"Rendering part {index + 1} failed: {type(exc).__name__}: {exc}")
        raise
    path = _part_path(job_id, index)
    path.write_bytes(pdf)  # rewritten whole if a retried chunk runs again: no duplicates
    PrintJob.objects.filter(pk=job_id).update(done_chunks=F("done_chunks") + 1)
    return str(path)


@shared_task(name="printing.join_chunks", acks_late=True, reject_on_worker_lost=True)
def join_chunks(part_paths: list[str], job_id: int) -> int:
    """Join the rendered parts into the job's one PDF, in order."""
    try:
        parts = [Path(p).read_bytes() for p in sorted(part_paths) if p]
        pdf = join_pdfs(parts)
        job = PrintJob.objects.get(pk=job_id)
        name = f"{job.kind}-event{job.event_id}" + (
            f"-round{job.round_number}" if job.round_number else ""
        )
        if job.file:
            job.file.delete(save=False)
        job.file.save(f"{name}-{job.fingerprint[:8]}.pdf", ContentFile(pdf), save=False)
        job.status = PrintJob.Status.DONE
        job.finished_at = timezone.now()
        job.done_chunks = job.total_chunks
        job.pages = _page_count(pdf)
        job.save(update_fields=["file", "status", "finished_at", "done_chunks", "pages"])
    except Exception as exc:
        _fail(job_id, f"Joining the parts failed: {type(exc).__name__}: {exc}")
        raise
    for path in part_paths:
        Path(path).unlink(missing_ok=True) if path else None
    return job_id


def _page_count(pdf: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(pdf)).pages)


def _fail(job_id: int, message: str) -> None:
    PrintJob.objects.filter(pk=job_id).update(
        status=PrintJob.Status.FAILED, error=message[:2000], finished_at=timezone.now()
    )
