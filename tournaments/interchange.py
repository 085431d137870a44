"""The ``arbiter-event/1`` interchange format: a whole event as plain JSON, out and in.

It is how events are backed up, moved between sites and brought in from other
tools (contract: ``pairing-and-events.md`` §2). Decisions the contract leaves open:

* Ids. A player's id is ``Registration.public_id`` (the external id, else ``r<pk>``).
  Import stores the file's id as ``external_id``, so a re-export keeps every id.
  Integer ids in a file are read as their decimal strings; export writes strings.
* Unfinished matches. Export writes every round; a match without a confirmed result
  is written ``{"games": [], "result": "pending"}`` (an unconfirmed report is not
  exported as a result). Import restores finished rounds only: a file holding a
  pending match is refused, naming each one (remove that round to import the rest).
* Imported rows. Players become registrations without accounts (name + external id,
  checked in); every round is closed; matches are ``final`` and byes ``confirmed``
  with the 2-0 games the pairing engine gives them.
* Event status. The file's ``event.status`` when given (our exports write it);
  otherwise ``finished`` when the last round is a top-cut round of one match (the
  final), ``running`` when there are rounds, ``registration`` when there are none.
* Extra keys (ignorable by other tools, read back by this one): ``event.venue``,
  ``round_minutes``, ``tiebreakers``, ``seed``, ``status``; a player's
  ``joined_round`` (late entry, only when > 1) and ``"disqualified": true``.
  Unknown keys are ignored. A drop ``after_round`` of 0 means dropped before round 1.
* Optional sections. ``decklists`` and ``penalties`` are not exported (the site keeps
  neither yet); on import they must be lists and are otherwise ignored.
* Errors. The whole file is checked before anything is written and every problem is
  reported with its path (list indices count from 0), e.g.
  ``rounds[2].matches[5].games[1]: "p9" is not a player of this match``.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from pairing.standings import TIEBREAKERS
from tournaments import services
from tournaments.models import Event, EventLog, Game, Match, MatchFormat, Registration, Round

FORMAT = "arbiter-event/1"
MAX_PLAYERS = 20_000
MAX_ROUNDS = 50
MAX_GAMES_PER_MATCH = 15
MAX_REPORTED_PROBLEMS = 500
MAX_ID_LENGTH = 64  # Registration.external_id
MAX_NAME_LENGTH = 200
MAX_SMALL_INT = 32_767  # PositiveSmallIntegerField
MAX_TOP_CUT = 1_024
BIGINT = 2**63
BATCH_SIZE = 1_000
PENDING = "pending"

_MISSING = object()
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


# --- errors -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, and where: ``path`` is e.g. ``rounds[0].matches[3]``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class InterchangeError(Exception):
    """Every problem found in a file, so that it can be fixed in one pass."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class _Problems:
    """Collects problems; keeps the first few hundred so a broken huge file stays readable."""

    def __init__(self) -> None:
        self.items: list[Problem] = []
        self.total = 0

    def add(self, path: str, message: str) -> None:
        self.total += 1
        if len(self.items) < MAX_REPORTED_PROBLEMS:
            self.items.append(Problem(path, message))

    def raise_if_any(self) -> None:
        if not self.total:
            return
        items = list(self.items)
        if self.total > len(items):
            items.append(Problem("", f"… and {self.total - len(items)} more problems"))
        raise InterchangeError(items)


def _show(value: Any) -> str:
    """A value as it looks in the file, cut short if long (lists and objects are named)."""
    if isinstance(value, list | dict):
        return _describe(value)
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "…"


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {_show(value)}"
    if isinstance(value, str):
        return f"the text {_show(value)}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- small validators: each reports at ``path`` and returns the clean value or None -------


def _int(value: Any, path: str, problems: _Problems, low: int, high: int) -> int | None:
    if not _is_int(value):
        problems.add(path, f"must be a whole number, not {_describe(value)}")
        return None
    if not low <= value <= high:
        problems.add(path, f"must be between {low} and {high}, not {value}")
        return None
    return value


