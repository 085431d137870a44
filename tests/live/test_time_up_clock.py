"""Venue mode has no beat: its server's own thread tells judges of tables out of time."""

import datetime
import threading
import time

import pytest
from django.utils import timezone

from tournaments.clock import time_up as time_up_clock
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_clock_runs_only_in_the_venues_server_process():
    assert time_up_clock.start_if_asked({}) is None
    assert time_up_clock.start_if_asked({time_up_clock.ENV_FLAG: "0"}) is None


def test_the_clock_thread_tells_the_judges_of_tables_out_of_time(make_world, sent, monkeypatch):
    world = make_world(4, started=True)
    Round.objects.filter(pk=world.round.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=world.event.round_minutes + 1)
    )
    sent.clear()
    monkeypatch.setattr(time_up_clock, "INTERVAL_SECONDS", 0.05)
    stop = threading.Event()
    thread = threading.Thread(target=time_up_clock.run, args=(stop, 0.05), daemon=True)
    thread.start()
    deadline = time.monotonic() + 5
    while len(sent.of_type("queue")) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(2)
    told = sorted((n["kind"], n["table"]) for _, n in sent.of_type("queue"))
    assert told == [("time", 1), ("time", 2)]  # once each, however many ticks ran


def test_a_failed_check_is_logged_and_the_clock_goes_on(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("database gone")

    monkeypatch.setattr(time_up_clock, "tell_time_up", broken)
    assert time_up_clock.check_once() == 0
    assert "time-up check failed" in caplog.text
