"""What the player's phone page says about their seat, and the scores a tap reports.

Plain functions over a match and the player: the page, its live fragment and the push
message to a closed phone all word the seat the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from pairing.placings import stage_phrase
from tournaments.record.match_games import Score, check_score, games_needed

if TYPE_CHECKING:  # plain attributes only: the functions are tested without a database
    from tournaments.models import Match, Registration


def opponent_of(match: Match, me: Registration) -> Registration | None:
    """The other player at the table (None for a bye)."""
    if match.is_bye:
        return None
    return match.player_b if match.player_a_id == me.pk else match.player_a


def seat_text(match: Match, me: Registration) -> str:
    """ "Round 4 — table 12 vs Grace Hopper", or "Round 4 — you have the bye"."""
    opponent = opponent_of(match, me)
    if opponent is None:
        return _("Round %(number)s — you have the bye") % {"number": match.round.number}
    return _("Round %(number)s — table %(table)s vs %(opponent)s") % {
        "number": match.round.number,
        "table": match.table,
        "opponent": opponent.display_name,
    }


@dataclass(frozen=True)
class TapScore:
    """A score button: the player's own game wins first, and what that means for them."""

    score: Score

    @property
    def text(self) -> str:
        return str(self.score)

    @property
    def outcome(self) -> str:
        if self.score.a > self.score.b:
            return _("you won")
        if self.score.a < self.score.b:
            return _("you lost")
        return _("a draw")

    @property
    def is_draw(self) -> bool:
        return self.score.a == self.score.b

    @property
    def question(self) -> str:
        """What the page asks before it reports: "Report 2-1 (you won)?"."""
        return _("Report %(score)s (%(outcome)s)?") % {"score": self.text, "outcome": self.outcome}


def tap_scores(match_format: str, top_cut: bool = False) -> list[TapScore]:
    """The finished results of the format, wins first, then the draws it allows.

    Best of three: 2-0, 2-1, 1-2, 0-2, then the draws 1-1 (time called) and 1-1-1. A
    top-cut match has no draw. Anything else (1-0 at time, two drawn games) is typed.
    """
    needed = games_needed(match_format)
    wins = [Score(needed, lost) for lost in range(needed)]
    losses = [Score(won, needed) for won in reversed(range(needed))]
    draws = [] if top_cut else [Score(k, k) for k in range(1, needed)]
    if not top_cut:
        draws.append(Score(needed - 1, needed - 1, 1))
    scores = [*wins, *losses, *draws]
    for score in scores:
        check_score(score, match_format, top_cut)  # every button is a score the format allows
    return [TapScore(score) for score in scores]


def tap_score(text: str, match_format: str, top_cut: bool = False) -> TapScore | None:
    """The button for ``text`` ("2-1"), or None if the format has no such button."""
    return next((t for t in tap_scores(match_format, top_cut) if t.text == text.strip()), None)


@dataclass(frozen=True)
class Idle:
    """What My match says when the player has no match: a headline and what comes next."""

    title: str
    hint: str


def idle_text(
    me: Registration,
    placing: Mapping[str, Any] | None,
    *,
    event_over: bool,
    cut_now: str | None,
) -> Idle | None:
    """Why the player has no match, when it is not "the round is not paired yet".

    ``placing`` is their row of the event's placings (``tournaments.record.placings``),
    ``cut_now`` the top cut's round being played ("semifinal"), ``event_over`` whether
    the placings are final. None: nothing to say but the usual wait for pairings.
    """
    decided = placing and placing.get("decided")
    place = (placing.get("place_shown") or placing["place_label"]) if decided else None
    if me.disqualified:
        return Idle(_("You were disqualified from this event."), _("You will not be paired again."))
    if me.status == "dropped":
        return _dropped(me.dropped_after_round, place if event_over else None)
    if event_over and place:
        return Idle(
            _("The event is over: you finished %(place)s.") % {"place": place},
            _("Thank you for playing. The final placings are on the standings page."),
        )
    if cut_now and place:
        return Idle(
            _("You finished %(place)s.") % {"place": place},
            _cut_hint(placing.get("cut"), cut_now),
        )
    return None


def _dropped(after: int | None, place: str | None) -> Idle:
    title = (
        _("You dropped after round %(number)s.") % {"number": after}
        if after
        else _("You dropped from this event.")
    )
    if place:
        hint = _("You will not be paired again. You finished %(place)s.") % {"place": place}
    else:
        hint = _("You will not be paired again.")
    return Idle(title, hint)


def _cut_hint(cut: str | None, cut_now: str) -> str:
    """Where the player's cut ended, and which round of it is being played now."""
    now = _stage_words(cut_now)
    if cut:
        return _(
            "You lost in %(stage)s. The top cut continues with %(now)s: follow it on the "
            "Top cut page."
        ) % {"stage": _stage_words(cut), "now": now}
    return _(
        "You did not make the top cut. The top cut continues with %(now)s: follow it on the "
        "Top cut page."
    ) % {"now": now}


def _stage_words(stage: str) -> str:
    """``pairing.placings.stage_phrase`` in the reader's language ("the semifinals")."""
    known = {
        "final": _("the final"),
        "semifinal": _("the semifinals"),
        "quarterfinal": _("the quarterfinals"),
    }
    if stage in known:
        return known[stage]
    players = stage.removeprefix("round of ")
    if players.isdigit():
        return _("the round of %(players)s") % {"players": players}
    return stage_phrase(stage)
