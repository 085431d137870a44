"""Words for the judge's table page: what each result change was, and claims read both ways."""

from __future__ import annotations

from django import template

from tournaments import results
from tournaments.match_games import InvalidResult, Score
from tournaments.models import Match, MatchClaim, ResultChange

register = template.Library()


@register.simple_tag
def change_verb(change: ResultChange) -> str:
    """The change in a word or two ("settled"); an action without words reads as itself."""
    return results.change_verb(change)


@register.simple_tag
def claim_in_table_order(claim: MatchClaim, match: Match) -> str:
    """The claim's score with the first player's wins first, as the table's result reads."""
    try:
        score = Score.parse(claim.score)
    except InvalidResult:
        return claim.score
    return str(score.swapped() if claim.player_id == match.player_b_id else score)
