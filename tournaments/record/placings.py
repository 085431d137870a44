"""An event's final placings as the site shows them (``pairing.placings`` computes them).

The placings are read from the cached Swiss standings and the top cut's rounds (a
handful of matches), so they cost one small query over the standings. They are final
once the cut's final has a winner, or, for an event without a cut, once its last Swiss
round is closed (or the organiser finished the event).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext as _

from pairing.placings import (
    PlacingsInputError,
    final_placings,
    place_label,
    stage_name,
    stage_phrase,
    winner,
)
from tournaments.models import Event, Round
from tournaments.record.match_games import MatchGames
from tournaments.record.rounds import latest_round, swiss_round_count
from tournaments.record.standings import standings_rows

logger = logging.getLogger(__name__)


def cut_text(row: dict[str, Any]) -> str:
    """How far a player went in the top cut, in words ("Lost in the semifinals"): a
    whole phrase for each stage ``pairing.placings.stage_name`` names."""
    cut = row.get("cut")
    if cut is None:
        return ""
    if cut == "winner":
        return _("Won the final")
    lost = bool(row.get("decided"))
    if cut == "final":
        return _("Lost in the final") if lost else _("In the final")
    if cut == "semifinal":
        return _("Lost in the semifinals") if lost else _("In the semifinals")
    if cut == "quarterfinal":
        return _("Lost in the quarterfinals") if lost else _("In the quarterfinals")
    players = cut.removeprefix("round of ")
    if players.isdigit():
        if lost:
            return _("Lost in the round of %(players)s") % {"players": players}
        return _("In the round of %(players)s") % {"players": players}
    return f"Lost in {stage_phrase(cut)}" if lost else f"In {stage_phrase(cut)}"


def place_words(first: int, last: int) -> str:
    """A final place as the reader's language writes it: "3rd-4th", "3-4位", "3.-4."
    (en dashes).

    The pattern is a format of the language (``arbiter/formats``, like its dates);
    English, which has none, spells ordinals (``pairing.placings.place_label``)."""
    if first == last:
        pattern = get_format("PLACE_FORMAT")
        return pattern % {"n": first} if pattern else place_label(first, last)
    pattern = get_format("PLACE_BAND_FORMAT")
    return pattern % {"first": first, "last": last} if pattern else place_label(first, last)


def _place_shown(row: dict[str, Any]) -> str:
    if row.get("cut") is not None and not row.get("decided"):
        return _("Top %(players)s") % {"players": row.get("place_to", row["place"])}
    return place_words(row["place"], row.get("place_to", row["place"]))


def _described(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with its words for people (``place_label`` stays the exports' English)."""
    for row in rows:
        row["place_shown"] = _place_shown(row)
        row["cut_text"] = cut_text(row)
        row["status"] = (
            "disqualified" if row.get("disqualified") else "dropped" if row.get("dropped") else ""
        )
    return rows


@dataclass(frozen=True)
class EventPlacings:
    """The placings rows (standings rows with their place), and where the event stands."""

    rows: list[dict[str, Any]]
    cut_started: bool
    complete: bool
    cut_now: str | None  # the cut's round being played ("semifinal"), None when none is

    @property
    def shown(self) -> bool:
        """Whether the standings page leads with the placings (the cut began, or it is over)."""
        return self.cut_started or self.complete

    @property
    def winner(self) -> dict[str, Any] | None:
        """The winner's row once decided: the final's winner, or a Swiss-only event's 1st."""
        if not self.complete or not self.rows:
            return None
        if self.cut_started:
            won = winner(self.rows)
            return next((row for row in self.rows if row["player"] == won), None)
        first = self.rows[0]
        return None if first.get("disqualified") else first

    def row_for(self, registration_id: int) -> dict[str, Any] | None:
        return next((row for row in self.rows if row["registration"] == registration_id), None)


def event_placings(event: Event) -> EventPlacings:
    """The event's placings now: the cut's bands so far, then the Swiss order."""
    rows = standings_rows(event)
    public_id = {row["registration"]: row["player"] for row in rows}
    cut_rounds = _cut_rounds(event, public_id)
    try:
        placings = final_placings(rows, cut_rounds)
    except PlacingsInputError:
        # A cut the bracket cannot read (a drawn match left standing): no bands, and
        # no winner claimed, rather than a broken page.
        logger.exception("event %s: the top cut cannot be placed", event.pk)
        placings = final_placings(rows)
        return EventPlacings(_described(placings), bool(cut_rounds), False, None)
    placings = _described(placings)
    if cut_rounds:
        complete = winner(placings) is not None
        playing = None if complete else stage_name(len(cut_rounds[-1]))
        return EventPlacings(placings, True, complete, playing)
    return EventPlacings(placings, False, _swiss_over(event), None)


def _cut_rounds(event: Event, public_id: dict[int, Any]) -> list[list[dict[str, Any]]]:
    """The top cut's rounds as the placings module reads them, in bracket order."""
    cut = (
        Round.objects.filter(event=event, kind=Round.Kind.TOP_CUT)
        .prefetch_related("matches")
        .order_by("number")
    )
    rounds = []
    for round_ in cut:
        matches = []
        for match in sorted(round_.matches.all(), key=lambda m: (m.table or 0, m.pk)):
            if match.is_bye or match.player_b_id is None:
                continue
            won = MatchGames.of(match).winner if match.has_result else None
            matches.append(
                {
                    "players": [public_id[match.player_a_id], public_id[match.player_b_id]],
                    "winner": public_id.get(won) if won is not None else None,
                }
            )
        if matches:
            rounds.append(matches)
    return rounds


def _swiss_over(event: Event) -> bool:
    """No cut: the Swiss standings are final once the last round is closed."""
    if event.status == Event.Status.FINISHED:
        return True
    if event.top_cut >= 2:
        return False
    last = latest_round(event)
    return (
        last is not None
        and last.kind == Round.Kind.SWISS
        and last.status == Round.Status.CLOSED
        and last.number >= swiss_round_count(event)
    )
