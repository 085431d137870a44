"""What the event's pages say it is waiting for: one place that reads the event's real
state, so no page tells an organiser to do what is already done ("Set the event to
'Open for registration'" on an open event) or offers a step that cannot work (a big
"Pair round 1" on a draft with no players).

The states and what each page says are tabled in ``tests/tournaments/test_event_states``
(and ``docs/event-states.md``).
"""

from __future__ import annotations

from tournaments.history import is_active_in
from tournaments.models import Event, Registration, Round

MIN_PLAYERS = 2


def round_one_players(event: Event) -> tuple[int, int]:
    """(registered, able to play round 1): round 1 pairs the second, by the pairing's
    own rule (``history.is_active_in``)."""
    registered = list(event.registrations.filter(status=Registration.Status.REGISTERED))
    return len(registered), sum(1 for r in registered if is_active_in(r, 1))


def pairing_blocker(event: Event) -> str | None:
    """Why round 1 cannot be paired yet, in words that say what to do; None when it can
    (or when round 1 is already paired: later rounds have their own checks)."""
    if event.rounds.exists() or event.status == Event.Status.FINISHED:
        return None
    if event.status == Event.Status.DRAFT:
        return (
            "This event is a draft: only its organisers see it. Edit its details and set it to "
            "“Open for registration” so players can sign up; round 1 can be paired once at "
            f"least {MIN_PLAYERS} players are checked in."
        )
    registered, ready = round_one_players(event)
    if registered == 0:
        return (
            f"Nobody has registered yet: round 1 needs at least {MIN_PLAYERS} checked-in "
            "players. Players sign up on the event's page, or add them below."
        )
    if ready < MIN_PLAYERS:
        return (
            f"Round 1 needs at least {MIN_PLAYERS} checked-in players: {ready} of {registered} "
            "registered are checked in. Check players in below."
        )
    return None


def players_empty_hint(event: Event) -> str:
    """The dashboard's hint when nobody has registered, true to the event's status."""
    if event.status == Event.Status.DRAFT:
        return (
            "Set the event to “Open for registration” (Edit details) so players can sign up, "
            "or add entries below."
        )
    if event.status == Event.Status.REGISTRATION:
        return "Registration is open: players sign up on the event's page, or add entries below."
    return "Add entries below."


def public_note(event: Event) -> str:
    """The event page's one line on where the event stands and what comes next."""
    if event.status == Event.Status.DRAFT:
        return "This event is a draft: it is not published yet."
    if event.status == Event.Status.FINISHED:
        return "The event is finished."
    last = event.rounds.order_by("-number").first()
    if last is None:
        registered, _ = round_one_players(event)
        players = f"{registered} player{'' if registered == 1 else 's'} registered"
        if event.status == Event.Status.REGISTRATION:
            return f"Registration is open: {players}. Round 1 is not paired yet."
        return f"{players.capitalize()}. Round 1 is not paired yet."
    name = f"Round {last.number}" + (" (top cut)" if last.kind == Round.Kind.TOP_CUT else "")
    if last.status == Round.Status.PAIRED:
        return f"{name} is paired: find your table in the pairings."
    if last.status == Round.Status.RUNNING:
        return f"{name} is under way."
    return f"{name} is over; the next round is not paired yet."