def _text(
    value: Any, path: str, problems: _Problems, max_length: int, blank: bool = False
) -> str | None:
    if not isinstance(value, str):
        problems.add(path, f"must be text, not {_describe(value)}")
        return None
    if not blank and not value.strip():
        problems.add(path, "must not be empty")
        return None
    if len(value) > max_length:
        problems.add(path, f"must be at most {max_length} characters, not {len(value)}")
        return None
    return value


def _choice(value: Any, path: str, problems: _Problems, choices: list[str]) -> str | None:
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(f'"{c}"' for c in choices)
        problems.add(path, f"must be one of {allowed}, not {_show(value)}")
        return None
    return value


def _bool(value: Any, path: str, problems: _Problems) -> bool | None:
    if not isinstance(value, bool):
        problems.add(path, f"must be true or false, not {_describe(value)}")
        return None
    return value


def _object(value: Any, path: str, problems: _Problems) -> dict | None:
    if not isinstance(value, dict):
        problems.add(path, f"must be an object, not {_describe(value)}")
        return None
    return value


def _list(value: Any, path: str, problems: _Problems, max_items: int, what: str) -> list | None:
    if not isinstance(value, list):
        problems.add(path, f"must be a list, not {_describe(value)}")
        return None
    if len(value) > max_items:
        problems.add(path, f"holds {len(value)} {what}; the limit is {max_items}")
        return None
    return value


def _player_id(value: Any, path: str, problems: _Problems) -> str | None:
    """A player id: non-empty text of at most 64 characters, or an integer (read as text)."""
    if _is_int(value):
        value = str(value)
    if not isinstance(value, str):
        problems.add(path, f"must be a player id (text or a whole number), not {_describe(value)}")
        return None
    return _text(value, path, problems, MAX_ID_LENGTH)


def _ref(value: Any) -> str | None:
    """A reference to a player as the lookup key, or None when it cannot be one."""
    if _is_int(value):
        return str(value)
    return value if isinstance(value, str) else None


def _date(value: Any, path: str, problems: _Problems) -> datetime.date | None:
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    problems.add(path, f"must be a date written YYYY-MM-DD, not {_show(value)}")
    return None


# --- the validated plan --------------------------------------------------------------------


@dataclass
class _Player:
    id: str
    name: str
    joined_round: int = 1
    disqualified: bool = False
    dropped_after_round: int | None = None


@dataclass
class _Match:
    table: int | None
    players: list[str]
    bye: bool
    games: list[str | None]


@dataclass
class _Round:
    number: int
    kind: str
    matches: list[_Match] = field(default_factory=list)


@dataclass
class _Seat:
    player: str
    round_number: int
    path: str


@dataclass
class _Plan:
    event: dict[str, Any]
    players: list[_Player]
    rounds: list[_Round]


# --- checking a document -------------------------------------------------------------------


def _check_format(document: Any, problems: _Problems) -> None:
    if not isinstance(document, dict):
        problems.add("", f"the document must be a JSON object, not {_describe(document)}")
        problems.raise_if_any()
    declared = document.get("format", _MISSING)
    if declared is _MISSING:
        problems.add("format", f'is required: "{FORMAT}"')
    elif declared != FORMAT:
        problems.add("format", f'{_show(declared)} is not supported: this site reads "{FORMAT}"')
    problems.raise_if_any()  # another format's fields would only add noise


