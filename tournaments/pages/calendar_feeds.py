"""An event's calendar feed (RFC 5545), for anyone who may see the event.

Thin: it finds the event and hands it to ``tournaments.event.calendar``. A player's own
feed, at a secret address, is ``accounts.calendar_views``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from tournaments.event.calendar import calendar_of, calendar_response, uid_domain
from tournaments.event.roles import visible_event_or_404


@require_GET
def event_calendar(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event and its rounds; a draft its viewer may not see is a 404, as its page."""
    event = visible_event_or_404(request.user, event_id)
    body = calendar_of(
        event.name,
        [event],
        lambda e: request.build_absolute_uri(e.get_absolute_url()),
        uid_domain(request),
    )
    return calendar_response(body, f"event-{event.pk}.ics", private=False)
