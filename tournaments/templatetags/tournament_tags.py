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


@register.simple_tag
def score_for(match: Match, player) -> str:
    """The match's score from ``player``'s side, their wins first: what they would type."""
    games = games_of(match)
    if not games.played:
        return "—"
    return str(games.score.swapped() if player.pk == match.player_b_id else games.score)


@register.simple_tag
def settled_by_judge(match: Match):
    """The judge's settlement of a dispute, when that is the match's latest change."""
    latest = match.changes.order_by("-changed_at", "-pk").first()
    return latest if latest is not None and latest.action == "settle" else None
