"""Time extensions granted at the same moment, on PostgreSQL: two judges at one table
both count, and a grant racing the round's close either lands before it or is refused."""

import pytest
from django.db import connection

from tests.conftest import make_event, make_user, play_out
from tests.integration.test_concurrent_penalties import at_once
from tournaments.clock import extensions as clock
from tournaments.models import EventLog, Round, TimeExtension
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (scripts/test's second pass)"
    ),
]


@pytest.fixture
def organiser():
    return make_user("olive")


@pytest.fixture
def table(organiser):
    return running_table(organiser, "Clock Open")


def test_two_judges_granting_at_once_are_both_counted(table):
    judges = [make_user("judge1"), make_user("judge2")]
    errors = at_once(
        *[
            (lambda j=j, m=m: clock.grant_extension(table, m, "Ruling", j))
            for j, m in zip(judges, (3, 4), strict=True)
        ]
    )
    assert errors == []
    table.refresh_from_db()
    assert table.extension_minutes == 7 and TimeExtension.objects.count() == 2
    standing = sorted(e.data["standing"] for e in EventLog.objects.filter(action="time_extension"))
    assert standing == [3, 7] or standing == [4, 7]


def running_table(organiser, name: str):
    event = make_event(organiser, 4, name=name)
    round_ = rounds.pair_next_round(event, organiser)
    rounds.start_round(round_, organiser)
    return round_.matches.order_by("table").first()


@pytest.mark.parametrize("attempt", range(4))  # the race is timing's: run it a few times
def test_a_grant_racing_the_close_lands_before_it_or_is_refused(organiser, attempt):
    table = running_table(organiser, f"Race {attempt}")
    play_out(table.round, organiser)
    judge = make_user("judge1")
    errors = at_once(
        lambda: clock.grant_extension(table, 5, "Late ruling", judge),
        lambda: rounds.close_round(table.round, organiser),
    )
    round_ = Round.objects.get(pk=table.round_id)
    assert round_.status == Round.Status.CLOSED, errors  # never a deadlock
    granted = list(TimeExtension.objects.all())
    if granted:
        assert errors == [] and granted[0].granted_at <= round_.closed_at
    else:
        assert [type(e) for e in errors] == [ServiceError] and "is closed" in str(errors[0])
