"""An event's history read once, as the plain data the pure pairing modules take.

Pairing a round and showing the standings need the same facts: who is registered,
which Swiss rounds were paired, and each result. :meth:`EventHistory.read` reads
them in three queries, whatever the event's size (a fourth, for pairing, reads the
pairs the organiser keeps apart), and gives both the Swiss
engine's input (:meth:`EventHistory.swiss_players`) and the standings
(:meth:`EventHistory.standings_rows`). One rule covers a late entry: every Swiss
round paired with a number below their ``joined_round`` is a loss without an
opponent, for pairing points and standings alike (the Swiss points *are* the
standings' match points). Only Swiss rounds count; the top cut is a bracket.

This module is the only one that turns rows into the pure modules' input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db.models import Q

from pairing.standings import DEFAULT_TIEBREAKERS, compute_standings
from pairing.swiss import SwissPlayer
from tournaments.models import AvoidPair, Event, Match, Registration, Round
from tournaments.record.match_games import MatchGames
from tournaments.record.player_names import player_labels

# Keys the site adds to the contract's standings rows for its own pages: the
# registration's pk, and the name as pages print it ("Sam Lee #2" where two share it).
INTERNAL_KEYS = frozenset({"registration", "label"})


def public_row(row: dict[str, Any]) -> dict[str, Any]:
    """A standings row as the contract shows it: the site's own keys left out."""
    return {key: value for key, value in row.items() if key not in INTERNAL_KEYS}


def is_active_in(registration: Registration | Entry, round_number: int) -> bool:
    """Registered, checked in, joined by then, not dropped before it, not disqualified."""
    if registration.status == Registration.Status.WAITLISTED or registration.disqualified:
        return False
    if not registration.checked_in or registration.joined_round > round_number:
        return False
    dropped = registration.dropped_after_round
    return dropped is None or dropped >= round_number


def _match_winner(match: Match) -> int | None:
    """The winning Registration id, or None for a draw; a bye is its player's win."""
    return match.player_a_id if match.is_bye else MatchGames.of(match).winner


def round_winners(round_: Round) -> list[int | None]:
    """The winner (Registration id, None for a draw) at each table, in table order.

    Byes sit at no table and are left out: this is what a top-cut round advances.
    """
    return [_match_winner(m) for m in round_.matches.filter(is_bye=False).order_by("table")]


@dataclass(frozen=True, slots=True)
class Entry:
    """A registration as the plain values the standings read (``EventHistory.read``'s
    ``plain``): the same attribute names as the model's, so the same rules apply."""

    pk: int
    public_id: str
    display_name: str
    number: int | None
    status: str
    checked_in: bool
    joined_round: int
    dropped_after_round: int | None
    disqualified: bool

    COLUMNS = (
        "pk",
        "external_id",
        *Registration.NAME_FIELDS,
        "status",
        "checked_in",
        "joined_round",
        "dropped_after_round",
        "disqualified",
    )

    @classmethod
    def of(cls, pk, external_id, name, number, first, last, username, *state) -> Entry:
        """An entry from one row of :attr:`COLUMNS`."""
        shown = Registration.name_shown(name, first, last, username, number)
        return cls(pk, Registration.public_id_of(external_id, pk), shown, number, *state)


