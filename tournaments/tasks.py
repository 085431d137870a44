"""Celery tasks of the tournament: the moment a table's time runs out is no one's action,
so beat looks for it (``CELERY_BEAT_SCHEDULE["live-time-up"]``)."""

from celery import shared_task

from tournaments.clock import time_up


@shared_task(name="tournaments.announce_time_up")
def announce_time_up() -> int:
    """Tell the judges of every table whose time just ran out; how many were told."""
    return time_up.tell_time_up()
