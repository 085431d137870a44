"""The rules of ``arbiter-event/1`` that a JSON Schema cannot state, because they relate
one part of the file to another: ids that must exist (in ``players``, in the match),
ids used once, rounds numbered in order with the top cut last and no Swiss round beyond
``event.swiss_rounds``, nobody seated twice in a round or before joining or after
dropping, a table used once a round, a winner in every top-cut match, and no unfinished
match.

They run on documents the schema may have refused too, so that one pass lists every
problem: a part of the wrong shape is skipped here (the schema has said what is wrong
with it), never reported twice.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tournaments.interchange.problems import Finding, Where, path_text, show
from tournaments.interchange.schema import MAX_ROUNDS, PENDING
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

    def __init__(self, document: dict[str, Any]) -> None:
        rounds = document.get("rounds")
        self.round_count = len(rounds) if isinstance(rounds, list) else None
        self.findings: list[Finding] = []
        self.joined: dict[str, int] = {}  # every usable player id: its first round
        self.dropped: dict[str, int] = {}
        self.seats: list[tuple[str, int, Where]] = []  # (player, round number, where)

    def add(self, where: Where, message: str) -> None:
        self.findings.append((where, message))

    def time_zone(self, event: Any) -> None:
        """A zone name the schema lets through must still be one the site knows."""
        name = event.get("time_zone") if _is_object(event) else None
        if isinstance(name, str) and name.strip():
            problem = zone_problem(name)
            if problem:
                self.add(("event", "time_zone"), problem)

    def players(self, items: list) -> None:
        first: dict[str, int] = {}
        last_join = (self.round_count if self.round_count is not None else MAX_ROUNDS) + 1
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
            joined = whole_number(item.get("joined_round", 1))
            if joined is not None and last_join < joined <= MAX_ROUNDS + 1:
                self.add(
                    ("players", index, "joined_round"),
                    f"must be between 1 and {last_join}, not {joined}",
                )
            usable = joined is not None and 1 <= joined <= last_join
            self.joined[key] = joined if usable else 1

    def rounds(self, items: list, swiss_rounds: int | None = None) -> None:
        """Numbered in order, the top cut last, and no more Swiss rounds than the file's
        ``event.swiss_rounds`` (when it gives one): a 4th Swiss round in an event of 3 would
        change its standings without anyone having played it as planned."""
        top_cut_started = False
        for index, item in enumerate(items):
            if not _is_object(item):
                continue
            where: Where = ("rounds", index)
            number = whole_number(item.get("number"))
            if number is not None and number != index + 1:
                self.add(
                    (*where, "number"),
                    f"must be {index + 1}: rounds are numbered 1, 2, 3… in order, "
                    f"not {show(item['number'])}",
                )
            kind = item.get("kind", Round.Kind.SWISS)
            if kind == Round.Kind.SWISS and top_cut_started:
                self.add((*where, "kind"), "a Swiss round cannot follow the top cut")
            if kind == Round.Kind.SWISS and swiss_rounds and index + 1 > swiss_rounds:
                self.add(
                    where,
                    f"round {index + 1} is a Swiss round beyond the event's {swiss_rounds} "
                    f"(event.swiss_rounds): raise event.swiss_rounds, or leave round "
                    f"{index + 1} out of the file",
                )
            top_cut_started = top_cut_started or kind == Round.Kind.TOP_CUT
            self.matches(_items(item.get("matches")), where, index + 1, kind == Round.Kind.TOP_CUT)

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
                self.add(
                    (*where, "players", position), f"{show(players[position])} is not in players"
                )
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
        last = self.round_count if self.round_count is not None else MAX_ROUNDS
        for index, item in enumerate(items):
            if not _is_object(item):
                continue
            where: Where = ("drops", index)
            key = player_key(item.get("player"))
            if key is not None and key not in self.joined:
                self.add((*where, "player"), f"{show(item['player'])} is not in players")
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
    rules = _Rules(document)
    rules.time_zone(document.get("event"))
    rules.players(_items(document.get("players")))
    event = document.get("event")
    swiss_rounds = whole_number(event.get("swiss_rounds")) if _is_object(event) else None
    rules.rounds(_items(document.get("rounds")), swiss_rounds)
    rules.drops(_items(document.get("drops")))
    rules.seated_in_time()
    return rules.findings
