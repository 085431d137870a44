"""Print jobs: ask for a document, reuse an unchanged one, render it in chunks on workers.

A job is split into chunks (its document kind's ``chunk`` units each) that Celery workers
render side by side; a final task joins the parts into one PDF. More workers make
a big job faster. On the embedded default the same tasks run in-process.

Faults, and what happens:

* The broker (Redis) is down when a job is asked for: the job is kept, marked as waiting
  for the queue (:data:`WAITING_NOTE`), and sent again by :func:`resend_waiting` (a beat
  task, every minute) or when its row on the print page is polled once Redis is back.
* A worker dies while rendering: its chunk is handed out again (at once if only the pool
  child died, after the broker's visibility timeout if the whole worker did). A chunk
  rewrites its one part file atomically, and the join writes the job's one PDF under a
  fixed name and removes every part, so a retried job leaves exactly one file.
* The database is unreachable: the tasks retry with backoff instead of failing the job.
* The job's messages are lost (Redis restarted without persistence, a worker killed whole
  and the visibility timeout not yet passed): the job makes no progress, and once
  ``PRINT_JOB_STALL_SECONDS`` have passed without any (and its queue is not busy with
  other jobs) it is *stalled*. Beat's sweep (:func:`requeue_stalled`), its row on the
  print page, or the page itself send it again as a new attempt; asking for the same
  document again starts a new job instead of reusing it. Each attempt's tasks carry its
  number and write only while it is the job's current one, so a late worker of an
  earlier attempt changes nothing.

Small jobs (``PRINT_SMALL_JOB_PAGES`` pages or fewer, such as one round's slips) go to
their own queue (``PRINT_SMALL_QUEUE``), so they never wait behind a huge job's chunks.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path

from celery import chord, shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import InterfaceError, transaction
from django.db import OperationalError as DatabaseOperationalError
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import RedisError

from printing import documents
from printing.models import PrintJob
from printing.render import join_pdfs
from tournaments.models import Event
from web.errors import ServiceError

log = logging.getLogger(__name__)
PARTS_DIR = "prints/parts"
# Kept in the job's row in English (``is_waiting`` compares it); shown translated.
WAITING_NOTE = gettext_noop(
    "Waiting for the job queue: the broker (Redis) cannot be reached. The job is kept and "
    "starts by itself as soon as the queue is back."
)
# Sending fails in these ways when Redis is down: kombu for the broker, redis-py for the
# chord's result backend, the socket itself (see _broker_failed for one more).
BROKER_ERRORS = (BrokerOperationalError, RedisError, OSError)
# A database restart: the task is tried again later rather than failing the job.
DATABASE_ERRORS = (DatabaseOperationalError, InterfaceError)
RETRY = {
    "autoretry_for": DATABASE_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 30,
    "retry_jitter": False,
    "max_retries": 40,  # about 20 minutes of outage
}
STALLED_NOTE = (
    "Stalled: no progress for {bound}, so its work was probably lost (a worker or the "
    "queue restarted). Sent to the workers again (attempt {attempt})."
)
ACTIVE = (PrintJob.Status.QUEUED, PrintJob.Status.RUNNING)
# A page polling a waiting job tries the broker again at most this often per process.
RESEND_EVERY_SECONDS = 5.0
_last_resend: dict[int, float] = {}


def current_language() -> str:
    """The language a job asked for now is printed in: the asker's (the request's active
    language), else the site's default."""
    return (translation.get_language() or settings.LANGUAGE_CODE)[:10]


def job_fingerprint(kind: str, event: Event, round_number: int | None, language: str) -> str:
    """The document's fingerprint (:func:`documents.fingerprint`, read in ``language``)
    with the language folded in: a print is reused only for a job in the same language,
    so a German print is never handed to someone who asked in Japanese."""
    with translation.override(language):
        printed = documents.fingerprint(kind, event, round_number)
    return hashlib.sha256(f"{printed}:{language}".encode()).hexdigest()


