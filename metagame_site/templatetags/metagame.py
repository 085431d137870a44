"""Numbers of the metagame as its pages print them."""

from __future__ import annotations

from typing import Any

from django import template

from metagame_site import pictures

register = template.Library()


@register.filter
def pct(value: float | None) -> str:
    """A rate as "34.5%", an en dash without one."""
    return pictures.percent(value)


@register.filter
def rate4(value: float | None) -> str:
    """A rate as a plain decimal for a ``data-value`` (what tests and scripts compare)."""
    return "" if value is None else f"{value:.4f}"


@register.filter
def interval(proportion: dict[str, Any] | None) -> str:
    """A proportion's 95% Wilson interval (low to high, in percent)."""
    return pictures.interval(proportion) if proportion else "\u2013"


@register.filter
def get(mapping: dict[str, Any] | None, key: str) -> Any:
    return (mapping or {}).get(key)
