"""An event's field as the pure report reads it: who played which archetype, every
match with its phase, and who reached Day 2 and the top cut.

A *person* is one player through the whole event: in an event with Day 1 flights their
flight entry (a Day 2 entry carries on from it, ``Registration.carried_from``), so a
player's Day 1 and Day 2 matches are one player's. Their archetype is their submitted
list's: ``Decklist.archetype`` for Iacta (rule 202, kept when the list is submitted);
for Dataclysm the clusters of the field's lists (``metagame.archetypes.cluster_decks``,
which depend on the whole field, so they are computed here); the organiser's moves and
merges (``MetagameSettings.overrides``) come last. Superjack has no decklists (every deck
is the standard 40 cards): no archetypes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from decks.models import Decklist
from metagame.archetypes import NO_MAJOR, Overrides, apply_overrides, cluster_decks, display_name
from tournaments.models import Event, Match, Registration, Round
from tournaments.record.match_games import MatchGames

SWISS, DAY1, DAY2, TOP_CUT = "swiss", "day1", "day2", "top_cut"
"""Phase names: an event without flights plays ``swiss`` then ``top_cut``; one with
flights plays ``day1`` (every flight's Swiss rounds), ``day2`` and ``top_cut``."""

STAGES_AFTER = {SWISS: (TOP_CUT,), DAY1: (DAY2, TOP_CUT), DAY2: (TOP_CUT,), TOP_CUT: ()}
"""The stages whose conversion a phase's report shows: those that come after it."""

ARCHETYPE_GAMES = ("iacta", "dataclysm")
"""Games whose players register a decklist (Superjack's decks are all the same)."""


@dataclass
class Field:
    """Plain data for :func:`metagame.report.metagame_report`, and what a page needs."""

    game: str
    players: dict[int, str | None] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    matches: list[dict[str, Any]] = field(default_factory=list)
    reached: dict[str, set[int]] = field(default_factory=dict)
    in_phase: dict[str, set[int]] = field(default_factory=dict)

    @property
    def phases(self) -> list[str]:
        """The phases played so far, in the order they are played."""
        order = (SWISS, DAY1, DAY2, TOP_CUT)
        return [p for p in order if self.in_phase.get(p)]


def read_event(event: Event, overrides: Overrides | None = None) -> Field:
    """The field of ``event`` (a main event, with its flights if it has any)."""
    flights = list(Event.objects.filter(parent=event).values_list("pk", flat=True))
    phased = bool(flights)
    day1_events = flights if phased else [event.pk]
    entries = list(
        Registration.objects.filter(event__in=[*day1_events, event.pk])
        .exclude(status=Registration.Status.WAITLISTED)
        .values("pk", "event_id", "carried_from_id")
    )
    person = {e["pk"]: e["carried_from_id"] or e["pk"] for e in entries}
    people = [e["pk"] for e in entries if e["carried_from_id"] is None]
    result = Field(event.game)
    lists = _submitted_lists(people, event.game)
    computed, names = archetypes_of(event.game, lists)
    result.players = {p: computed.get(p) for p in people}
    result.names = names
    result.players = apply_overrides(result.players, overrides or {})
    result.names = {
        key: display_name(key, overrides or {}, names)
        for key in {*names, *(k for k in result.players.values() if k)}
    }
    if phased:
        result.reached[DAY2] = {e["carried_from_id"] for e in entries if e["carried_from_id"]}
    _read_matches(result, [*day1_events, event.pk] if phased else [event.pk], event, person)
    return result


def _submitted_lists(people: Iterable[int], game: str) -> dict[int, dict[str, Any]]:
    """Each person's submitted list: its stored archetype and its main deck's cards."""
    if game not in ARCHETYPE_GAMES:
        return {}
    rows = Decklist.objects.filter(
        registration__in=list(people), status=Decklist.Status.SUBMITTED
    ).values_list("registration_id", "archetype", "main")
    return {reg: {"archetype": archetype, "main": main} for reg, archetype, main in rows}


def archetypes_of(
    game: str, lists: dict[int, dict[str, Any]]
) -> tuple[dict[int, str | None], dict[str, str]]:
    """Each list's archetype key and each key's computed name (in the active language)."""
    if game == "iacta":
        keys = {reg: (data["archetype"] or None) for reg, data in lists.items()}
        return keys, {k: iacta_name(k) for k in set(keys.values()) if k}
    decks = {
        str(reg): {entry["name"]: entry.get("count", 1) for entry in data["main"]}
        for reg, data in lists.items()
    }
    clusters = cluster_decks(decks)
    keys = {reg: clusters[str(reg)].key for reg in lists if str(reg) in clusters}
    return keys, {c.key: c.name for c in clusters.values()}


def iacta_name(key: str) -> str:
    """ "EMB/VOX" read out: "EMB splashing VOX" (rule 202.1 and 202.3), translated."""
    if key == NO_MAJOR:
        return _("No Major Syndicate")
    major, _slash, splash = key.partition("/")
    if not splash:
        return major
    return _("%(major)s splashing %(splash)s") % {
        "major": major,
        "splash": _(" and ").join(splash.split("+")),
    }


def _read_matches(result: Field, event_ids: list[int], main: Event, person: dict[int, int]) -> None:
    phased = len(event_ids) > 1 or event_ids[0] != main.pk
    rows = (
        Match.objects.filter(round__event__in=event_ids)
        .values_list(
            "round__event_id",
            "round__kind",
            "player_a_id",
            "player_b_id",
            "is_bye",
            "games",
            "status",
        )
        .order_by("round__event_id", "round__number", "table", "pk")
    )
    for event_id, kind, a, b, is_bye, games, status in rows:
        phase = _phase(kind, event_id, main.pk, phased)
        if not Match.result_stands(is_bye, status):
            _seen(result, phase, a, b, person)
            continue
        pa = person.get(a, a)
        pb = None if is_bye or b is None else person.get(b, b)
        result.matches.append(_record(phase, pa, pb, a, b, games))
        _seen(result, phase, a, b, person)
    if result.in_phase.get(TOP_CUT):
        result.reached[TOP_CUT] = set(result.in_phase[TOP_CUT])


def _phase(kind: str, event_id: int, main_id: int, phased: bool) -> str:
    if kind == Round.Kind.TOP_CUT:
        return TOP_CUT
    if not phased:
        return SWISS
    return DAY2 if event_id == main_id else DAY1


def _seen(result: Field, phase: str, a: int, b: int | None, person: dict[int, int]) -> None:
    players = result.in_phase.setdefault(phase, set())
    for entry in (a, b):
        if entry is not None:
            players.add(person.get(entry, entry))


def _record(
    phase: str, pa: int, pb: int | None, a: int, b: int | None, games: list
) -> dict[str, Any]:
    """A result as the report reads it, from the person ids' side."""
    if pb is None:
        return {"a": pa, "b": None, "winner": pa, "phase": phase}
    played = MatchGames(a, b, tuple(games))
    score = played.score
    winner = {a: pa, b: pb}.get(played.winner) if played.winner is not None else None
    return {
        "a": pa,
        "b": pb,
        "winner": winner,
        "games_a": score.a,
        "games_b": score.b,
        "games_drawn": score.draws,
        "phase": phase,
    }


def combined(fields_by_event: dict[int, Field], game: str) -> Field:
    """Several events' fields as one (a series): each event's players stay its own
    (``"<event>:<person>"``), each event's names, merges and moves are its organiser's,
    and the stages are each event's. Phases are not compared across events."""
    result = Field(game)
    for event_id, one in fields_by_event.items():

        def tag(person: int | None, event_id: int = event_id) -> str | None:
            return None if person is None else f"{event_id}:{person}"

        result.players.update({tag(p): key for p, key in one.players.items()})
        for key, name in one.names.items():
            result.names.setdefault(key, name)
        for match in one.matches:
            winner = match.get("winner")
            result.matches.append(
                {**match, "a": tag(match["a"]), "b": tag(match.get("b")), "winner": tag(winner)}
            )
        for stage, people in one.reached.items():
            result.reached.setdefault(stage, set()).update(tag(p) for p in people)
        for phase, people in one.in_phase.items():
            result.in_phase.setdefault(phase, set()).update(tag(p) for p in people)
    return result
