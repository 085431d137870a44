"""Consequence names in templates: the rules' one spelling (``CONSEQUENCE_NAMES``), in the
reader's language."""

from __future__ import annotations

from typing import Any

from django import template

from judging.penalties import consequence_name as _consequence_name
from judging.penalties import consequence_words

register = template.Library()


@register.filter
def consequence_name(result: str) -> str:
    """``game_loss`` → "Game Loss": never spell a consequence in a template by hand."""
    return _consequence_name(result)


@register.filter
def consequence_text(consequence: dict[str, Any]) -> str:
    """A consequence with its game and rule: "Game Loss in game 2 (905.1)"."""
    return consequence_words(consequence)
