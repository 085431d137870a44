"""A player's own calendar feed at a secret address (no log-in: calendar apps cannot log
in), and replacing that address from My events."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import calendar_feed
from tournaments.event.calendar import calendar_of, calendar_response, events_of, uid_domain


@require_GET
def my_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The account's events and their rounds; any other token is a 404 that says nothing."""
    user = calendar_feed.user_for(token)
    if user is None:
        raise Http404(_("No such calendar."))
    body = calendar_of(
        _("My events"),
        events_of(user),
        lambda e: request.build_absolute_uri(e.get_absolute_url()),
        uid_domain(request),
    )
    return calendar_response(body, "my-events.ics", private=True)


@require_POST
@login_required
def new_calendar_address(request: HttpRequest) -> HttpResponse:
    """A new private address for the account; the old one stops working at once."""
    if request.POST.get("action") != "new":
        messages.error(request, _("Nothing was changed: say that you want a new address."))
    else:
        calendar_feed.new_feed_token(request.user)
        messages.success(
            request,
            _("Your calendar has a new address. Calendars that used the old one stop updating."),
        )
    return redirect("tournaments:my_events")
