"""The judge console: the events the signed-in user judges.

Thin: they read, check roles, and call services.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Event, EventRole
from tournaments.pages.parts import with_counts


@login_required
def judge_console(request: HttpRequest) -> HttpResponse:
    """The judge's home: the events they judge, each linking to its calls and penalties."""
    events = (
        Event.objects.all()
        if request.user.is_superuser
        else Event.objects.filter(roles__user=request.user, roles__role=EventRole.Role.JUDGE)
    )
    return render(request, "judging/console.html", {"events": with_counts(events.distinct())})
