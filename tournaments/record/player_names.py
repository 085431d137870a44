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
    return labelled(registration.display_name, registration.number, shared)


def labelled(name: str, number: int | None, shared: set[str]) -> str:
    """:func:`label` from plain values: a display name and the player's event number."""
    if _key(name) in shared and number is not None:
        return f"{name} #{number}"
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
    for name, number, first, last, username in event.registrations.values_list(
        *Registration.NAME_FIELDS
    ):
        counts[_key(Registration.name_shown(name, first, last, username, number))] += 1
    return {name for name, count in counts.items() if count > 1}


def tell_apart(event: Event, shown: Iterable[Registration | None]) -> None:
    """Give each shown registration its ``label`` (what pages print as its name), with
    the number where the event has another player of that name: one query."""
    shared = event_shared_names(event)
    for registration in shown:
        if registration is not None:
            registration.label = label(registration, shared)
