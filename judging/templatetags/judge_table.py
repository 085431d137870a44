"""Words for the judge's table page: what each result change was, and claims read both ways."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _lazy

from tournaments.models import Match, MatchClaim, ResultChange
from tournaments.record.match_games import InvalidResult, Score

register = template.Library()

CHANGE_VERBS = {
    "report": _lazy("reported"),
    "confirm": _lazy("confirmed"),
    "dispute": _lazy("disputed"),
    "settle": _lazy("settled"),
    "enter": _lazy("entered"),
    "correct": _lazy("corrected"),
    "game_loss": _lazy("game loss given"),
    "undo_game_loss": _lazy("game loss taken back"),
    "match_loss": _lazy("match loss given"),
    "undo_match_loss": _lazy("match loss taken back"),
}


@register.simple_tag
def change_verb(change: ResultChange) -> str:
    """The change in a word or two ("settled"); an action without words reads as itself."""
    verb = CHANGE_VERBS.get(change.action)
    return str(verb) if verb is not None else change.action.replace("_", " ")


@register.simple_tag
def claim_in_table_order(claim: MatchClaim, match: Match) -> str:
    """The claim's score with the first player's wins first, as the table's result reads."""
    try:
        score = Score.parse(claim.score)
    except InvalidResult:
        return claim.score
    return str(score.swapped() if claim.player_id == match.player_b_id else score)
