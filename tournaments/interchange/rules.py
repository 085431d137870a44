"""The rules of ``arbiter-event/1`` that a JSON Schema cannot state, because they relate
one part of the file to another: ids that must exist (in ``players``, in the match),
ids used once, rounds numbered in order with the top cut last and no Swiss round beyond
``event.swiss_rounds``, nobody seated twice in a round or before joining or after
dropping, a table used once a round, a winner in every top-cut match, and no unfinished
match. An event in phases (``phases``) adds its own: see :func:`_phase_findings`.

They run on documents the schema may have refused too, so that one pass lists every
problem: a part of the wrong shape is skipped here (the schema has said what is wrong
with it), never reported twice.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tournaments.interchange.problems import Finding, Where, path_text, show
from tournaments.interchange.schema import MAX_AWARDED_BYES, MAX_ROUNDS, PENDING
from tournaments.models import Round
from web.local_time import zone_problem


def player_key(value: Any) -> str | None:
    """A reference to a player as its lookup key (a whole number is read as its decimal
    text, as the format says), or None when it cannot be an id."""
    number = whole_number(value)
    if number is not None:
        return str(number)
    return value if isinstance(value, str) else None


def whole_number(value: Any) -> int | None:
    """``value`` as an int when JSON Schema counts it an integer (``2`` or ``2.0``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _items(value: Any) -> list:
    return value if isinstance(value, list) else []


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


class _Rules:
    """One walk over the document, adding a finding for each broken rule."""

    def __init__(self, rounds: Any, prefix: Where = (), first: int = 1) -> None:
        """``rounds``: the phase's rounds (the document's, or a flight's at ``prefix``);
        ``first``: the number of its first round (Day 2's follow Day 1's)."""
        self.round_count = len(rounds) if isinstance(rounds, list) else None
        self.prefix = prefix
        self.first = first
        self.findings: list[Finding] = []
        self.joined: dict[str, int] = {}  # every usable player id: its first round
        # Players of the file who do not play in this phase: why, for a seat naming them.
        self.outside: dict[str, str] = {}
        self.dropped: dict[str, int] = {}
        self.seats: list[tuple[str, int, Where]] = []  # (player, round number, where)
        self.byes: dict[str, tuple[int, int]] = {}  # awarded byes: (count, players index)
        self.bye_seats: set[tuple[str, int]] = set()  # (player, round number) of each bye

    def not_here(self, value: Any, key: str) -> str:
        """Why ``key`` (in the file as ``value``) cannot be seated or dropped here."""
        return self.outside.get(key) or f"{show(value)} is not in players"

    def add(self, where: Where, message: str) -> None:
        self.findings.append((where, message))

    def time_zone(self, event: Any) -> None:
        """A zone name the schema lets through must still be one the site knows."""
        name = event.get("time_zone") if _is_object(event) else None
        if isinstance(name, str) and name.strip():
            problem = zone_problem(name)
            if problem:
                self.add(("event", "time_zone"), problem)

    def players(self, items: list, last_joins: dict[str, int] | None = None) -> None:
        """Ids used once, and each ``joined_round`` a round of the player's phase (or one
        past its last): ``last_joins`` gives that bound per player in an event in phases."""
        first: dict[str, int] = {}
        default = (self.round_count if self.round_count is not None else MAX_ROUNDS) + 1
        for index, item in enumerate(items):
            key = player_key(item.get("id")) if _is_object(item) else None
            if key is None:
                continue
            if key in first:
                self.add(
                    ("players", index, "id"),
                    f"{show(key)} is already the id of players[{first[key]}]",
                )
                continue
            first[key] = index
            last_join = (last_joins or {}).get(key, default)
            joined = whole_number(item.get("joined_round", 1))
            if joined is not None and last_join < joined <= MAX_ROUNDS + 1:
                self.add(
                    ("players", index, "joined_round"),
                    f"must be between 1 and {last_join}, not {joined}",
                )
            usable = joined is not None and 1 <= joined <= last_join
            self.joined[key] = joined if usable else 1
            byes = whole_number(item.get("byes", 0))
            if byes is not None and 0 < byes <= MAX_AWARDED_BYES:
                self.byes[key] = (byes, index)

    def rounds(
        self, items: list, swiss_rounds: int | None = None, setting: str = "event.swiss_rounds"
    ) -> None:
        """Numbered in order, the top cut last, and no more Swiss rounds than the file's
        ``event.swiss_rounds`` (when it gives one): a 4th Swiss round in an event of 3 would
        change its standings without anyone having played it as planned. A flight's rounds
        are checked against its own ``swiss_rounds`` (``setting``) and are Swiss only."""
        top_cut_started = False
        flight = bool(self.prefix)
        for index, item in enumerate(items):
            if not _is_object(item):
                continue
            where: Where = (*self.prefix, "rounds", index)
            expected = self.first + index
            number = whole_number(item.get("number"))
            if number is not None and number != expected:
                order = (
                    "rounds are numbered 1, 2, 3… in order"
                    if self.first == 1
                    else f"Day 2's rounds are numbered on from Day 1's {self.first - 1}, in order"
                )
                self.add(
                    (*where, "number"), f"must be {expected}: {order}, not {show(item['number'])}"
                )
            kind = item.get("kind", Round.Kind.SWISS)
            if kind == Round.Kind.TOP_CUT and flight:
                self.add(
                    (*where, "kind"),
                    "a flight plays Swiss rounds only: the top cut is the main event's (rounds)",
                )
            if kind == Round.Kind.SWISS and top_cut_started:
                self.add((*where, "kind"), "a Swiss round cannot follow the top cut")
            if kind == Round.Kind.SWISS and swiss_rounds and expected > swiss_rounds:
                self.add(
                    where,
                    f"round {expected} is a Swiss round beyond the {swiss_rounds} of "
                    f"{setting}: raise {setting}, or leave round {expected} out of the file"
                    if flight
                    else f"round {expected} is a Swiss round beyond the event's {swiss_rounds} "
                    f"(event.swiss_rounds): raise event.swiss_rounds, or leave round "
                    f"{expected} out of the file",
                )
            top_cut_started = top_cut_started or kind == Round.Kind.TOP_CUT
            self.matches(_items(item.get("matches")), where, expected, kind == Round.Kind.TOP_CUT)

    def matches(self, items: list, round_where: Where, number: int, top_cut: bool) -> None:
        seated: dict[str, Where] = {}
        tables: dict[int, Where] = {}
        for index, item in enumerate(items):
            if _is_object(item):
                self.match(item, (*round_where, "matches", index), number, top_cut, seated, tables)

    def match(
        self,
        item: dict[str, Any],
        where: Where,
        number: int,
        top_cut: bool,
        seated: dict[str, Where],
        tables: dict[int, Where],
    ) -> None:
        table = whole_number(item.get("table"))
        if table is not None and table in tables:
            self.add((*where, "table"), f"table {table} is also {path_text(tables[table])}")
        elif table is not None:
            tables[table] = where
        if item.get("result") == PENDING:
            self.add(
                (*where, "result"),
                "this match has no result yet: only finished rounds can be imported "
                f"(enter the result, or leave round {number} out of the file)",
            )
        bye = item.get("bye", False) is True
        players = item.get("players")
        if not isinstance(players, list) or len(players) != (1 if bye else 2):
            return
        before = len(self.findings)
        keys = self.match_players(players, where, bye, number, seated)
        if bye or not isinstance(item.get("games"), list):
            return
        winners = self.winners(item["games"], where, keys)
        clean = winners is not None and len(self.findings) == before and "result" not in item
        if top_cut and clean:
            wins = Counter(winners)
            if wins[keys[0]] == wins[keys[1]]:
                self.add((*where, "games"), "a top-cut match needs a winner, not a draw")

    def match_players(
        self, players: list, where: Where, bye: bool, number: int, seated: dict[str, Where]
    ) -> list[str | None]:
        """The seats' keys; each known player is seated in the round (once)."""
        keys = [player_key(value) for value in players]
        for position, key in enumerate(keys):
            if key is not None and key not in self.joined:
                self.add((*where, "players", position), self.not_here(players[position], key))
        if not bye and keys[0] is not None and keys[0] == keys[1]:
            self.add((*where, "players"), f"{show(keys[0])} cannot play themself")
            return keys
        for position, key in enumerate(keys):
            if key is None or key not in self.joined:
                continue
            seat: Where = (*where, "players", position)
            if key in seated:
                self.add(seat, f"{show(key)} already plays at {path_text(seated[key])}")
            else:
                seated[key] = where
            self.seats.append((key, number, seat))
            if bye:
                self.bye_seats.add((key, number))
        return keys

    def winners(self, games: list, where: Where, keys: list[str | None]) -> list | None:
        """Each game's winner's key (None: a draw), or None if a game names no seat."""
        winners: list[str | None] = []
        usable = True
        for index, value in enumerate(games):
            key = player_key(value)
            if value is None:
                winners.append(None)
            elif key is None:
                usable = False  # not an id at all: the schema says so
            elif key not in keys:
                self.add((*where, "games", index), f"{show(value)} is not a player of this match")
                usable = False
            else:
                winners.append(key)
        return winners if usable else None

    def drops(self, items: list) -> None:
        first: dict[str, int] = {}
        count = self.round_count if self.round_count is not None else MAX_ROUNDS
        last = self.first - 1 + count
        for index, item in enumerate(items):
            if not _is_object(item):
                continue
            where: Where = (*self.prefix, "drops", index)
            key = player_key(item.get("player"))
            if key is not None and key not in self.joined:
                self.add((*where, "player"), self.not_here(item["player"], key))
                key = None
            elif key is not None and key in first:
                self.add((*where, "player"), f"{show(key)} already dropped at drops[{first[key]}]")
                key = None
            elif key is not None:
                first[key] = index
            after = whole_number(item.get("after_round"))
            if after is not None and last < after <= MAX_ROUNDS:
                self.add((*where, "after_round"), f"must be between 0 and {last}, not {after}")
            elif key is not None and after is not None and 0 <= after <= last:
                self.dropped[key] = after

    def awarded_byes(self) -> None:
        """A player with byes awarded has a bye in each of their phase's first rounds (as
        many as were played): they are the byes the site gives, not matches."""
        played = self.round_count or 0
        seated = {(key, number) for key, number, _ in self.seats}
        for key, (count, index) in self.byes.items():
            if key not in self.joined:
                continue
            for number in range(1, min(count, played) + 1):
                if (key, number) not in seated:
                    self.add(
                        ("players", index, "byes"),
                        f"{show(key)} has {count} awarded byes, but no bye in round {number}: "
                        "their first rounds are byes",
                    )
        for key, number, seat in self.seats:
            count = self.byes.get(key, (0, 0))[0]
            if number <= count and (key, number) not in self.bye_seats:
                self.add(seat, f"{show(key)} has a bye awarded in round {number}, not a match")

    def seated_in_time(self) -> None:
        """Nobody plays before joining or after dropping."""
        for key, number, seat in self.seats:
            joined = self.joined[key]
            if number < joined:
                self.add(
                    seat, f"{show(key)} joined at round {joined} and cannot play round {number}"
                )
            dropped = self.dropped.get(key)
            if dropped is not None and number > dropped:
                self.add(
                    seat,
                    f"{show(key)} dropped after round {dropped} and cannot play round {number}",
                )


def rule_findings(document: dict[str, Any]) -> list[Finding]:
    """Every broken cross-reference rule in ``document`` (an object of the right format)."""
    if _is_object(document.get("phases")):
        return _phase_findings(document, document["phases"])
    rules = _Rules(document.get("rounds"))
    rules.time_zone(document.get("event"))
    rules.players(_items(document.get("players")))
    event = document.get("event")
    swiss_rounds = whole_number(event.get("swiss_rounds")) if _is_object(event) else None
    rules.rounds(_items(document.get("rounds")), swiss_rounds)
    rules.drops(_items(document.get("drops")))
    rules.seated_in_time()
    rules.awarded_byes()
    return rules.findings


# --- an event in phases ----------------------------------------------------------------------


def _flights_of(phases: dict[str, Any]) -> list[dict[str, Any]]:
    """The flights of the right shape, by index (others are None: the schema says why)."""
    return [f if _is_object(f) else None for f in _items(phases.get("flights"))]


def day1_rounds(phases: dict[str, Any]) -> int:
    """Day 1's Swiss rounds: the most any flight plays (Day 2's are numbered after them)."""
    counts = [
        whole_number(f.get("swiss_rounds")) or 0 for f in _flights_of(phases) if f is not None
    ]
    return max([c for c in counts if 0 < c <= MAX_ROUNDS], default=0)


class _Phases:
    """The rules of ``phases``: who plays in which flight, the flights' names and rounds,
    the gate, and who went through to Day 2; then each phase's own rounds and drops."""

    def __init__(self, document: dict[str, Any], phases: dict[str, Any]) -> None:
        self.document = document
        self.phases = phases
        self.flights = _flights_of(phases)
        self.day1 = day1_rounds(phases)
        self.top = _Rules(document.get("rounds"), first=self.day1 + 1)
        self.findings = self.top.findings
        self.ids = {
            key
            for item in _items(document.get("players"))
            if _is_object(item) and (key := player_key(item.get("id"))) is not None
        }
        self.member: dict[str, int] = {}  # a player's flight, by index
        self.day2: dict[str, int] = {}  # a Day 2 player's index in phases.day2

    def add(self, where: Where, message: str) -> None:
        self.findings.append((where, message))

    def run(self) -> list[Finding]:
        self.top.time_zone(self.document.get("event"))
        self.members()
        self.top.players(_items(self.document.get("players")), self.last_joins())
        self.names()
        self.gate()
        self.day2_players()
        for index, flight in enumerate(self.flights):
            if flight is not None:
                self.flight(index, flight)
        self.main_event()
        return self.findings

    def members(self) -> None:
        """Each player of a flight is in ``players``, and in one flight, once."""
        seen: dict[str, Where] = {}
        for index, flight in enumerate(self.flights):
            items = _items(flight.get("players")) if flight is not None else []
            for position, value in enumerate(items):
                key = player_key(value)
                where: Where = ("phases", "flights", index, "players", position)
                if key is None:
                    continue
                if key not in self.ids:
                    self.add(where, f"{show(value)} is not in players")
                elif key in seen:
                    self.add(where, f"{show(key)} is already at {path_text(seen[key])}")
                else:
                    seen[key] = where
                    self.member[key] = index

    def last_joins(self) -> dict[str, int]:
        """A flight player joins by their flight's rounds; the main event's own players by
        the main event's, numbered after Day 1's."""
        counts = [len(_items(f.get("rounds"))) if f else 0 for f in self.flights]
        main = self.day1 + len(_items(self.document.get("rounds"))) + 1
        return {
            key: counts[self.member[key]] + 1 if key in self.member else main for key in self.ids
        }

    def names(self) -> None:
        first: dict[str, int] = {}
        for index, flight in enumerate(self.flights):
            name = flight.get("name") if flight is not None else None
            if not isinstance(name, str) or not name.strip():
                continue
            if name.strip() in first:
                self.add(
                    ("phases", "flights", index, "name"),
                    f"{show(name)} is already the name of phases.flights[{first[name.strip()]}]",
                )
            else:
                first[name.strip()] = index

    def gate(self) -> None:
        gate = self.phases.get("gate")
        if _is_object(gate) and gate.get("points") is None and gate.get("top") is None:
            self.add(
                ("phases", "gate"),
                "give points, top or both: the points that let a player through to Day 2, "
                "the number of the merged standings' first players who go through, or both",
            )
        if isinstance(self.phases.get("day2"), list) and not _is_object(gate):
            self.add(
                ("phases", "gate"), "is required with phases.day2: the rule that let them through"
            )

    def day2_players(self) -> None:
        """Day 2's players came through a flight, once each, after all of Day 1."""
        day2 = self.phases.get("day2")
        if not isinstance(day2, list):
            if _items(self.document.get("rounds")):
                self.add(
                    ("rounds",),
                    "the main event plays its rounds after the gate: give phases.day2 (the "
                    "players it let through), or leave the main event's rounds out",
                )
            return
        for index, value in enumerate(day2):
            key = player_key(value)
            where: Where = ("phases", "day2", index)
            if key is None:
                continue
            if key not in self.ids:
                self.add(where, f"{show(value)} is not in players")
            elif key not in self.member:
                self.add(where, f"{show(key)} is in no flight: Day 2's players come from Day 1")
            elif key in self.day2:
                self.add(where, f"{show(key)} is already at phases.day2[{self.day2[key]}]")
            else:
                self.day2[key] = index
        self.day1_over()

    def day1_over(self) -> None:
        """The gate is applied once every flight has played the same Swiss rounds."""
        for index, flight in enumerate(self.flights):
            if flight is None:
                continue
            planned = whole_number(flight.get("swiss_rounds"))
            where: Where = ("phases", "flights", index)
            if planned is not None and 0 < planned != self.day1:
                self.add(
                    (*where, "swiss_rounds"),
                    f"must be {self.day1}, as another flight's: every flight plays the same "
                    "Swiss rounds before the gate (phases.day2)",
                )
            rounds = flight.get("rounds")
            if isinstance(rounds, list) and planned is not None and len(rounds) < planned:
                self.add(
                    (*where, "rounds"),
                    f"holds {len(rounds)} of the flight's {planned} rounds: Day 2 "
                    "(phases.day2) starts once every flight has played all of them",
                )
        event = self.document.get("event")
        total = whole_number(event.get("swiss_rounds")) if _is_object(event) else None
        if total is not None and 0 < total <= self.day1:
            self.add(
                ("event", "swiss_rounds"),
                f"must be more than Day 1's {self.day1}: the event's Swiss rounds are Day 1's "
                "and Day 2's",
            )

    def flight(self, index: int, flight: dict[str, Any]) -> None:
        """The flight's rounds and drops, among its own players."""
        where: Where = ("phases", "flights", index)
        rules = _Rules(flight.get("rounds"), prefix=where)
        for key, joined in self.top.joined.items():
            if self.member.get(key) == index:
                rules.joined[key] = joined
            else:
                rules.outside[key] = (
                    f"{show(key)} is not a player of this flight ({path_text(where)}.players)"
                )
        planned = whole_number(flight.get("swiss_rounds"))
        rules.rounds(_items(flight.get("rounds")), planned, f"{path_text(where)}.swiss_rounds")
        rules.drops(_items(flight.get("drops")))
        rules.seated_in_time()
        rules.byes = self.top.byes
        rules.awarded_byes()
        self.findings.extend(rules.findings)

    def main_event(self) -> None:
        """The main event's own rounds and drops: Day 2's players and those in no flight."""
        top = self.top
        everyone = dict(top.joined)
        top.joined = {key: 1 for key in self.day2}
        for key, joined in everyone.items():
            if key not in self.member:
                top.joined[key] = joined
            elif key not in self.day2:
                top.outside[key] = (
                    f"{show(key)} did not go through to Day 2 (phases.day2): the main "
                    "event's rounds are Day 2's"
                )
        event = self.document.get("event")
        swiss_rounds = whole_number(event.get("swiss_rounds")) if _is_object(event) else None
        top.rounds(_items(self.document.get("rounds")), swiss_rounds)
        top.drops(_items(self.document.get("drops")))
        top.seated_in_time()


def _phase_findings(document: dict[str, Any], phases: dict[str, Any]) -> list[Finding]:
    """The rules of an event in phases: see :class:`_Phases`."""
    return _Phases(document, phases).run()