def _check_event(raw: Any, problems: _Problems) -> dict[str, Any]:
    """Event fields as ``Event`` keyword arguments; status is settled later."""
    data = _object(raw, "event", problems)
    if data is None:
        return {}
    required = {
        "name": lambda v, p: _text(v, p, problems, MAX_NAME_LENGTH),
        "game": lambda v, p: _choice(v, p, problems, Game.values),
        "date": lambda v, p: _date(v, p, problems),
        "match_format": lambda v, p: _choice(v, p, problems, MatchFormat.values),
    }
    optional = {
        "swiss_rounds": lambda v, p: None if v is None else _int(v, p, problems, 1, MAX_ROUNDS),
        "top_cut": lambda v, p: _top_cut(v, p, problems),
        "venue": lambda v, p: _text(v, p, problems, MAX_NAME_LENGTH, blank=True),
        "round_minutes": lambda v, p: _int(v, p, problems, 1, MAX_SMALL_INT),
        "tiebreakers": lambda v, p: _tiebreakers(v, p, problems),
        "seed": lambda v, p: _int(v, p, problems, -BIGINT, BIGINT - 1),
        "status": lambda v, p: _choice(v, p, problems, Event.Status.values),
    }
    fields: dict[str, Any] = {}
    for key, check in required.items():
        if key not in data:
            problems.add(f"event.{key}", "is required")
        else:
            fields[key] = check(data[key], f"event.{key}")
    for key, check in optional.items():
        if key in data:
            value = check(data[key], f"event.{key}")
            if value is not None:
                fields[key] = value
    if "points" in data:
        fields.update(_points(data["points"], problems))
    return fields


def _top_cut(value: Any, path: str, problems: _Problems) -> int | None:
    cut = _int(value, path, problems, 0, MAX_TOP_CUT)
    if cut is not None and cut & (cut - 1):
        problems.add(path, f"must be 0 or a power of two (2, 4, 8, …), not {cut}")
        return None
    return cut


def _tiebreakers(value: Any, path: str, problems: _Problems) -> list[str] | None:
    """Names the standings module knows, each once (else the standings page would fail)."""
    items = _list(value, path, problems, len(TIEBREAKERS), "tiebreakers")
    if items is None:
        return None
    names = list(TIEBREAKERS)
    clean = [_choice(item, f"{path}[{i}]", problems, names) for i, item in enumerate(items)]
    for index, name in enumerate(clean):
        if name is not None and name in clean[:index]:
            problems.add(f"{path}[{index}]", f"{_show(name)} is already in the list")
            return None
    return None if None in clean else clean


def _points(value: Any, problems: _Problems) -> dict[str, int]:
    data = _object(value, "event.points", problems)
    if data is None:
        return {}
    fields = {}
    for key in ("win", "draw", "loss"):
        path = f"event.points.{key}"
        if key not in data:
            problems.add(path, "is required")
            continue
        # A win must be worth something: the standings divide by it.
        number = _int(data[key], path, problems, 1 if key == "win" else 0, MAX_SMALL_INT)
        if number is not None:
            fields[f"points_{key}"] = number
    return fields


def _check_players(raw: Any, round_count: int | None, problems: _Problems) -> list[_Player]:
    items = _list(raw, "players", problems, MAX_PLAYERS, "players")
    if items is None:
        return []
    players: list[_Player] = []
    first_index: dict[str, int] = {}
    for index, item in enumerate(items):
        path = f"players[{index}]"
        player = _check_player(item, path, round_count, problems)
        if player is None:
            continue
        if player.id in first_index:
            problems.add(
                f"{path}.id",
                f"{_show(player.id)} is already the id of players[{first_index[player.id]}]",
            )
            continue
        first_index[player.id] = index
        players.append(player)
    return players


def _check_player(
    item: Any, path: str, round_count: int | None, problems: _Problems
) -> _Player | None:
    """The player, or None without a usable id; other problems are reported."""
    data = _object(item, path, problems)
    if data is None:
        return None
    for key in ("id", "name"):
        if key not in data:
            problems.add(f"{path}.{key}", "is required")
    player_id = _player_id(data["id"], f"{path}.id", problems) if "id" in data else None
    name = (
        _text(data["name"], f"{path}.name", problems, MAX_NAME_LENGTH) if "name" in data else None
    )
    last_join = (round_count if round_count is not None else MAX_ROUNDS) + 1
    joined = data.get("joined_round", 1)
    joined = _int(joined, f"{path}.joined_round", problems, 1, last_join)
    disqualified = _bool(data.get("disqualified", False), f"{path}.disqualified", problems)
    if player_id is None:
        return None
    # A player with a good id but other problems is still known, so that the rounds do
    # not report "not in players" for them too; the file is refused anyway.
    return _Player(player_id, name or "", joined or 1, bool(disqualified))


