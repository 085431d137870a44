"""A judges' floor mid-round, with one of everything the console's queue lists.

Eight players, round 1 running and its time up five minutes ago (``round_minutes``
and five minutes since the start):

* table 1: disputed (the players reported different results) 15 minutes ago;
* table 2: a judge call open for 7 minutes, no report yet (so its time is up too);
* table 3: a 10-minute extension granted 20 minutes ago, still running (5 minutes left),
  and a removed one that no longer counts;
* table 4: no report, no extension: time up 5 minutes ago;
* penalties: a Slow Play Warning at table 2 three minutes ago and one at table 4 one
  minute ago; a resolved call at table 4 that the queue leaves out.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from judging.models import JudgeCall, Penalty
from judging.penalties import issue_penalty
from tournaments.models import Event, Match, MatchClaim, ResultChange, Round, TimeExtension
from tournaments.record.match_games import Score
from tournaments.results import services as results


@dataclass
class Floor:
    event: Event
    now: datetime.datetime
    tables: dict[int, Match]
    call: JudgeCall


def ago(now: datetime.datetime, minutes: float) -> datetime.datetime:
    return now - datetime.timedelta(minutes=minutes)


def busy_floor(make_world) -> Floor:
    world = make_world(8, started=True, name="Floor Open")
    event, round_, judge = world.event, world.round, world.judge
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(started_at=ago(now, event.round_minutes + 5))
    tables = {n: world.table(n) for n in (1, 2, 3, 4)}

    disputed = tables[1]
    results.report_result(disputed, disputed.player_a, Score(2, 1), disputed.player_a.user)
    results.report_result(disputed, disputed.player_b, Score(0, 2), disputed.player_b.user)
    assert Match.objects.get(pk=disputed.pk).status == Match.Status.DISPUTED
    ResultChange.objects.filter(match=disputed, action="dispute").update(changed_at=ago(now, 15))
    MatchClaim.objects.filter(match=disputed, kind=MatchClaim.Kind.DISPUTE).update(at=ago(now, 15))

    call = JudgeCall.objects.create(
        event=event,
        round=round_,
        match=tables[2],
        table=2,
        question="May I respond to the attack?",
        called_at=ago(now, 7),
    )
    JudgeCall.objects.create(
        event=event,
        round=round_,
        match=tables[4],
        table=4,
        question="Already answered",
        called_at=ago(now, 30),
        resolved_at=ago(now, 25),
        resolution="Yes",
    )

    extended = tables[3]
    TimeExtension.objects.create(
        match=extended, minutes=10, reason="Deck check", granted_by=judge, granted_at=ago(now, 20)
    )
    TimeExtension.objects.create(
        match=extended,
        minutes=4,
        reason="Wrong table",
        granted_by=judge,
        granted_at=ago(now, 22),
        removed_at=ago(now, 21),
        removed_by=judge,
        removal_reason="Granted to the wrong table",
    )
    Match.objects.filter(pk=extended.pk).update(extension_minutes=10)

    for table, minutes in ((2, 3), (4, 1)):
        penalty = issue_penalty(
            tables[table].player_a, "slow_play", judge, game=1, match=tables[table]
        )
        Penalty.objects.filter(pk=penalty.pk).update(issued_at=ago(now, minutes))
    return Floor(event, now, {n: Match.objects.get(pk=m.pk) for n, m in tables.items()}, call)
