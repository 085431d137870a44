"""The judge console as a queue: what is waiting for a judge, and since when.

Five kinds of item: a disputed result (since the dispute), an open judge call (since
the call), a table still playing when its time is up (since the moment time was
called for it: the round's end plus the table's extension), a time extension running
(since it was granted) and a recent penalty (since it was issued).

Order, as the console states it: what waits is listed oldest first, so the longest
wait is at the top; penalties are a record, listed newest first. ``waiting_first`` and
``newest_first`` are the pure part (plain items in, ordered items out) and
``build_queue`` reads the event's rows into items.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from judging.penalties import consequence_name
from tournaments.models import Event, Match, MatchClaim, Round, TimeExtension
from tournaments.record.rounds import latest_round

DISPUTE, CALL, TIME, EXTENSION, PENALTY = "dispute", "call", "time", "extension", "penalty"
KIND_LABELS = {
    DISPUTE: _lazy("Disputed result"),
    CALL: _lazy("Judge call"),
    TIME: _lazy("Time is up, still playing"),
    EXTENSION: _lazy("Extension running"),
    PENALTY: _lazy("Penalty"),
}
# Among items that began at the same moment, the one a judge must act on first.
URGENCY = (DISPUTE, CALL, TIME, EXTENSION, PENALTY)
RECENT_PENALTIES = 10
FINISHED = (Match.Status.CONFIRMED, Match.Status.FINAL)


@dataclass(frozen=True)
class QueueItem:
    """One line of the queue: what, at which table, since when and in words."""

    kind: str
    table: int | None
    match_id: int | None
    since: datetime.datetime | None
    minutes: int | None
    words: str
    call_id: int | None = None
    void: bool = False

    @property
    def label(self) -> str:
        return str(KIND_LABELS[self.kind])

    @property
    def waited(self) -> str:
        """The minutes since it began as the console shows them: "12 min"."""
        if self.minutes is None:
            return _("since an unknown time")
        if self.minutes == 0:
            return _("<1 min")
        return _("%(minutes)s min") % {"minutes": self.minutes}


@dataclass(frozen=True)
class Queue:
    """The console's queue at ``now``: waiting items oldest first, penalties newest first."""

    now: datetime.datetime
    waiting: list[QueueItem] = field(default_factory=list)
    penalties: list[QueueItem] = field(default_factory=list)


