"""Celery finds an app's tasks in its ``tasks`` module."""

from celery.signals import worker_process_init

from printing.jobs import join_chunks, render_chunk, requeue_stalled_jobs, resend_waiting_jobs

__all__ = ["join_chunks", "render_chunk", "requeue_stalled_jobs", "resend_waiting_jobs"]


@worker_process_init.connect
def _warm_up(**kwargs) -> None:
    """Load fonts, templates and the shared stylesheet before the first job arrives."""
    from printing.documents import warm_up

    warm_up()
