from decimal import Decimal

from django import template
from django.utils.html import format_html

from tournaments import once
from tournaments.event import schedule
from tournaments.models import Match
from tournaments.results.services import games_of, result_version

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


@register.filter
def percent(value) -> str:
    """A standings fraction as people read it: 0.4444 -> "44.44%" (two decimals)."""
    if value is None or value == "":
        return ""
    return f"{Decimal(str(value)) * 100:.2f}%"


@register.filter
def percent_of(row: dict, key: str) -> str:
    """``row[key]`` as a percentage (the table's columns are the event's tiebreakers)."""
    return percent(row.get(key))


@register.simple_tag
def once_token() -> str:
    """The hidden one-time token of a form that writes: sent twice, it is answered once."""
    return format_html(
        '<input type="hidden" name="{}" value="{}">', once.FORM_FIELD, once.new_form_token()
    )


@register.simple_tag
def version_field(match: Match) -> str:
    """The hidden version of the result the form was drawn with (``results.result_version``)."""
    return format_html('<input type="hidden" name="version" value="{}">', result_version(match))


@register.filter
def delay_cell(delay: int | None) -> str:
    """A schedule's delay in its table: "12 minutes late", "on time"."""
    return schedule.delay_cell(delay)


@register.filter
def delay_words(delay: int | None) -> str:
    """The running delay as the hall says it: "running 12 minutes late", "on time"."""
    return schedule.delay_words(delay)
