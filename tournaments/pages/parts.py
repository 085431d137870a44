"""What several of the event's pages share: the fragment an htmx request asks for, a
round's tables as pages list them, events with their player counts, a dashboard form
answered once."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from tournaments import once
from tournaments.models import Event, Match, Registration, Round


def round_matches(round_: Round | None) -> list[Match]:
    """The round's tables in the order pages list them (byes last), with both players."""
    if round_ is None:
        return []
    return list(
        round_.matches.select_related("player_a__user", "player_b__user").order_by(
            "is_bye", "table"
        )
    )


def page_part(request: HttpRequest, parts: dict[str, str], page: str) -> str:
    """The template of the fragment asked for with htmx (``?part=``), else the page's."""
    if not request.htmx:
        return page
    return parts.get(request.GET.get("part", ""), page)


SEATED = Q(registrations__status=Registration.Status.REGISTERED)


def with_counts(events: QuerySet[Event]) -> QuerySet[Event]:
    """The events with how many players are seated in each (``players``)."""
    return events.annotate(players=Count("registrations", filter=SEATED))


def back_to_dashboard_once(
    request: HttpRequest, event: Event, act: Callable[[], bool]
) -> HttpResponse:
    """Do a dashboard form's ``act`` (which says whether it wrote) and go back to the
    dashboard. A form sent again with its one-time token (the browser's resend after an
    answer that never arrived, static/js/resend.js) gets the first answer, messages
    included, and writes nothing."""

    def back() -> HttpResponse:
        return redirect("tournaments:manage", event.pk)

    def perform() -> tuple[HttpResponse, bool]:
        wrote = act()
        return back(), wrote

    return once.form_once(request, perform, back)