def request_print(event: Event, kind: str, round_number: int | None, user) -> tuple[PrintJob, bool]:
    """The job for this document: an existing one if the data has not changed, else a new one.

    The job is printed in the asker's language (:func:`current_language`), and only a job
    in that language is reused. A stalled job is never reused: it is retired (failed,
    naming the job that replaces it) and a new job is made, so asking again is always a
    way out of a stuck print.

    Returns (job, reused).
    """
    document = documents.find(kind)
    if document is None:
        raise ServiceError(_("Unknown document %(kind)s.") % {"kind": repr(kind)})
    if document.per_round:
        if round_number is None:
            raise ServiceError(_("Choose the round to print."))
        if not event.rounds.filter(number=round_number).exists():
            raise ServiceError(_("Round %(round)s is not paired yet.") % {"round": round_number})
    else:
        round_number = None
    language = current_language()
    fingerprint = job_fingerprint(kind, event, round_number, language)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        existing = (
            PrintJob.objects.filter(
                event=event,
                kind=kind,
                round_number=round_number,
                language=language,
                fingerprint=fingerprint,
            )
            .exclude(status=PrintJob.Status.FAILED)
            .first()
        )
        stalled = existing is not None and is_stalled(existing)
        if existing is not None and not stalled and (existing.is_active or _file_exists(existing)):
            reuse = existing
        else:
            reuse = None
            job = PrintJob.objects.create(
                event=event,
                kind=kind,
                round_number=round_number,
                requested_by=user,
                fingerprint=fingerprint,
                language=language,
            )
            if stalled:
                _retire(existing, job)
    if reuse is not None:
        resend_if_waiting(reuse, force=True)  # asking again is a good moment to retry
        return reuse, True
    enqueue(job)  # after the commit above, so a worker always finds the job
    return job, False


def _retire(stalled: PrintJob, replacement: PrintJob) -> None:
    """Fail a stalled job in favour of a new one; a later attempt number stops its tasks."""
    PrintJob.objects.filter(pk=stalled.pk, attempt=stalled.attempt, status__in=ACTIVE).update(
        status=PrintJob.Status.FAILED,
        attempt=F("attempt") + 1,
        finished_at=timezone.now(),
        note="",
        error=(
            f"Stalled: no progress for {_duration(settings.PRINT_JOB_STALL_SECONDS)}. "
            f"Replaced by print job #{replacement.pk}."
        ),
    )


def _file_exists(job: PrintJob) -> bool:
    return bool(job.file) and job.file.storage.exists(job.file.name)


def enqueue(job: PrintJob) -> bool:
    """Send the job's chunks to the workers (its current attempt); if the broker is down,
    say the job waits. Small jobs go to the small queue (see :func:`queue_for`).

    Returns whether the job was sent.
    """
    units = documents.plan(job.kind, job.event, job.round_number)
    chunks = documents.get(job.kind).chunks(units)
    queue = queue_for(job.kind, units)
    PrintJob.objects.filter(pk=job.pk).update(
        total_chunks=len(chunks), done_chunks=0, queue=queue, progress_at=timezone.now()
    )
    attempt = job.attempt
    work = chord(
        [
            render_chunk.s(job.pk, index, chunk, attempt).set(queue=queue)
            for index, chunk in enumerate(chunks)
        ],
        join_chunks.s(job.pk, attempt).set(queue=queue),
    )
    try:
        work.apply_async()
    except Exception as exc:
        if not _broker_failed(exc):
            raise
        log.warning("print job %s waits for the broker: %s", job.pk, exc)
        PrintJob.objects.filter(pk=job.pk).update(note=WAITING_NOTE)
        return False
    return True


def queue_for(kind: str, units: list[int]) -> str:
    """The small queue for a job of at most PRINT_SMALL_JOB_PAGES pages, else the main one.

    Workers take both, and one worker (or more) takes only the small one, so a round's
    slips start at once even while a 2,000-page job fills the main queue.
    """
    from arbiter.celery import app

    pages = max(1, math.ceil(len(units) / documents.get(kind).units_per_page))
    if pages <= settings.PRINT_SMALL_JOB_PAGES:
        return settings.PRINT_SMALL_QUEUE
    return app.conf.task_default_queue


