"""The live schedule (pairing.schedule), times counted by hand.

The plan of every test: round 1 at 10:00, 50-minute rounds, 10-minute breaks, so the
rounds are planned at 10:00, 11:00, 12:00, 13:00…
"""

from __future__ import annotations

import datetime

from pairing.schedule import (
    Plan,
    Played,
    cut_rounds,
    lateness,
    minutes_between,
    next_slot,
    running_delay,
    schedule,
)

UTC = datetime.UTC


def at(hhmm: str) -> datetime.datetime:
    hours, minutes = map(int, hhmm.split(":"))
    return datetime.datetime(2027, 5, 8, hours, minutes, tzinfo=UTC)


PLAN = Plan(first_start=at("10:00"), round_minutes=50, break_minutes=10, swiss_rounds=4)


def starts(slots) -> list[str]:
    return [f"{s.expected_start:%H:%M}" if s.expected_start else "-" for s in slots]


def test_nothing_played_yet_every_round_is_where_the_plan_puts_it():
    slots = schedule(PLAN)
    assert [f"{s.planned_start:%H:%M}" for s in slots] == ["10:00", "11:00", "12:00", "13:00"]
    assert starts(slots) == ["10:00", "11:00", "12:00", "13:00"]
    assert [s.delay_minutes for s in slots] == [0, 0, 0, 0]
    assert running_delay(slots) == 0 and lateness(0) == "on_time"


def test_a_late_first_round_moves_every_round_after_it():
    # Round 1 started at 10:12: its planned end is 11:02, round 2 follows at 11:12.
    slots = schedule(PLAN, [Played(1, started_at=at("10:12"))], now=at("10:30"))
    assert starts(slots) == ["10:12", "11:12", "12:12", "13:12"]
    assert [s.delay_minutes for s in slots] == [12, 12, 12, 12]
    assert f"{slots[0].expected_end:%H:%M}" == "11:02"
    assert next_slot(slots).number == 2
    assert running_delay(slots) == 12 and lateness(12) == "late"


def test_a_round_running_late_with_an_extension():
    """Round 2 started on time at 11:00; a table has 7 minutes more, and time was called
    at 11:50: the round is expected to end at 11:57, round 3 to start at 12:07. Once the
    hall's clock passes 11:57 with the table still playing, round 3 waits for it."""
    played = [
        Played(1, started_at=at("10:00"), closed_at=at("10:55")),
        Played(2, started_at=at("11:00"), longest_extension=7),
    ]
    slots = schedule(PLAN, played, now=at("11:52"))
    assert starts(slots) == ["10:00", "11:00", "12:07", "13:07"]
    assert f"{slots[1].expected_end:%H:%M}" == "11:57"
    assert running_delay(slots) == 7
    # 12:03, the table still plays: the round ends no earlier than now.
    slots = schedule(PLAN, played, now=at("12:03"))
    assert starts(slots)[2:] == ["12:13", "13:13"]
    assert running_delay(slots) == 13
    # Without a clock (the calendar file), the expectation is only what is known.
    assert starts(schedule(PLAN, played))[2:] == ["12:07", "13:07"]


def test_between_rounds_the_next_round_starts_a_break_after_the_close():
    played = [
        Played(1, started_at=at("10:00"), closed_at=at("10:58")),
        Played(2, started_at=at("11:08"), closed_at=at("12:14")),
    ]
    slots = schedule(PLAN, played, now=at("12:15"))
    # Round 3: 12:14 + 10 = 12:24, planned 12:00: 24 minutes late.
    assert starts(slots) == ["10:00", "11:08", "12:24", "13:24"]
    assert [s.delay_minutes for s in slots] == [0, 8, 24, 24]
    assert running_delay(slots) == 24
    # The break overruns: at 12:31 round 3 has not started; it starts no earlier than now.
    late = schedule(PLAN, played, now=at("12:31"))
    assert starts(late)[2:] == ["12:31", "13:31"]
    assert running_delay(late) == 31


def test_a_round_closed_early_puts_the_next_one_ahead_of_schedule():
    played = [Played(1, started_at=at("10:00"), closed_at=at("10:35"))]
    slots = schedule(PLAN, played, now=at("10:36"))
    assert starts(slots)[1] == "10:45"
    assert running_delay(slots) == -15 and lateness(-15) == "early"


def test_round_one_waits_for_its_planned_time_then_for_the_hall():
    assert starts(schedule(PLAN, now=at("09:00")))[0] == "10:00"
    slots = schedule(PLAN, now=at("10:20"))  # 10:20 and round 1 has not started
    assert starts(slots) == ["10:20", "11:20", "12:20", "13:20"]
    assert running_delay(slots) == 20


def test_the_top_cut_adds_log2_rounds_after_the_swiss():
    assert [cut_rounds(n) for n in (0, 1, 2, 4, 8, 16)] == [0, 0, 1, 2, 3, 4]
    slots = schedule(Plan(at("10:00"), 50, 10, swiss_rounds=3, top_cut=8))
    assert [s.kind for s in slots] == ["swiss"] * 3 + ["top_cut"] * 3
    assert f"{slots[-1].planned_start:%H:%M}" == "15:00"


def test_without_a_planned_start_times_come_from_the_first_start():
    plan = Plan(None, 50, 10, swiss_rounds=3)
    assert starts(schedule(plan)) == ["-", "-", "-"]
    slots = schedule(plan, [Played(1, started_at=at("14:05"))])
    assert starts(slots) == ["14:05", "15:05", "16:05"]
    assert [s.delay_minutes for s in slots] == [None, None, None]
    assert running_delay(slots) is None and lateness(None) is None


def test_a_finished_event_lists_the_rounds_it_played_and_no_more():
    played = [Played(n, started_at=at(f"{9 + n}:00"), closed_at=at(f"{9 + n}:50")) for n in (1, 2)]
    assert len(schedule(PLAN, played, finished=True)) == 2
    # More rounds played than planned: they are listed too.
    extra = [*played, Played(5, started_at=at("14:00"))]
    assert [s.number for s in schedule(PLAN, extra)] == [1, 2, 3, 4, 5]


def test_times_past_the_calendars_end_are_unknown_not_an_error():
    # A day short of the end: any zone's clock can still show every time given.
    end = datetime.datetime(9999, 12, 30, 23, 0, tzinfo=UTC)
    slots = schedule(Plan(end, 50, 10, swiss_rounds=3))
    assert slots[0].expected_start == end
    assert slots[0].expected_end == end + datetime.timedelta(minutes=50)
    assert slots[1].planned_start is None and slots[1].expected_start is None
    assert slots[2].expected_end is None
    # Likewise at the calendar's start (a zone's local mean time may be hours behind UTC).
    first = datetime.datetime(1, 1, 1, tzinfo=UTC)
    assert schedule(Plan(first, 50, 10, swiss_rounds=1))[0].planned_start is None


def test_minutes_round_to_the_nearest():
    assert minutes_between(at("10:00"), at("10:00") + datetime.timedelta(seconds=29)) == 0
    assert minutes_between(at("10:00"), at("10:00") + datetime.timedelta(seconds=30)) == 1
    assert minutes_between(at("10:00"), at("10:00") - datetime.timedelta(seconds=89)) == -1
