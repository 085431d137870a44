"""What the event's pages say it is waiting for: one place that reads the event's real
state, so no page tells an organiser to do what is already done ("Set the event to
'Open for registration'" on an open event) or offers a step that cannot work (a big
"Pair round 1" on a draft with no players).

The states and what each page says are tabled in ``tests/tournaments/test_event_states``
(and ``docs/event-states.md``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Event, Registration, Round
from tournaments.record.history import is_active_in

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
        return _(
            "This event is a draft: only its organisers see it. Edit its details and set it to "
            "“Open for registration” so players can sign up; round 1 can be paired once at "
            "least %(least)s players are checked in."
        ) % {"least": MIN_PLAYERS}
    registered, ready = round_one_players(event)
    if registered == 0:
        return _(
            "Nobody has registered yet: round 1 needs at least %(least)s checked-in "
            "players. Players sign up on the event's page, or add them below."
        ) % {"least": MIN_PLAYERS}
    if ready < MIN_PLAYERS:
        return _(
            "Round 1 needs at least %(least)s checked-in players: %(ready)s of %(registered)s "
            "registered are checked in. Check players in below."
        ) % {"least": MIN_PLAYERS, "ready": ready, "registered": registered}
    return None


def players_empty_hint(event: Event) -> str:
    """The dashboard's hint when nobody has registered, true to the event's status."""
    if event.status == Event.Status.DRAFT:
        return _(
            "Set the event to “Open for registration” (Edit details) so players can sign up, "
            "or add entries below."
        )
    if event.status == Event.Status.REGISTRATION:
        return _("Registration is open: players sign up on the event's page, or add entries below.")
    return _("Add entries below.")


def public_note(event: Event) -> str:
    """The event page's one line on where the event stands and what comes next."""
    if event.status == Event.Status.DRAFT:
        return _("This event is a draft: it is not published yet.")
    if event.status == Event.Status.FINISHED:
        return _("The event is finished.")
    last = event.rounds.order_by("-number").first()
    if last is None:
        return _waiting_for_round_one(event)
    name = (
        _("Round %(number)s (top cut)")
        if last.kind == Round.Kind.TOP_CUT
        else _("Round %(number)s")
    ) % {"number": last.number}
    if last.status == Round.Status.PAIRED:
        return _("%(round)s is paired: find your table in the pairings.") % {"round": name}
    if last.status == Round.Status.RUNNING:
        return _("%(round)s is under way.") % {"round": name}
    return _("%(round)s is over; the next round is not paired yet.") % {"round": name}


def _waiting_for_round_one(event: Event) -> str:
    registered, _ready = round_one_players(event)
    values = {"count": registered}
    if event.status == Event.Status.REGISTRATION:
        return (
            ngettext(
                "Registration is open: %(count)s player registered. Round 1 is not paired yet.",
                "Registration is open: %(count)s players registered. Round 1 is not paired yet.",
                registered,
            )
            % values
        )
    return (
        ngettext(
            "%(count)s player registered. Round 1 is not paired yet.",
            "%(count)s players registered. Round 1 is not paired yet.",
            registered,
        )
        % values
    )
