"""The player's decklist state on pages outside the decks app (the event page).

A tag rather than a view's context: tournaments' pages stay free of the decks app, the
decks app says what a list's state is.
"""

from __future__ import annotations

from django import template

from decks import services
from tournaments.models import Event, Registration

register = template.Library()


@register.inclusion_tag("decks/_list_state.html")
def decklist_state(event: Event, registration: Registration | None) -> dict:
    """State (none / draft with N problems / submitted legal) and deadline, with a link."""
    if registration is None or registration.status != Registration.Status.REGISTERED:
        return {}
    return {
        "event": event,
        "list_state": services.list_state(event, registration),
        "show_link": True,
    }
