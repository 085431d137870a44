"""Pairs of players who must not meet in Swiss (family, teammates), as the organiser lists them.

The Swiss engine treats each pair as a rematch (``pairing.swiss``, ``avoid``): never
paired while any pairing without rematches and such pairs exists. ``EventHistory``
feeds the pairs to the engine; swaps refuse to seat a pair together. Each change is
one transaction on the locked event, and logged.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import AvoidPair, Event, EventLog, Registration
from web.errors import ServiceError
from web.inputs import limited

MAX_REASON = 200  # AvoidPair.reason's column


def listed(event: Event) -> list[AvoidPair]:
    """The event's pairs, oldest first, with both players' rows (and accounts) read."""
    return list(
        AvoidPair.objects.filter(event=event).select_related(
            "first__user", "second__user", "added_by"
        )
    )


def kept_apart(event: Event, a: Registration, b: Registration) -> bool:
    """Whether the organiser keeps ``a`` and ``b`` apart in this event's Swiss rounds."""
    first, second = sorted((a.pk, b.pk))
    return AvoidPair.objects.filter(event=event, first_id=first, second_id=second).exists()


@transaction.atomic
def add_pair(
    event: Event, first: Registration, second: Registration, actor, reason: str = ""
) -> AvoidPair:
    """Keep two players of the event apart in Swiss from the next pairing on; logged.

    A waitlisted player may be listed (they may get a place). Refused, naming the field:
    the same player twice, a player of another event, a pair already listed, a finished
    event.
    """
    reason = limited("reason", reason.strip(), MAX_REASON)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished: there is no pairing left to keep apart."))
    for field, player in (("first", first), ("second", second)):
        if player is None or player.event_id != event.pk:
            raise ServiceError(_("Choose a player of this event."), field=field)
    if first.pk == second.pk:
        raise ServiceError(_("Choose two different players."), field="second")
    low, high = sorted((first, second), key=lambda r: r.pk)
    if AvoidPair.objects.filter(event=event, first=low, second=high).exists():
        raise ServiceError(
            _("%(first)s and %(second)s are already kept apart.")
            % {"first": low.display_name, "second": high.display_name},
            field="second",
        )
    pair = AvoidPair.objects.create(
        event=event, first=low, second=high, reason=reason, added_by=actor
    )
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="avoid_pair_added",
        reason=reason,
        data={"players": [low.display_name, high.display_name]},
    )
    return pair


@transaction.atomic
def remove_pair(event: Event, pair_id: int, actor) -> None:
    """Let the two players of one listed pair meet again; logged."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    pair = (
        AvoidPair.objects.select_related("first__user", "second__user")
        .filter(event=event, pk=pair_id)
        .first()
    )
    if pair is None:
        raise ServiceError(_("That pair is not listed for this event."), field="pair")
    names = [pair.first.display_name, pair.second.display_name]
    pair.delete()
    EventLog.objects.create(
        event=event, actor=actor, action="avoid_pair_removed", data={"players": names}
    )