def minutes_since(since: datetime.datetime | None, now: datetime.datetime) -> int | None:
    """Whole minutes from ``since`` to ``now`` (never negative: clocks drift)."""
    if since is None:
        return None
    return max(0, int((now - since).total_seconds() // 60))


def make_item(
    kind: str,
    *,
    table: int | None,
    match_id: int | None,
    since: datetime.datetime | None,
    words: str,
    now: datetime.datetime,
    call_id: int | None = None,
    void: bool = False,
) -> QueueItem:
    """An item with its minutes counted at ``now``."""
    if kind not in KIND_LABELS:
        raise ValueError(f"Unknown queue item kind {kind!r}")
    minutes = minutes_since(since, now)
    return QueueItem(kind, table, match_id, since, minutes, words, call_id, void)


def waiting_first(items: list[QueueItem]) -> list[QueueItem]:
    """Oldest first (the longest wait at the top); items of unknown start last; ties by
    urgency, then table."""
    far_future = datetime.datetime.max.replace(tzinfo=datetime.UTC)

    def key(item: QueueItem):
        since = item.since or far_future
        return (since, URGENCY.index(item.kind), item.table or 0)

    return sorted(items, key=key)


def newest_first(items: list[QueueItem]) -> list[QueueItem]:
    """The newest first, as a record is read (the last penalty issued at the top)."""
    far_past = datetime.datetime.min.replace(tzinfo=datetime.UTC)
    return sorted(items, key=lambda item: item.since or far_past, reverse=True)


# --- reading the event's rows ------------------------------------------------------------


def build_queue(event: Event, now: datetime.datetime) -> Queue:
    """Everything waiting for a judge at ``event`` at ``now``, and its recent penalties."""
    current = latest_round(event)
    overdue = _time_called(current, now)
    waiting = [
        *_disputes(event, now),
        *_open_calls(event, now),
        *overdue.values(),
        *_extensions(current, set(overdue), now),
    ]
    return Queue(now, waiting_first(waiting), newest_first(_penalties(event, now)))


def _players(match: Match) -> str:
    b = match.player_b.display_name if match.player_b else "—"
    return _("%(player_a)s v %(player_b)s") % {
        "player_a": match.player_a.display_name,
        "player_b": b,
    }


def _disputes(event: Event, now: datetime.datetime) -> list[QueueItem]:
    """Disputed matches of the event, since the latest dispute claim (or logged dispute)."""
    matches = (
        Match.objects.filter(round__event=event, status=Match.Status.DISPUTED)
        .select_related("player_a__user", "player_b__user")
        .annotate(
            claimed_at=Max("claims__at", filter=Q(claims__kind=MatchClaim.Kind.DISPUTE)),
            logged_at=Max("changes__changed_at", filter=Q(changes__action="dispute")),
        )
    )
    return [
        make_item(
            DISPUTE,
            table=m.table,
            match_id=m.pk,
            since=m.claimed_at or m.logged_at,
            words=_("%(players)s: the players disagree on the result.") % {"players": _players(m)},
            now=now,
        )
        for m in matches
    ]


def _open_calls(event: Event, now: datetime.datetime) -> list[QueueItem]:
    calls = event.judge_calls.filter(resolved_at__isnull=True).select_related("match")
    return [
        make_item(
            CALL,
            table=call.table or (call.match.table if call.match else None),
            match_id=call.match_id,
            since=call.called_at,
            words=call.question,
            now=now,
            call_id=call.pk,
        )
        for call in calls
    ]


def _unfinished(current: Round | None):
    if current is None:
        return Match.objects.none()
    return (
        current.matches.filter(is_bye=False)
        .exclude(status__in=FINISHED)
        .select_related("player_a__user", "player_b__user")
    )


def _time_called(current: Round | None, now: datetime.datetime) -> dict[int, QueueItem]:
    """Tables of the running round with no report yet whose time (with their extension)
    is up, by match id, each since the moment its time was up."""
    if current is None or current.status != Round.Status.RUNNING or current.ends_at is None:
        return {}
    overdue = {}
    for m in _unfinished(current).filter(status=Match.Status.PENDING):
        time_up = current.ends_at + datetime.timedelta(minutes=m.extension_minutes)
        if time_up > now:
            continue
        if m.extension_minutes:
            words = _("%(players)s: no result yet (after a %(minutes)s min extension).") % {
                "players": _players(m),
                "minutes": m.extension_minutes,
            }
        else:
            words = _("%(players)s: no result yet.") % {"players": _players(m)}
        overdue[m.pk] = make_item(
            TIME,
            table=m.table,
            match_id=m.pk,
            since=time_up,
            words=words,
            now=now,
        )
    return overdue


def _extensions(
    current: Round | None, overdue: set[int], now: datetime.datetime
) -> list[QueueItem]:
    """Standing extensions of the current round's unfinished tables, one item each. A
    table whose extended time is already up is listed as time called instead."""
    if current is None:
        return []
    rows = (
        TimeExtension.objects.filter(match__in=_unfinished(current), removed_at__isnull=True)
        .exclude(match__in=overdue)
        .select_related("match")
    )
    return [
        make_item(
            EXTENSION,
            table=row.match.table,
            match_id=row.match_id,
            since=row.granted_at,
            words=(
                _("+%(minutes)s min: %(reason)s") % {"minutes": row.minutes, "reason": row.reason}
                if row.reason
                else _("+%(minutes)s min") % {"minutes": row.minutes}
            )
            + _time_left(current, row.match, now),
            now=now,
        )
        for row in rows
    ]


def _time_left(current: Round, match: Match, now: datetime.datetime) -> str:
    """What is left on the table's clock (" · 5 min left") while the round runs."""
    if current.status != Round.Status.RUNNING or current.ends_at is None:
        return ""
    time_up = current.ends_at + datetime.timedelta(minutes=match.extension_minutes)
    left = max(0, int((time_up - now).total_seconds() // 60))
    return " · " + _("%(minutes)s min left") % {"minutes": left}


def _consequences(penalty) -> str:
    results = [str(c.get("result")) for c in penalty.consequences]
    names = [consequence_name(result) for result in results]
    return f" → {', '.join(names)}" if names else ""


def _penalties(event: Event, now: datetime.datetime) -> list[QueueItem]:
    penalties = event.penalties.select_related("player__user", "match").order_by(
        "-issued_at", "-pk"
    )[:RECENT_PENALTIES]
    return [
        make_item(
            PENALTY,
            table=p.match.table if p.match else None,
            match_id=p.match_id,
            since=p.issued_at,
            words=f"{p.player.display_name}: {p.get_infraction_display()}{_consequences(p)}"
            + (" " + _("(void)") if p.is_void else ""),
            now=now,
            void=p.is_void,
        )
        for p in penalties
    ]
