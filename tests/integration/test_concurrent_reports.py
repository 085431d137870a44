"""Reports at one event do not wait for each other, and a round never closes under one.

On PostgreSQL, each call runs in its own thread with its own connection. Reports share
the event's lock (``FOR KEY SHARE``); closing takes it exclusively, so it waits for the
reports in flight and the reports after it see the round closed.
"""

import threading

import pytest
from django.db import connection, connections, transaction
from django.db.utils import OperationalError

from tests.conftest import make_event, make_user
from tests.integration.test_concurrent_penalties import at_once
from tournaments.models import Match, MatchClaim, ResultChange, Round
from tournaments.results import services as results
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (scripts/test's second pass)"
    ),
]

WIN = results.Score.parse("2-0")


def _wait_at_most(seconds: float) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL lock_timeout = '{int(seconds * 1000)}ms'")


class ReportInFlight:
    """A report that has taken its locks and not yet committed, in a thread of its own."""

    def __init__(self, match: Match) -> None:
        self.match, self.locked, self.release = match, threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            with transaction.atomic():
                results.locked_match(self.match)
                self.locked.set()
                self.release.wait(timeout=20)
        finally:
            connections.close_all()

    def __enter__(self) -> "ReportInFlight":
        self.thread.start()
        assert self.locked.wait(timeout=10)
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.thread.join(timeout=20)


def in_thread(call) -> dict:
    """Run ``call`` in its own thread and connection: ``{"error": …}`` if it raised."""
    errors = at_once(call)
    return {"error": errors[0]} if errors else {}


@pytest.fixture
def round_of_50():
    organiser = make_user("olive")
    event = make_event(organiser, 100)
    round_ = rounds.pair_next_round(event, organiser)
    rounds.start_round(round_, organiser)
    return organiser, round_


def _report_quickly(match: Match, organiser):
    def call():
        with transaction.atomic():
            _wait_at_most(2)
            return results.report_result(match, match.player_a, WIN, organiser)

    return call


def _close_quickly(round_: Round, organiser):
    def call():
        with transaction.atomic():
            _wait_at_most(0.5)
            return rounds.close_round(round_, organiser)

    return call


def test_a_report_does_not_wait_for_another_tables_report(round_of_50):
    organiser, round_ = round_of_50
    first, second = round_.matches.order_by("table")[:2]
    with ReportInFlight(first):
        outcome = in_thread(_report_quickly(second, organiser))
    assert "error" not in outcome, outcome.get("error")
    second.refresh_from_db()
    assert second.status == Match.Status.REPORTED


def test_closing_waits_for_a_report_in_flight(round_of_50):
    organiser, round_ = round_of_50
    for match in round_.matches.filter(is_bye=False):
        results.enter_result(match, WIN, organiser)
    with ReportInFlight(round_.matches.order_by("table").first()):
        outcome = in_thread(_close_quickly(round_, organiser))
    assert isinstance(outcome.get("error"), OperationalError)  # lock timeout: it waited
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING


def test_closing_racing_50_confirmations_loses_none_and_applies_none_by_half(round_of_50):
    """Every table has a first report; the 50 confirmations race close attempts. Close
    succeeds only once every confirmation is in; each is applied whole, exactly once."""
    organiser, round_ = round_of_50
    tables = list(round_.matches.filter(is_bye=False).select_related("player_a", "player_b"))
    assert len(tables) == 50
    for match in tables:
        results.report_result(match, match.player_a, WIN, organiser)
    closes: list[str] = []

    def confirm(match):
        return lambda: results.confirm_result(match, match.player_b, match.player_b.user)

    def try_close():
        for _ in range(200):
            try:
                rounds.close_round(round_, organiser)
                closes.append("closed")
                return
            except ServiceError as exc:
                closes.append(str(exc))

    errors = at_once(*[confirm(m) for m in tables], try_close, try_close)
    assert errors == []
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    assert closes.count("closed") == 1
    for match in tables:
        match.refresh_from_db()
        assert match.status == Match.Status.CONFIRMED
        actions = list(ResultChange.objects.filter(match=match).values_list("action", flat=True))
        assert actions == ["report", "confirm"]
        assert MatchClaim.objects.filter(match=match, kind=MatchClaim.Kind.CONFIRM).count() == 1


def test_a_report_after_the_close_is_refused_whole(round_of_50):
    organiser, round_ = round_of_50
    tables = list(round_.matches.filter(is_bye=False))
    for match in tables[1:]:
        results.enter_result(match, WIN, organiser)
    last = tables[0]
    results.report_result(last, last.player_a, WIN, organiser)
    results.confirm_result(last, last.player_b, organiser)
    rounds.close_round(round_, organiser)
    outcome = in_thread(lambda: results.report_result(last, last.player_a, WIN, organiser))
    assert isinstance(outcome.get("error"), ServiceError)
    assert ResultChange.objects.filter(match=last).count() == 2
