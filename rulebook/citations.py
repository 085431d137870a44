"""Turning a ruling's citation strings into links into the rules reference."""

from __future__ import annotations

from django.urls import reverse

from rules_engine.reference import locate


def citation_link(citation: str) -> dict[str, str | None]:
    """``{"text": ..., "url": ...}``; url is None for a citation the texts do not hold."""
    found = locate(citation)
    if found is None:
        return {"text": citation, "url": None}
    game, anchor = found
    return {"text": citation, "url": f"{reverse('rulebook:reference', args=[game])}#{anchor}"}