@dataclass(frozen=True)
class EventHistory:
    """Registrations, paired Swiss rounds and results of one event, as read at one moment.

    ``results`` are the standings module's match entries (section 3 of
    ``pairing-and-events.md``, ids being ``Registration.public_id``), in round and
    table order: byes, matches with a result, and the rounds late entries missed.
    ``avoid``: by public id, the players each must not meet in Swiss (both directions;
    read for pairing only, empty for the standings' ``plain`` read).
    """

    event: Event
    registrations: list[Registration] | list[Entry]
    swiss_rounds: list[int]
    results: list[dict[str, Any]]
    avoid: dict[str, list[str]] = field(default_factory=dict)
    # A main event's Day 1 players who play no Day 2 here (all of them before the gate):
    # their records count (as opponents, in the standings), they are never paired here.
    day1_only: list[Entry] = field(default_factory=list)
    gate_applied: bool = False

    @classmethod
    def read(cls, event: Event, plain: bool = False, kept_apart: bool = True) -> EventHistory:
        """One query each for registrations, Swiss rounds and their matches.

        ``plain``: the registrations as :class:`Entry` values, for the standings, which
        read only these columns (20,000 model instances and their accounts cost more
        than computing the standings); pairing keeps the model instances it seats.
        ``kept_apart``: also read the pairs that must not meet (a fourth query; never
        with ``plain``, the standings do not need them).
        """
        ordered = event.registrations.order_by("registered_at", "pk")
        if plain:
            registrations = [Entry.of(*row) for row in ordered.values_list(*Entry.COLUMNS)]
        else:
            registrations = list(ordered.select_related("user"))
        # The event's Swiss rounds and, for a main event, its flights' (Day 1): one query.
        rounds = Round.objects.filter(
            Q(event_id=event.pk) | Q(event__parent_id=event.pk), kind=Round.Kind.SWISS
        ).values_list("pk", "number", "event_id")
        numbers, day1_numbers = {}, {}
        for pk, number, owner in rounds:
            (numbers if owner == event.pk else day1_numbers)[pk] = number
        matches = (
            Match.objects.filter(round__in=list(numbers))
            .order_by("round__number", "table")
            .values_list(*_PlayedMatch._fields)
        )
        public = {r.pk: r.public_id for r in registrations}
        played = [_result(_PlayedMatch(*row), numbers[row[0]], public) for row in matches]
        missed = _missed_rounds(registrations, sorted(numbers.values()))
        day1 = _Day1.read(event, day1_numbers)
        return cls(
            event=event,
            registrations=registrations,
            swiss_rounds=sorted(set(numbers.values()) | set(day1.numbers)),
            results=day1.results + missed + [entry for entry in played if entry is not None],
            avoid=_avoid_lists(event, public) if kept_apart and not plain else {},
            day1_only=day1.not_carried,
            gate_applied=event.gate_applied_at is not None,
        )

    def active_in(self, round_number: int) -> list[Registration]:
        """The players round ``round_number`` pairs, in registration order."""
        return [r for r in self.registrations if is_active_in(r, round_number)]

    def standings_input(
        self, through_round: int | None = None
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(players, matches) for :func:`pairing.standings.compute_standings`."""
        players = [
            {
                "id": r.public_id,
                "name": r.display_name,
                "registration": r.pk,
                "dropped": _dropped_by(r, through_round),
                "disqualified": r.disqualified,
            }
            for r in [*self.registrations, *self.day1_only]
            if r.status != Registration.Status.WAITLISTED
        ]
        matches = [
            entry
            for entry in self.results
            if through_round is None or entry["round"] <= through_round
        ]
        return players, matches

    def standings_rows(self, through_round: int | None = None) -> list[dict[str, Any]]:
        """Contract rows in rank order, each with its ``registration`` pk added."""
        players, matches = self.standings_input(through_round)
        event = self.event
        rows = compute_standings(
            players,
            matches,
            points={"win": event.points_win, "draw": event.points_draw, "loss": event.points_loss},
            tiebreakers=event.tiebreakers or DEFAULT_TIEBREAKERS,
        )
        registration_of = {p["id"]: p["registration"] for p in players}
        labels = player_labels([*self.registrations, *self.day1_only])
        for row in rows:
            row["registration"] = registration_of[row["player"]]
            row["label"] = labels[row["registration"]]
        if self.gate_applied:
            rows = _day2_first(rows, {r.public_id for r in self.registrations})
        return rows

    def public_rows(self) -> list[dict[str, Any]]:
        """The rows exactly as the contract shows them (no internal keys)."""
        return [public_row(row) for row in self.standings_rows()]

    def swiss_players(self, round_number: int) -> list[SwissPlayer]:
        """The engine's input for round ``round_number``: its active players, standings order.

        Points are the standings' match points after the rounds before it (so a missed
        round is the same loss in both); the standings' order carries the event's
        tiebreakers, and registration order breaks what remains. Players with no
        standings row yet (nothing played) sort as the top of their points.
        """
        rows = self.standings_rows(through_round=round_number - 1)
        points = {row["registration"]: row["match_points"] for row in rows}
        rank = {row["registration"]: i for i, row in enumerate(rows)}
        opponents, had_bye = self._meetings(before_round=round_number)
        active = self.active_in(round_number)
        active.sort(key=lambda r: (-points.get(r.pk, 0), rank.get(r.pk, 0), r.pk))
        return [
            SwissPlayer(
                id=r.public_id,
                points=points.get(r.pk, 0),
                opponents=tuple(opponents.get(r.public_id, ())),
                had_bye=r.public_id in had_bye,
                avoid=tuple(self.avoid.get(r.public_id, ())),
            )
            for r in active
        ]

    def _meetings(self, before_round: int) -> tuple[dict[str, list[str]], set[str]]:
        """Who met whom, and who had a bye, in the Swiss rounds before ``before_round``."""
        opponents: dict[str, list[str]] = {}
        had_bye: set[str] = set()
        for entry in self.results:
            if entry["round"] >= before_round or entry.get("missed"):
                continue
            if entry.get("bye"):
                had_bye.add(entry["players"][0])
                continue
            a, b = entry["players"]
            opponents.setdefault(a, []).append(b)
            opponents.setdefault(b, []).append(a)
        return opponents, had_bye


def _avoid_lists(event: Event, public: dict[int, str]) -> dict[str, list[str]]:
    """The organiser's must-not-meet pairs as the engine's ``avoid`` lists, by public id."""
    avoid: dict[str, list[str]] = {}
    for first, second in AvoidPair.objects.filter(event=event).values_list("first", "second"):
        if first in public and second in public:
            avoid.setdefault(public[first], []).append(public[second])
            avoid.setdefault(public[second], []).append(public[first])
    return avoid


def standings_rows(event: Event, through_round: int | None = None) -> list[dict[str, Any]]:
    """The event's standings rows (with ``registration``), after ``through_round`` if given."""
    return EventHistory.read(event, kept_apart=False).standings_rows(through_round)