def _check_rounds(
    raw: Any, known: dict[str, _Player], problems: _Problems
) -> tuple[list[_Round], list[_Seat]]:
    items = _list(raw, "rounds", problems, MAX_ROUNDS, "rounds")
    if items is None:
        return [], []
    rounds: list[_Round] = []
    seats: list[_Seat] = []
    top_cut_started = False
    for index, item in enumerate(items):
        path = f"rounds[{index}]"
        data = _object(item, path, problems)
        if data is None:
            continue
        number = index + 1
        if data.get("number") != number or not _is_int(data.get("number")):
            shown = _show(data["number"]) if "number" in data else "missing"
            problems.add(
                f"{path}.number",
                f"must be {number}: rounds are numbered 1, 2, 3… in order, not {shown}",
            )
        kind = _choice(data.get("kind", "swiss"), f"{path}.kind", problems, Round.Kind.values)
        if kind == Round.Kind.SWISS and top_cut_started:
            problems.add(f"{path}.kind", "a Swiss round cannot follow the top cut")
        top_cut_started = top_cut_started or kind == Round.Kind.TOP_CUT
        round_ = _Round(number, kind or Round.Kind.SWISS)
        if "matches" not in data:
            problems.add(f"{path}.matches", "is required")
        else:
            round_.matches = _check_matches(data["matches"], path, round_, known, seats, problems)
        rounds.append(round_)
    return rounds, seats


def _check_matches(
    raw: Any,
    round_path: str,
    round_: _Round,
    known: dict[str, _Player],
    seats: list[_Seat],
    problems: _Problems,
) -> list[_Match]:
    items = _list(raw, f"{round_path}.matches", problems, MAX_PLAYERS, "matches")
    if items is None:
        return []
    matches = []
    seated: dict[str, str] = {}
    tables: dict[int, str] = {}
    for index, item in enumerate(items):
        path = f"{round_path}.matches[{index}]"
        match = _check_match(item, path, round_, known, problems)
        if match is None:
            continue
        for position, player in enumerate(match.players):
            seat_path = f"{path}.players[{position}]"
            if player in seated:
                problems.add(seat_path, f"{_show(player)} already plays at {seated[player]}")
            seated[player] = path
            seats.append(_Seat(player, round_.number, seat_path))
        if match.table is not None:
            if match.table in tables:
                problems.add(f"{path}.table", f"table {match.table} is also {tables[match.table]}")
            tables[match.table] = path
        matches.append(match)
    return matches


def _check_match(
    item: Any, path: str, round_: _Round, known: dict[str, _Player], problems: _Problems
) -> _Match | None:
    data = _object(item, path, problems)
    if data is None:
        return None
    before = problems.total
    bye = _bool(data.get("bye", False), f"{path}.bye", problems)
    table = data.get("table")
    if table is not None:
        table = _int(table, f"{path}.table", problems, 1, MAX_PLAYERS)
    if "result" in data:
        _pending(data["result"], path, round_.number, problems)
    players = _match_players(data, path, bool(bye), known, problems)
    games: list[str | None] = []
    if not bye and players is not None:
        games = _match_games(data, path, players, problems)
    if round_.kind == Round.Kind.TOP_CUT and not bye and players and problems.total == before:
        wins = Counter(games)
        if wins[players[0]] == wins[players[1]]:
            problems.add(f"{path}.games", "a top-cut match needs a winner, not a draw")
    if problems.total != before or players is None:
        return None
    return _Match(table, players, bool(bye), games)


def _pending(value: Any, path: str, round_number: int, problems: _Problems) -> None:
    if value == PENDING:
        problems.add(
            f"{path}.result",
            f"this match has no result yet: only finished rounds can be imported "
            f"(enter the result, or leave round {round_number} out of the file)",
        )
    else:
        problems.add(f"{path}.result", f'must be "{PENDING}" when present, not {_show(value)}')