def _broker_failed(exc: Exception) -> bool:
    """Whether sending failed because Redis is unreachable (not because a task failed).

    Eager tasks run inside ``apply_async``: their errors are the job's own. Celery wraps a
    result store it cannot reach in a RuntimeError ("Retry limit exceeded while trying to
    reconnect to the Celery result store backend"), raised from the connection error.
    """
    from arbiter.celery import app

    if app.conf.task_always_eager:
        return False
    if isinstance(exc, RuntimeError):
        return isinstance(exc.__cause__, BROKER_ERRORS)
    return isinstance(exc, BROKER_ERRORS)


def is_waiting(job: PrintJob) -> bool:
    """Kept while the broker was down, and not sent since."""
    return job.status == PrintJob.Status.QUEUED and job.note == WAITING_NOTE


def resend_if_waiting(job: PrintJob, force: bool = False) -> bool:
    """Send a job that is waiting for the queue; True if it went out now.

    The job is claimed first (its note cleared by a conditional UPDATE), so two pages
    polling at once, or a page and the beat task, never send it twice. Unless ``force``,
    one process tries a given job at most every ``RESEND_EVERY_SECONDS``: a page polls
    every second, and each try against a dead broker takes about a second.
    """
    if not is_waiting(job):
        return False
    now = time.monotonic()
    if not force and now - _last_resend.get(job.pk, -RESEND_EVERY_SECONDS) < RESEND_EVERY_SECONDS:
        return False
    _last_resend[job.pk] = now
    claimed = PrintJob.objects.filter(
        pk=job.pk, status=PrintJob.Status.QUEUED, note=WAITING_NOTE
    ).update(note="")
    if not claimed:
        return False
    sent = enqueue(job)
    job.refresh_from_db()
    if sent:
        _last_resend.pop(job.pk, None)
    return sent


def resend_jobs(candidates: Iterable[PrintJob], force: bool = False) -> int:
    """Send those of ``candidates`` that wait for the queue; how many went out.

    Stops at the first that cannot be sent: the broker is still down, and each further
    try would cost the caller (a page, say) another second for nothing.
    """
    sent = 0
    for job in candidates:
        if not is_waiting(job):
            continue
        if not resend_if_waiting(job, force=force):
            break
        sent += 1
    return sent


def resend_waiting() -> int:
    """Send every job that waits for the queue (run by beat); how many went out."""
    waiting = PrintJob.objects.filter(status=PrintJob.Status.QUEUED, note=WAITING_NOTE)
    return resend_jobs(waiting.select_related("event").order_by("pk"), force=True)


@shared_task(name="printing.resend_waiting")
def resend_waiting_jobs() -> int:
    """Beat's periodic retry of jobs asked for while the broker was down."""
    return resend_waiting()


def _cutoff() -> datetime:
    return timezone.now() - timedelta(seconds=settings.PRINT_JOB_STALL_SECONDS)


def is_stalled(job: PrintJob) -> bool:
    """Whether the job's work was lost: active, no progress for PRINT_JOB_STALL_SECONDS,
    and no other job on its queue made progress meanwhile either.

    The last condition tells a lost job from one waiting its turn behind others: sending
    that one again would only put it at the back of the queue. A job kept while the
    broker was down is not stalled: :func:`resend_if_waiting` sends it.
    """
    if not job.is_active or is_waiting(job):
        return False
    cutoff = _cutoff()
    if job.progress_at >= cutoff:
        return False
    return not _queue_moving(job.queue, cutoff, besides=job.pk)


def _queue_moving(queue: str, since: datetime, besides: int) -> bool:
    """Whether a worker made progress on a job of ``queue`` since ``since``: a job it
    started, advanced or finished (a job only sent proves nothing about the workers)."""
    worked = Q(status__in=(PrintJob.Status.RUNNING, PrintJob.Status.DONE))
    return (
        PrintJob.objects.filter(worked, queue=queue, progress_at__gte=since)
        .exclude(pk=besides)
        .exists()
    )


def requeue_if_stalled(job: PrintJob) -> bool:
    """Send a stalled job again, as a new attempt; True if it went out now.

    Claimed by a conditional UPDATE (same attempt, still without progress), so two pages
    and the sweep never send it twice; the new attempt's number makes the tasks of every
    earlier one stop without writing anything.
    """
    if not is_stalled(job):
        return False
    return _requeue(job)


