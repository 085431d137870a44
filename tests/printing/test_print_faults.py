"""Print jobs when the broker is down: kept as waiting, sent again once it is back."""

import pytest
from celery import chord
from kombu.exceptions import OperationalError

from arbiter.celery import app
from printing import jobs
from printing.models import PrintJob

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(make_world, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(8).event


@pytest.fixture
def broker_down(monkeypatch):
    """Sending fails as kombu fails when Redis refuses the connection (not eager)."""

    class DeadChord:
        def __init__(self, *args, **kwargs):
            pass

        def apply_async(self):
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(jobs, "chord", DeadChord)
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = saved


def test_a_job_asked_for_while_the_broker_is_down_is_kept_and_says_it_waits(
    paired, organiser, broker_down
):
    job, reused = jobs.request_print(paired, "match_slips", 1, organiser)
    job.refresh_from_db()
    assert not reused and job.status == PrintJob.Status.QUEUED
    assert jobs.is_waiting(job) and "Waiting for the job queue" in job.note
    # Asking again returns the same kept job (and tries to send it), not a second one.
    again, reused = jobs.request_print(paired, "match_slips", 1, organiser)
    assert reused and again.pk == job.pk and PrintJob.objects.count() == 1


def test_waiting_jobs_are_sent_once_the_broker_is_back(
    paired, organiser, eager_tasks, broker_down, monkeypatch
):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    assert jobs.resend_waiting() == 0  # still down: nothing sent, the job still waits
    job.refresh_from_db()
    assert jobs.is_waiting(job)
    monkeypatch.setattr(jobs, "chord", chord)  # the broker is back (tasks run in-process)
    app.conf.task_always_eager = True
    assert jobs.resend_waiting() == 1
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.note == "" and job.pages == 1
    assert jobs.resend_waiting() == 0  # sent once, not again


def test_a_task_error_in_process_is_not_mistaken_for_a_broker_outage(
    paired, organiser, monkeypatch, eager_tasks
):
    def broken(*args, **kwargs):
        raise OSError("font file unreadable")

    monkeypatch.setattr(jobs.documents, "render_units", broken)
    with pytest.raises(OSError, match="font file"):
        jobs.request_print(paired, "match_slips", 1, organiser)
    assert PrintJob.objects.get().status == PrintJob.Status.FAILED


def test_the_job_row_says_the_job_waits_for_the_queue(paired, organiser, broker_down, client):
    job, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    client.force_login(organiser)
    row = client.get(f"/events/{paired.pk}/print/jobs/{job.pk}/")
    assert row.status_code == 200
    assert "Waiting for the job queue" in row.content.decode()
    page = client.get(f"/events/{paired.pk}/print/")
    assert "Waiting for the job queue" in page.content.decode()