def _match_players(
    data: dict, path: str, bye: bool, known: dict[str, _Player], problems: _Problems
) -> list[str | None] | None:
    """The seats as listed (None where an entry is not an id), or None if the list is unusable.

    Unknown players are reported but kept, so the games can still be checked against them.
    """
    if "players" not in data:
        problems.add(f"{path}.players", "is required")
        return None
    items = _list(data["players"], f"{path}.players", problems, MAX_PLAYERS, "players")
    if items is None:
        return None
    wanted = 1 if bye else 2
    if len(items) != wanted:
        what = "a bye has exactly one player" if bye else "a match has exactly two players"
        problems.add(f"{path}.players", f"{what}, not {len(items)}")
        return None
    players = []
    for position, value in enumerate(items):
        ref = _ref(value)
        if ref is None:
            problems.add(
                f"{path}.players[{position}]", f"must be a player id, not {_describe(value)}"
            )
        elif ref not in known:
            problems.add(f"{path}.players[{position}]", f"{_show(value)} is not in players")
        players.append(ref)
    if not bye and players[0] is not None and players[0] == players[1]:
        problems.add(f"{path}.players", f"{_show(players[0])} cannot play themself")
    return players


def _match_games(
    data: dict, path: str, players: list[str | None], problems: _Problems
) -> list[str | None]:
    if "games" not in data:
        problems.add(f"{path}.games", "is required (each game's winner, or null for a draw)")
        return []
    items = _list(data["games"], f"{path}.games", problems, MAX_GAMES_PER_MATCH, "games")
    if items is None:
        return []
    games: list[str | None] = []
    for index, value in enumerate(items):
        ref = _ref(value)
        if value is None or ref in players:
            games.append(ref)
        elif ref is None:
            problems.add(
                f"{path}.games[{index}]",
                f"must be the winner's id or null for a drawn game, not {_describe(value)}",
            )
        else:
            problems.add(f"{path}.games[{index}]", f"{_show(value)} is not a player of this match")
    return games


def _check_drops(
    raw: Any, known: dict[str, _Player], round_count: int | None, problems: _Problems
) -> dict[str, int]:
    if raw is None:
        return {}
    items = _list(raw, "drops", problems, MAX_PLAYERS, "drops")
    if items is None:
        return {}
    drops: dict[str, int] = {}
    first_index: dict[str, int] = {}
    high = round_count if round_count is not None else MAX_ROUNDS
    for index, item in enumerate(items):
        path = f"drops[{index}]"
        data = _object(item, path, problems)
        if data is None:
            continue
        for key in ("player", "after_round"):
            if key not in data:
                problems.add(f"{path}.{key}", "is required")
        ref = _ref(data.get("player"))
        if "player" in data and ref is None:
            problems.add(f"{path}.player", f"must be a player id, not {_describe(data['player'])}")
        elif "player" in data and ref not in known:
            problems.add(f"{path}.player", f"{_show(data['player'])} is not in players")
            ref = None
        elif ref in first_index:
            problems.add(
                f"{path}.player", f"{_show(ref)} already dropped at drops[{first_index[ref]}]"
            )
            ref = None
        after = None
        if "after_round" in data:
            after = _int(data["after_round"], f"{path}.after_round", problems, 0, high)
        if ref is not None:
            first_index[ref] = index
            if after is not None:
                drops[ref] = after
    return drops


def _check_optional_sections(document: dict, problems: _Problems) -> None:
    for key in ("decklists", "penalties"):
        if document.get(key) is not None and not isinstance(document[key], list):
            problems.add(key, f"must be a list, not {_describe(document[key])}")


def _check_seats(seats: list[_Seat], known: dict[str, _Player], problems: _Problems) -> None:
    """Nobody plays before joining or after dropping."""
    for seat in seats:
        player = known[seat.player]
        if seat.round_number < player.joined_round:
            problems.add(
                seat.path,
                f"{_show(seat.player)} joined at round {player.joined_round} "
                f"and cannot play round {seat.round_number}",
            )
        dropped = player.dropped_after_round
        if dropped is not None and seat.round_number > dropped:
            problems.add(
                seat.path,
                f"{_show(seat.player)} dropped after round {dropped} "
                f"and cannot play round {seat.round_number}",
            )