def _requeue(job: PrintJob) -> bool:
    attempt = job.attempt + 1
    claimed = PrintJob.objects.filter(
        pk=job.pk, attempt=job.attempt, status__in=ACTIVE, progress_at__lt=_cutoff()
    ).update(
        attempt=attempt,
        status=PrintJob.Status.QUEUED,
        done_chunks=0,
        progress_at=timezone.now(),
        note=STALLED_NOTE.format(
            bound=_duration(settings.PRINT_JOB_STALL_SECONDS), attempt=attempt
        ),
    )
    if not claimed:
        return False
    log.warning("print job %s stalled: sending it again (attempt %s)", job.pk, attempt)
    job.refresh_from_db()
    _remove_parts(job.pk, below=attempt)
    sent = enqueue(job)
    job.refresh_from_db()
    return sent


def requeue_jobs(candidates: Iterable[PrintJob]) -> int:
    """Send again those of ``candidates`` that stalled; how many went out.

    Which ones stalled is decided before any is sent: a job sent again (and, in-process,
    finished) must not make the others look as if their queue were moving.
    """
    stalled = [job for job in candidates if is_stalled(job)]
    return sum(1 for job in stalled if _requeue(job))


def requeue_stalled() -> int:
    """Send again every stalled job (run by beat); how many went out."""
    candidates = PrintJob.objects.filter(status__in=ACTIVE, progress_at__lt=_cutoff())
    return requeue_jobs(candidates.select_related("event").order_by("pk"))


@shared_task(name="printing.requeue_stalled")
def requeue_stalled_jobs() -> int:
    """Beat's periodic sweep for jobs whose work was lost."""
    return requeue_stalled()


def _duration(seconds: int) -> str:
    """ "5 minutes", "90 seconds": how long a job went without progress, for people."""
    if seconds % 60 == 0 and seconds >= 120:
        return f"{seconds // 60} minutes"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def _parts_folder() -> Path:
    folder = Path(settings.MEDIA_ROOT) / PARTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _part_path(job_id: int, attempt: int, index: int) -> Path:
    return _parts_folder() / f"job-{job_id}-a{attempt}-{index:05d}.pdf"


def _job_parts(job_id: int, attempt: int | None = None) -> list[Path]:
    """Every file a job's chunks left (of one attempt, if given): finished parts and
    half-written temporaries."""
    pattern = f"job-{job_id}-a{attempt}-*" if attempt is not None else f"job-{job_id}-*"
    return sorted(_parts_folder().glob(pattern))


