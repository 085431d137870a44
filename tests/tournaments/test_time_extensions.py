"""A table's time extensions (903.1b): granted one by one, removed with a reason, the
match's total kept as the sum of those still standing, every change logged, and the
warning a judge reads when the table's result is already in."""

import pytest

from judging.calls import open_call, resolve_call
from tests.conftest import play_out, refused
from tournaments.clock import extensions as clock
from tournaments.models import EventLog, Match, TimeExtension
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(make_world):
    """Round 1 of a 4-player event with 50-minute rounds, started; its first table."""
    world = make_world(4, started=True)
    return world.event, world.table(1)


def standing(match: Match) -> int:
    match.refresh_from_db()
    return match.extension_minutes


def test_a_grant_is_kept_with_who_when_why_and_counted_on_the_match(hall, judge):
    event, table = hall
    first = clock.grant_extension(table, 5, "Deck check", judge)
    second = clock.grant_extension(table, 3, "  Ruling on a Trap  ", judge)
    assert standing(table) == 8
    assert [(x.minutes, x.reason, x.granted_by) for x in table.extensions.all()] == [
        (5, "Deck check", judge),
        (3, "Ruling on a Trap", judge),
    ]
    assert first.granted_at <= second.granted_at and first.is_standing
    log = EventLog.objects.filter(event=event, action="time_extension").order_by("pk")
    assert [e.data for e in log] == [
        {
            "table": 1,
            "minutes": 5,
            "reason": "Deck check",
            "call": None,
            "extension": first.pk,
            "standing": 5,
        },
        {
            "table": 1,
            "minutes": 3,
            "reason": "Ruling on a Trap",
            "call": None,
            "extension": second.pk,
            "standing": 8,
        },
    ]
    assert all(e.actor == judge and e.round_number == 1 for e in log)


def test_removing_one_keeps_it_on_record_and_takes_its_minutes_off(hall, judge, organiser):
    event, table = hall
    kept = clock.grant_extension(table, 5, "Deck check", judge)
    wrong = clock.grant_extension(table, 4, "Wrong table", judge)
    removed = clock.remove_extension(wrong, organiser, "Granted to table 1 by mistake")
    assert standing(table) == 5
    removed.refresh_from_db()
    assert not removed.is_standing and removed.removed_by == organiser
    assert removed.removal_reason == "Granted to table 1 by mistake"
    assert TimeExtension.objects.count() == 2 and kept.is_standing
    entry = EventLog.objects.get(event=event, action="time_extension_removed")
    assert entry.actor == organiser and entry.reason == "Granted to table 1 by mistake"
    assert entry.data["minutes"] == 4 and entry.data["table"] == 1
    assert entry.data["extension"] == wrong.pk and entry.data["standing"] == 5


def test_an_extension_removed_once_cannot_be_removed_again(hall, judge):
    _, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    clock.remove_extension(granted, judge, "Not needed")
    with refused("already removed"):
        clock.remove_extension(granted, judge, "Again")
    assert standing(table) == 0


@pytest.mark.parametrize(
    ("minutes", "message"),
    [
        (0, "at least one minute"),
        (-5, "at least one minute"),
        (51, "at most the round's length, 50 minutes"),
        (10**9, "at most the round's length"),
        ("5", "whole number"),
        (2.5, "whole number"),
        (True, "whole number"),
    ],
)
def test_minutes_are_from_1_to_the_rounds_length(hall, judge, minutes, message):
    _, table = hall
    with refused(message) as caught:
        clock.grant_extension(table, minutes, "Deck check", judge)
    assert caught.value.fields == ["minutes"]


def test_the_whole_round_length_may_be_granted(hall, judge):
    event, table = hall
    event.round_minutes = 30
    event.save()
    clock.grant_extension(table, 30, "Medical break", judge)
    assert standing(table) == 30
    with refused("at most the round's length, 30 minutes"):
        clock.grant_extension(table, 31, "Medical break", judge)


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_grant_needs_a_reason(hall, judge, reason):
    _, table = hall
    with refused("Give the reason") as caught:
        clock.grant_extension(table, 5, reason, judge)
    assert caught.value.fields == ["reason"]