def _settle_status(fields: dict[str, Any], rounds: list[_Round]) -> None:
    if "status" in fields:
        return
    if not rounds:
        fields["status"] = Event.Status.REGISTRATION
    elif rounds[-1].kind == Round.Kind.TOP_CUT and len(rounds[-1].matches) == 1:
        fields["status"] = Event.Status.FINISHED
    else:
        fields["status"] = Event.Status.RUNNING


def check_document(document: Any) -> _Plan:
    """The validated contents of a document, or InterchangeError listing every problem.

    Nothing is written: import calls this first, so a bad file leaves no trace.
    """
    problems = _Problems()
    _check_format(document, problems)
    for key in ("event", "players", "rounds"):
        if key not in document:
            problems.add(key, "is required")
    raw_rounds = document.get("rounds")
    round_count = len(raw_rounds) if isinstance(raw_rounds, list) else None
    fields = _check_event(document.get("event"), problems) if "event" in document else {}
    players = (
        _check_players(document["players"], round_count, problems) if "players" in document else []
    )
    known = {p.id: p for p in players}
    rounds, seats = _check_rounds(raw_rounds, known, problems) if "rounds" in document else ([], [])
    drops = _check_drops(document.get("drops"), known, round_count, problems)
    for player_id, after in drops.items():
        known[player_id].dropped_after_round = after
    _check_seats(seats, known, problems)
    _check_optional_sections(document, problems)
    problems.raise_if_any()
    _settle_status(fields, rounds)
    return _Plan(fields, players, rounds)


# --- import --------------------------------------------------------------------------------


def import_event(document: dict, actor) -> Event:
    """Create an event from an ``arbiter-event/1`` document; all of it or nothing.

    Raises InterchangeError listing every problem before anything is written. ``actor``
    becomes the organiser; None (a command run without ``--organiser``) leaves the
    event to superusers.
    """
    plan = check_document(document)
    with transaction.atomic():
        event = _create_event(plan.event, actor)
        registration_pks = _create_registrations(event, plan.players)
        round_pks = _create_rounds(event, plan.rounds)
        matches = _create_matches(plan.rounds, round_pks, registration_pks)
        EventLog.objects.create(
            event=event,
            actor=actor if _is_user(actor) else None,
            action="import",
            data={
                "format": FORMAT,
                "players": len(plan.players),
                "rounds": len(plan.rounds),
                "matches": matches,
            },
        )
    return event


def _is_user(actor) -> bool:
    return actor is not None and getattr(actor, "is_authenticated", False)


def _create_event(fields: dict[str, Any], actor) -> Event:
    if _is_user(actor):
        return services.create_event(actor, **fields)
    return Event.objects.create(**fields)


def _create_registrations(event: Event, players: list[_Player]) -> dict[str, int]:
    """Bulk-create the players; returns their pks by file id (one query to read back)."""
    Registration.objects.bulk_create(
        (
            Registration(
                event=event,
                name=p.name,
                external_id=p.id,
                status=(
                    Registration.Status.REGISTERED
                    if p.dropped_after_round is None
                    else Registration.Status.DROPPED
                ),
                checked_in=True,
                joined_round=p.joined_round,
                dropped_after_round=p.dropped_after_round,
                disqualified=p.disqualified,
            )
            for p in players
        ),
        batch_size=BATCH_SIZE,
    )
    return dict(Registration.objects.filter(event=event).values_list("external_id", "pk"))


def _create_rounds(event: Event, rounds: list[_Round]) -> dict[int, int]:
    now = timezone.now()
    Round.objects.bulk_create(
        Round(
            event=event,
            number=r.number,
            kind=r.kind,
            status=Round.Status.CLOSED,
            started_at=now,
            closed_at=now,
        )
        for r in rounds
    )
    return dict(Round.objects.filter(event=event).values_list("number", "pk"))


def _create_matches(rounds: list[_Round], round_pks: dict[int, int], pks: dict[str, int]) -> int:
    rows = [
        _match_row(match, round_pks[round_.number], pks)
        for round_ in rounds
        for match in round_.matches
    ]
    Match.objects.bulk_create(rows, batch_size=BATCH_SIZE)
    return len(rows)


