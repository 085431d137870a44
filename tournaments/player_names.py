"""Players as people read them: by name, and by their short number in the event ("#23")
only where two share a name. Internal ids ("r29") stay in the API and exports."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from tournaments.models import Event, Registration


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def shared_names(registrations: Iterable[Registration]) -> set[str]:
    """The names (compared without case or extra spaces) that two or more players share."""
    counts = Counter(_key(r.display_name) for r in registrations)
    return {name for name, count in counts.items() if count > 1}


def label(registration: Registration, shared: set[str]) -> str:
    """ "Sam Lee #4" if another player is called Sam Lee too, else "Sam Lee"."""
    name = registration.display_name
    if _key(name) in shared and registration.number is not None:
        return f"{name} {registration.player_number}"
    return name


def player_labels(registrations: Iterable[Registration]) -> dict[int, str]:
    """Each registration's label, by pk, telling apart the names shared among them."""
    listed = list(registrations)
    shared = shared_names(listed)
    return {r.pk: label(r, shared) for r in listed}


def event_shared_names(event: Event) -> set[str]:
    """The names two or more of the event's players share: one query of names alone.

    Reads plain values, not registrations: a page showing one match of a 20,000-player
    event built 20,000 model instances only to compare names (2 s).
    """
    counts: Counter[str] = Counter()
    rows = event.registrations.values_list(
        "name", "user_id", "user__first_name", "user__last_name", "user__username", "number"
    )
    for name, user_id, first, last, username, number in rows:
        counts[_key(_display_name(name, user_id, first, last, username, number))] += 1
    return {name for name, count in counts.items() if count > 1}


def _display_name(name, user_id, first, last, username, number) -> str:
    """``Registration.display_name`` from the values it reads (``User.get_full_name``'s rule)."""
    if name:
        return name
    if user_id:
        return f"{first} {last}".strip() or username
    return f"Player #{number}" if number is not None else "Player "


def tell_apart(event: Event, shown: Iterable[Registration | None]) -> None:
    """Give each shown registration its ``label`` (what pages print as its name), with
    the number where the event has another player of that name: one query."""
    shared = event_shared_names(event)
    for registration in shown:
        if registration is not None:
            registration.label = label(registration, shared)
