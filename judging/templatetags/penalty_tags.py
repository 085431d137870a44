"""Consequence names in templates: the rules' one spelling (``CONSEQUENCE_NAMES``)."""

from __future__ import annotations

from typing import Any

from django import template

from judging.penalties import CONSEQUENCE_NAMES, consequence_words

register = template.Library()


@register.filter
def consequence_name(result: str) -> str:
    """``game_loss`` → "Game Loss": never spell a consequence in a template by hand."""
    return CONSEQUENCE_NAMES.get(result, result)


@register.filter
def consequence_text(consequence: dict[str, Any]) -> str:
    """A consequence with its game and rule: "Game Loss in game 2 (905.1)"."""
    return consequence_words(consequence)