def _match_row(match: _Match, round_pk: int, pks: dict[str, int]) -> Match:
    if match.bye:
        player = pks[match.players[0]]
        return Match(
            round_id=round_pk,
            table=match.table,
            player_a_id=player,
            is_bye=True,
            games=[player, player],
            status=Match.Status.CONFIRMED,
        )
    return Match(
        round_id=round_pk,
        table=match.table,
        player_a_id=pks[match.players[0]],
        player_b_id=pks[match.players[1]],
        games=[None if g is None else pks[g] for g in match.games],
        status=Match.Status.FINAL,
    )


# --- export --------------------------------------------------------------------------------


def export_event(event: Event) -> dict:
    """The event as an ``arbiter-event/1`` document (three queries, whatever its size)."""
    matches = list(Match.objects.filter(round__event=event))
    in_matches = {pk for m in matches for pk in (m.player_a_id, m.player_b_id) if pk}
    registrations = [
        r
        for r in Registration.objects.filter(event=event).select_related("user")
        if r.status != Registration.Status.WAITLISTED or r.pk in in_matches
    ]
    ids = public_ids(registrations)
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round_id, []).append(match)
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    return {
        "format": FORMAT,
        "event": _export_event_fields(event),
        "players": [_export_player(r, ids) for r in registrations],
        "rounds": [_export_round(r, by_round.get(r.pk, []), ids) for r in rounds],
        "drops": [
            {"player": ids[r.pk], "after_round": r.dropped_after_round}
            for r in registrations
            if r.dropped_after_round is not None
        ],
    }


def public_ids(registrations: list[Registration]) -> dict[int, str]:
    """Each registration's public id by pk, made unique.

    ``public_id`` can collide (an imported external id "r12" next to a site-made
    registration whose pk is 12); the later one then gets ``r<pk>``, suffixed if need be.
    """
    ids: dict[int, str] = {}
    taken: set[str] = set()
    for registration in registrations:
        candidate = registration.public_id
        suffix = 1
        while candidate in taken:
            candidate = f"r{registration.pk}" + (f"-{suffix}" if suffix > 1 else "")
            suffix += 1
        ids[registration.pk] = candidate
        taken.add(candidate)
    return ids


def _export_event_fields(event: Event) -> dict[str, Any]:
    date = event.date
    return {
        "name": event.name,
        "game": event.game,
        "date": date.isoformat() if hasattr(date, "isoformat") else str(date),
        "match_format": event.match_format,
        "swiss_rounds": event.swiss_rounds,
        "top_cut": event.top_cut,
        "points": {"win": event.points_win, "draw": event.points_draw, "loss": event.points_loss},
        "venue": event.venue,
        "round_minutes": event.round_minutes,
        "tiebreakers": list(event.tiebreakers or []),
        "seed": event.seed,
        "status": event.status,
    }


def _export_player(registration: Registration, ids: dict[int, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": ids[registration.pk], "name": registration.display_name}
    if registration.joined_round > 1:
        entry["joined_round"] = registration.joined_round
    if registration.disqualified:
        entry["disqualified"] = True
    return entry


def _export_round(round_: Round, matches: list[Match], ids: dict[int, str]) -> dict[str, Any]:
    # Byes last, then by table: the same order on every database (NULLs sort differently).
    matches.sort(key=lambda m: (m.is_bye, m.table is None, m.table or 0, m.pk))
    return {
        "number": round_.number,
        "kind": round_.kind,
        "matches": [_export_match(m, ids) for m in matches],
    }


def _export_match(match: Match, ids: dict[int, str]) -> dict[str, Any]:
    if match.is_bye:
        return {"table": match.table, "players": [ids[match.player_a_id]], "bye": True}
    seats = {pk: ids[pk] for pk in (match.player_a_id, match.player_b_id) if pk is not None}
    entry: dict[str, Any] = {"table": match.table, "players": list(seats.values())}
    if match.has_result:
        entry["games"] = [seats.get(g) for g in match.games]
    else:
        entry["games"] = []
        entry["result"] = PENDING
    return entry
