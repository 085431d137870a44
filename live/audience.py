"""Which notices a caller may receive: the groups a socket joins (live-updates.md).

Everyone who may see the event gets its public notices; its organisers and judges its
staff notices and their own (the judge calls routed to them); a registered player their
own. A draft is nobody's live event.
"""

from __future__ import annotations

from live import notify
from tournaments.event.roles import JUDGE, ORGANISER, has_role
from tournaments.models import Event, Registration


class Refused(Exception):
    """The caller may not follow this event: the socket closes with code 4403."""


def groups_for(user, event_id: int) -> list[str]:
    """The groups ``user`` may join for the event, or Refused."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or event.status == Event.Status.DRAFT:
        raise Refused(f"event {event_id} is not open to follow")
    if not Event.objects.visible_to(user).filter(pk=event.pk).exists():
        raise Refused(f"event {event_id} is not visible to this caller")
    groups = [notify.public_group(event.pk)]
    if user is not None and user.is_authenticated:
        if has_role(user, event, ORGANISER, JUDGE):
            groups.append(notify.staff_group(event.pk))
            groups.append(notify.judge_group(event.pk, user.pk))
        registration = Registration.objects.filter(event=event, user=user).first()
        if registration is not None:
            groups.append(notify.player_group(event.pk, registration.pk))
    return groups