def test_a_reason_is_kept_to_2000_characters(hall, judge):
    _, table = hall
    with refused("keep it to 2,000") as caught:
        clock.grant_extension(table, 5, "x" * 2001, judge)
    assert caught.value.fields == ["reason"]


def test_removing_needs_a_reason(hall, judge):
    _, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    with refused("Give the reason for removing") as caught:
        clock.remove_extension(granted, judge, " ")
    assert caught.value.fields == ["reason"]
    assert standing(table) == 5


def test_a_closed_round_gets_no_time_and_none_taken_back(hall, judge, organiser):
    _, table = hall
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    with refused("Round 1 is closed: table 1 can get no more time"):
        clock.grant_extension(table, 5, "Late", judge)
    with refused("Round 1 is closed"):
        clock.remove_extension(granted, judge, "Late")


def test_a_bye_has_no_clock(make_world, judge):
    world = make_world(3, started=True)
    bye = world.round.matches.get(is_bye=True)
    with refused("A bye has no clock") as caught:
        clock.grant_extension(bye, 5, "Deck check", judge)
    assert caught.value.fields == ["match"]


def test_no_warning_while_the_table_plays_or_its_result_is_disputed(hall, judge):
    _, table = hall
    assert clock.warning_for(table) is None
    results.report_result(table, table.player_a, Score(2, 1), table.player_a.user)
    results.report_result(table, table.player_b, Score(0, 2), table.player_b.user)  # disputes
    table.refresh_from_db()
    assert table.status == Match.Status.DISPUTED
    assert clock.warning_for(table) is None


def test_a_table_with_a_confirmed_result_is_warned_about_but_gets_the_time(hall, judge):
    _, table = hall
    results.report_result(table, table.player_a, Score(2, 1), table.player_a.user)
    results.confirm_result(table, table.player_b, table.player_b.user)
    table.refresh_from_db()
    assert clock.warning_for(table) == (
        "Table 1 already has a result (2-1, confirmed): the extra time changes nothing "
        "unless the result is corrected."
    )
    granted = clock.grant_extension(table, 5, "Deck check", judge)
    assert granted.is_standing and standing(table) == 5
    assert "(2-1, confirmed)" in clock.warning_for(granted.match)


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ("reported", "(2-1, reported)"),
        ("entered", "(0-2, entered by staff)"),
    ],
)
def test_a_reported_or_entered_result_is_warned_about(hall, organiser, setup, words):
    _, table = hall
    if setup == "reported":
        results.report_result(table, table.player_a, Score(2, 1), table.player_a.user)
    else:
        results.enter_result(table, Score(0, 2), organiser)
    table.refresh_from_db()
    assert words in clock.warning_for(table)


def test_a_judge_calls_extension_is_a_grant_with_the_resolution_as_reason(hall, judge):
    event, table = hall
    call = open_call(event, judge, question="Deck check", match=table)
    resolve_call(call, judge, resolution="Deck legal, 4 min lost", minutes=4, grant_extension=True)
    extension = table.extensions.get()
    assert (extension.minutes, extension.reason, extension.call) == (
        4,
        "Deck legal, 4 min lost",
        call.pk,
    )
    assert standing(table) == 4
    assert EventLog.objects.get(action="time_extension").data["call"] == call.pk


def test_a_judge_call_cannot_grant_more_than_the_round(hall, judge):
    event, table = hall
    call = open_call(event, judge, question="Medical", match=table)
    with pytest.raises(ServiceError, match="at most the round's length") as caught:
        resolve_call(call, judge, resolution="R", minutes=60, grant_extension=True)
    assert caught.value.fields == ["minutes"]
    call.refresh_from_db()
    assert call.is_open and standing(table) == 0