def _write_part(path: Path, pdf: bytes) -> None:
    """Write then rename: a worker killed mid-write leaves a temporary, never half a part."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(pdf)
    os.replace(temporary, path)


def _current(job_id: int, attempt: int | None):
    """The job's rows that this attempt may still write: its current one, still active.

    ``attempt`` is None for tasks sent before jobs had attempts: they count as current.
    """
    rows = PrintJob.objects.filter(pk=job_id, status__in=ACTIVE)
    return rows if attempt is None else rows.filter(attempt=attempt)


@shared_task(name="printing.render_chunk", acks_late=True, reject_on_worker_lost=True, **RETRY)
def render_chunk(job_id: int, index: int, units: list[int], attempt: int | None = None) -> str:
    """Render one chunk to a part file; parts are joined by ``join_chunks``.

    A chunk of an earlier attempt (a late worker, a redelivered message) does nothing.
    """
    job = PrintJob.objects.select_related("event").get(pk=job_id)
    if job.status in (PrintJob.Status.FAILED, PrintJob.Status.DONE):
        return ""  # a late duplicate of a finished job, or one that already failed
    if attempt is not None and attempt != job.attempt:
        return ""  # the job was sent again since: this attempt's work is not wanted
    attempt = job.attempt
    now = timezone.now()
    current = _current(job_id, attempt)
    current.filter(status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.RUNNING, started_at=now, note=""
    )
    current.update(progress_at=now)
    try:
        pdf = documents.render_units(
            job.kind, job.event_id, job.round_number, units, language=job.language
        )
    except DATABASE_ERRORS:
        raise  # retried (RETRY): the database is restarting, the layout is fine
    except Exception as exc:
        _fail(job_id, f"Rendering part {index + 1} failed: {type(exc).__name__}: {exc}", attempt)
        raise
    path = _part_path(job_id, attempt, index)
    _write_part(path, pdf)  # a chunk run twice rewrites the same part: no duplicates
    # Progress counts the parts on disk, so a chunk run twice does not count twice.
    done = sum(1 for part in _job_parts(job_id, attempt) if part.suffix == ".pdf")
    written = _current(job_id, attempt).update(
        done_chunks=Least(Greatest(F("done_chunks"), done), F("total_chunks")),
        progress_at=timezone.now(),
    )
    if not written:  # sent again while this part rendered: it is not the job's any more
        path.unlink(missing_ok=True)
        return ""
    return str(path)


@shared_task(name="printing.join_chunks", acks_late=True, reject_on_worker_lost=True, **RETRY)
def join_chunks(part_paths: list[str], job_id: int, attempt: int | None = None) -> int:
    """Join the rendered parts into the job's one PDF, in order, and remove the parts.

    Only the job's current attempt finishes it: a join of an earlier one does nothing.
    """
    job = PrintJob.objects.get(pk=job_id)
    if job.status == PrintJob.Status.DONE and _file_exists(job):
        _remove_parts(job_id, attempt)  # a duplicate join (redelivered): the file is made
        return job_id
    if job.status == PrintJob.Status.FAILED or (attempt is not None and attempt != job.attempt):
        _remove_parts(job_id, attempt)  # failed, or sent again since: not this attempt's
        return job_id
    attempt = job.attempt
    _current(job_id, attempt).update(progress_at=timezone.now())  # a big join takes a while
    try:
        parts = [Path(p).read_bytes() for p in sorted(part_paths) if p]
        pdf = join_pdfs(parts)
        _save_file(job, pdf)
        finished = _current(job_id, attempt).update(
            file=job.file.name,
            status=PrintJob.Status.DONE,
            finished_at=timezone.now(),
            progress_at=timezone.now(),
            done_chunks=F("total_chunks"),
            pages=_page_count(pdf),
            note="",
        )
    except DATABASE_ERRORS:
        raise  # retried (RETRY)
    except Exception as exc:
        _fail(job_id, f"Joining the parts failed: {type(exc).__name__}: {exc}", attempt)
        raise
    # This attempt's parts, and any an earlier one's worker left behind; but if the job
    # was sent again while this join ran, only this attempt's (the new one renders).
    _remove_parts(job_id, None if finished else attempt)
    return job_id


def _save_file(job: PrintJob, pdf: bytes) -> None:
    """Store the PDF under a name fixed per job, replacing what a crashed join left there.

    Django's storage would otherwise save a second copy under a made-up name.
    """
    name = f"{job.kind}-event{job.event_id}" + (
        f"-round{job.round_number}" if job.round_number else ""
    )
    filename = f"{name}-{job.fingerprint[:8]}-job{job.pk}.pdf"
    storage = job.file.storage
    target = job.file.field.generate_filename(job, filename)
    if job.file and job.file.name != target:
        job.file.delete(save=False)
    if storage.exists(target):
        storage.delete(target)
    job.file.save(filename, ContentFile(pdf), save=False)


def _remove_parts(job_id: int, attempt: int | None = None, below: int | None = None) -> None:
    """Every part and temporary of the job (of one attempt, or of those before ``below``):
    stale ones from a killed worker included."""
    for path in _job_parts(job_id, attempt):
        if below is not None and _attempt_of(path) >= below:
            continue
        path.unlink(missing_ok=True)


def _attempt_of(part: Path) -> int:
    """The attempt a part file belongs to (``job-7-a2-00001.pdf``: 2; older names: 1)."""
    pieces = part.name.split("-")
    if len(pieces) > 2 and pieces[2].startswith("a") and pieces[2][1:].isdigit():
        return int(pieces[2][1:])
    return 1


def _page_count(pdf: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(pdf)).pages)


def _fail(job_id: int, message: str, attempt: int | None = None) -> None:
    _current(job_id, attempt).update(
        status=PrintJob.Status.FAILED, error=message[:2000], finished_at=timezone.now()
    )