def public_rows(event: Event) -> list[dict[str, Any]]:
    """The event's standings exactly as the contract shows them."""
    return EventHistory.read(event, kept_apart=False).public_rows()


def _day2_first(rows: list[dict[str, Any]], day2: set[str]) -> list[dict[str, Any]]:
    """After the gate every Day 2 player places above every player who stayed on Day 1
    (each group in its standings order), and each row says which it is (``day2``)."""
    ordered = [row for row in rows if row["player"] in day2]
    ordered += [row for row in rows if row["player"] not in day2]
    for rank, row in enumerate(ordered, start=1):
        row["rank"] = rank
        row["day2"] = row["player"] in day2
    return ordered


@dataclass(frozen=True)
class _Day1:
    """A main event's Day 1, read from its flights: their Swiss results (by the flight
    entries' public ids, which the carried Day 2 entries keep) and the entries that were
    not carried into Day 2."""

    numbers: list[int]
    results: list[dict[str, Any]]
    not_carried: list[Entry]

    @classmethod
    def read(cls, event: Event, numbers: dict[int, int]) -> _Day1:
        """Two queries once the flights have rounds (``numbers``: round pk → number);
        none before, or for an event without flights."""
        if not numbers:
            return cls([], [], [])
        entries = (
            Registration.objects.filter(event__parent_id=event.pk)
            .order_by("event_id", "registered_at", "pk")
            .values_list(*Entry.COLUMNS, "carried_to")
        )
        everyone, not_carried = [], []
        for *row, carried_to in entries:
            entry = Entry.of(*row)
            everyone.append(entry)
            if carried_to is None:
                not_carried.append(entry)
        matches = (
            Match.objects.filter(round__in=list(numbers))
            .order_by("round__number", "round__event_id", "table")
            .values_list(*_PlayedMatch._fields)
        )
        public = {r.pk: r.public_id for r in everyone}
        played = [_result(_PlayedMatch(*row), numbers[row[0]], public) for row in matches]
        missed = _missed_rounds(everyone, sorted(set(numbers.values())))
        results = missed + [entry for entry in played if entry is not None]
        return cls(sorted(set(numbers.values())), results, not_carried)


def _dropped_by(registration: Registration | Entry, through_round: int | None) -> bool:
    """Dropped, and (for the standings after a past round) already gone by then: a
    player who left after round 5 is not marked dropped in the standings after round 3."""
    if registration.status != Registration.Status.DROPPED:
        return False
    last = registration.dropped_after_round
    return through_round is None or last is None or last <= through_round


class _PlayedMatch(NamedTuple):
    """The columns of a match the standings read, as plain values: a large event's
    matches cost several times more built as model instances (issue 18)."""

    round_id: int
    player_a_id: int
    player_b_id: int | None
    is_bye: bool
    status: str
    games: list
    forced_games: list


def _result(match: _PlayedMatch, number: int, public: dict[int, str]) -> dict[str, Any] | None:
    """A match as a standings entry; None while it has no result."""
    if match.is_bye:
        return {"round": number, "players": [public[match.player_a_id]], "bye": True}
    if not Match.result_stands(match.is_bye, match.status):
        return None
    return {
        "round": number,
        "players": [public[match.player_a_id], public[match.player_b_id]],
        "games": MatchGames.of(match).public(public),
    }


def _missed_rounds(
    registrations: list[Registration] | list[Entry], numbers: list[int]
) -> list[dict]:
    """The one rule: a Swiss round paired before a player joined is a loss, no opponent."""
    return [
        {"round": n, "players": [r.public_id], "missed": True}
        for r in registrations
        if r.joined_round > 1 and r.status != Registration.Status.WAITLISTED
        for n in numbers
        if n < r.joined_round
    ]
