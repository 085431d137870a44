from django import template

from tournaments.models import Match
from tournaments.results import games_of

register = template.Library()


@register.simple_tag
def score_of(match: Match) -> str:
    """The match's games as a score, first player's wins first: '2-1', '1-1-1', or '—'."""
    if match.is_bye:
        return "2-0"
    games = games_of(match)
    if not games.played and match.status == Match.Status.PENDING:
        return "—"
    return str(games.score)
