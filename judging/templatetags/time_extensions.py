"""Template tags for time extensions: the warning a judge reads before granting one."""

from __future__ import annotations

from django import template

from tournaments.clock import extensions as clock
from tournaments.models import Match

register = template.Library()


@register.simple_tag
def extension_warning(match: Match | None) -> str:
    """The warning for a table whose result is already in ("" when there is none)."""
    if not isinstance(match, Match):
        return ""
    return clock.warning_for(match) or ""
