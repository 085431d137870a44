"""Print jobs whose queue messages were lost: shown stalled, sent again, never reused.

The broker "loses" a job here as Redis does when it restarts without persistence, or as a
killed worker does until the visibility timeout: the chord is sent and nothing comes of
it. The clock is moved forward instead of waiting for the stall bound to pass.
"""

from datetime import timedelta
from pathlib import Path

import pytest
from celery import chord
from django.utils import timezone

from arbiter.celery import app
from printing import documents, jobs
from printing.models import PrintJob

pytestmark = pytest.mark.django_db

STALL = 300


@pytest.fixture
def paired(make_world, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.PRINT_JOB_STALL_SECONDS = STALL
    return make_world(8).event


@pytest.fixture
def clock(monkeypatch):
    """``clock.forward(seconds)`` moves the site's clock on, as if that much time passed."""
    real = timezone.now

    class Clock:
        offset = timedelta(0)

        def forward(self, seconds: float) -> None:
            self.offset += timedelta(seconds=seconds)

    clock = Clock()
    monkeypatch.setattr(timezone, "now", lambda: real() + clock.offset)
    return clock


class Broker:
    """Records what each chord sent (queues included) and delivers it only when told."""

    def __init__(self):
        self.sent: list[dict] = []
        self.delivering = False

    def chord(self, header, body):
        broker = self

        class Sent:
            def apply_async(self):
                broker.sent.append(
                    {
                        "queues": {s.options.get("queue") for s in [*header, body]},
                        "chunks": len(header),
                    }
                )
                if broker.delivering:
                    return chord(header, body).apply_async()
                return None  # accepted, then lost

        return Sent()


@pytest.fixture
def broker(monkeypatch):
    """A real (not eager) broker that loses every message until ``delivering`` is set;
    once it is, tasks run in-process as a worker would run them."""
    fake = Broker()
    monkeypatch.setattr(jobs, "chord", fake.chord)
    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = False
    yield fake
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def deliver(broker: Broker) -> None:
    broker.delivering = True
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True


def test_a_job_whose_messages_were_lost_is_not_stalled_before_the_bound(
    paired, organiser, broker, clock
):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    clock.forward(STALL - 5)
    job.refresh_from_db()
    assert job.is_active and not jobs.is_stalled(job)
    again, reused = jobs.request_print(paired, "match_slips", 1, organiser)
    assert reused and again.pk == job.pk  # still within the bound: the same job


def test_asking_again_for_a_document_whose_job_stalled_starts_a_new_job(
    paired, organiser, broker, clock, client
):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    clock.forward(STALL + 1)
    client.force_login(organiser)
    response = client.post(
        f"/events/{paired.pk}/print/new/", {"kind": "match_slips", "round": "1"}, follow=True
    )
    text = response.content.decode()
    assert "Nothing changed since the last print" not in text
    new = PrintJob.objects.exclude(pk=job.pk).get()
    assert new.is_active and f'id="job-{new.pk}"' in text
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and "stalled" in job.error.lower()
    assert f"#{new.pk}" in job.error  # says which job took its place


def test_a_stalled_job_shows_stalled_and_viewing_it_sends_it_again(
    paired, organiser, broker, clock, client
):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    assert len(broker.sent) == 1
    clock.forward(STALL + 1)
    client.force_login(organiser)
    row = client.get(f"/events/{paired.pk}/print/jobs/{job.pk}/").content.decode()
    assert "Stalled" in row and "hx-trigger" in row  # still polled: it is going again
    assert len(broker.sent) == 2  # viewing it sent it again
    job.refresh_from_db()
    assert job.attempt == 2 and job.status == PrintJob.Status.QUEUED
    page = client.get(f"/events/{paired.pk}/print/").content.decode()
    assert "Stalled" in page
    row = client.get(f"/events/{paired.pk}/print/jobs/{job.pk}/").content.decode()
    assert len(broker.sent) == 2  # sent again once, not on every poll


def test_the_sweep_sends_stalled_jobs_again_and_they_finish(paired, organiser, broker, clock):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    other, _ = jobs.request_print(paired, "standings", None, organiser)
    assert jobs.requeue_stalled() == 0  # nothing has stalled yet
    clock.forward(STALL + 1)
    deliver(broker)
    assert jobs.requeue_stalled() == 2
    for each in (job, other):
        each.refresh_from_db()
        assert each.status == PrintJob.Status.DONE and each.attempt == 2, each.error
        assert not jobs.is_stalled(each)
    assert jobs.requeue_stalled() == 0
    again, reused = jobs.request_print(paired, "match_slips", 1, organiser)
    assert reused and again.pk == job.pk  # finished: the file is reused as before


def test_a_job_making_progress_is_not_stalled(paired, organiser, broker, clock):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    units = documents.plan("match_slips", paired, 1)
    clock.forward(STALL - 10)
    jobs.render_chunk.run(job.pk, 0, units, job.attempt)  # a worker finished a part just now
    clock.forward(20)  # past the bound since the request, not since the part
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and not jobs.is_stalled(job)
    assert jobs.requeue_stalled() == 0


def test_a_job_waiting_behind_a_busy_queue_is_not_stalled(paired, organiser, broker, clock):
    """Workers busy with other jobs on its queue: the job waits its turn, it is not lost
    (sending it again would put it at the back of the queue)."""
    busy, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    waiting, _ = jobs.request_print(paired, "pairings_by_table", 1, organiser)
    clock.forward(STALL + 1)
    jobs.render_chunk.run(busy.pk, 0, [], busy.attempt)  # the queue moves
    waiting.refresh_from_db()
    assert not jobs.is_stalled(waiting)


def test_a_late_worker_of_an_old_attempt_does_not_overwrite_the_new_one(
    paired, organiser, broker, clock
):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    units = documents.plan("match_slips", paired, 1)
    clock.forward(STALL + 1)
    deliver(broker)
    assert jobs.requeue_stalled() == 1
    job.refresh_from_db()
    done = (job.status, job.file.name, job.pages, job.done_chunks, job.finished_at)
    assert job.status == PrintJob.Status.DONE and job.attempt == 2
    media = Path(job.file.path).parent
    files = sorted(media.iterdir())
    # The first attempt's worker was only slow: it renders and joins after all.
    part = jobs.render_chunk.run(job.pk, 0, units, 1)
    assert jobs.join_chunks.run([part], job.pk, 1) == job.pk
    job.refresh_from_db()
    assert (job.status, job.file.name, job.pages, job.done_chunks, job.finished_at) == done
    assert sorted(media.iterdir()) == files
    # And a job sent again but not finished yet is not finished by the old attempt.
    changed = paired.rounds.get(number=1).matches.order_by("table").first()
    changed.extension_minutes = 3
    changed.save()
    broker.delivering = False
    app.conf.task_always_eager = False
    second, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    clock.forward(STALL + 1)
    assert jobs.requeue_stalled() == 1
    app.conf.task_always_eager = True
    part = jobs.render_chunk.run(second.pk, 0, units, 1)
    jobs.join_chunks.run([part], second.pk, 1)
    second.refresh_from_db()
    assert second.attempt == 2 and second.status == PrintJob.Status.QUEUED
    assert second.done_chunks == 0 and not second.file


def test_small_jobs_go_to_the_small_queue_and_big_ones_to_the_main_queue(
    paired, organiser, broker, settings
):
    settings.PRINT_SMALL_JOB_PAGES = 1  # 4 tables: one page of slips; standings 1 page
    jobs.request_print(paired, "match_slips", 1, organiser)
    assert broker.sent[-1]["queues"] == {settings.PRINT_SMALL_QUEUE}
    settings.PRINT_SMALL_JOB_PAGES = 0
    jobs.request_print(paired, "standings", None, organiser)
    assert broker.sent[-1]["queues"] == {settings.CELERY_TASK_DEFAULT_QUEUE}
    assert settings.PRINT_SMALL_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE


def test_a_job_sent_again_while_its_old_join_runs_is_left_to_the_new_attempt(
    paired, organiser, broker, clock, monkeypatch
):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    units = documents.plan("match_slips", paired, 1)
    app.conf.task_always_eager = True
    part = jobs.render_chunk.run(job.pk, 0, units, 1)
    app.conf.task_always_eager = False
    real_join = jobs.join_pdfs

    def slow_join(parts):
        """The join takes so long that the job stalls and is sent again meanwhile, and
        the new attempt's worker has already written its part."""
        clock.forward(STALL + 1)
        assert jobs.requeue_stalled() == 1
        Path(jobs._part_path(job.pk, 2, 0)).write_bytes(b"%PDF new attempt")
        return real_join(parts)

    monkeypatch.setattr(jobs, "join_pdfs", slow_join)
    jobs.join_chunks.run([part], job.pk, 1)
    job.refresh_from_db()
    assert job.attempt == 2 and job.status == PrintJob.Status.QUEUED and job.pages == 0
    assert jobs._part_path(job.pk, 2, 0).exists(), "the new attempt's part is kept"
    assert not Path(part).exists(), "the old attempt's part is removed"
