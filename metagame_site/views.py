"""The metagame pages: an event's (anyone who may see the event, as much as
``services.access`` allows) and the organiser's archetype names, merges and splits."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from metagame_site import pictures, reading, services
from metagame_site.field import ARCHETYPE_GAMES, read_event
from series.models import Series
from tournaments.event.roles import ORGANISER, event_role_required, visible_event_or_404
from tournaments.models import Event, Registration
from web.errors import ServiceError


@require_safe
def event_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """What was played, how it did and the matchups, with their uncertainty."""
    event = visible_event_or_404(request.user, event_id)
    if event.parent_id:
        return redirect("metagame:event", event.parent_id)
    settings = services.settings_of(event)
    level = services.access(request.user, event, settings)
    context: dict[str, Any] = {
        "event": event,
        "level": level,
        "has_archetypes": event.game in ARCHETYPE_GAMES,
        "published": event.decklists_public == "all",
        "shares_allowed": settings.shares_after_event,
        "manage": services.may_manage(request.user, event),
    }
    if level != services.NOTHING and event.game in ARCHETYPE_GAMES:
        try:
            phase = reading.checked_phase(request.GET.get("phase"))
            data, key = services.report_and_key(services.Asked(event, phase, level))
        except ServiceError as error:
            context["error"] = error.message
            return render(request, "metagame_site/event.html", context, status=400)
        context.update(_shown(data, key))
    return render(request, "metagame_site/event.html", context)


def _shown(data: dict[str, Any], key: str) -> dict[str, Any]:
    """The report as the page lays it out: tables beside the pictures."""
    names = {row["key"]: row["name"] for row in data["rows"]}
    cells = [
        {
            **cell,
            "name": names[cell["key"]],
            "opponent_name": names[cell["opponent"]],
        }
        for cell in data["matrix"]
        if cell["record"]["n"]
    ]
    return {
        "data": data,
        "rows": pictures.ranked(data["rows"]),
        "cells": cells,
        "pictures": pictures.drawn(data, key),
        "phases": [(p, pictures.phase_name(p)) for p in data.get("phases", [])],
        "stages": [(s, pictures.stage_name(s)) for s in data.get("stages", [])],
        "phase_name": pictures.phase_name(data.get("phase", services.ALL)),
    }


@require_http_methods(["GET", "POST"])
@event_role_required(ORGANISER)
def archetypes_page(request: HttpRequest, event: Event) -> HttpResponse:
    """Name archetypes, merge two labels for one deck, move a deck into another archetype,
    and choose whether the shares show after the event when decklists stay private."""
    if event.parent_id:
        return redirect("metagame:archetypes", event.parent_id)
    if request.method == "POST":
        try:
            _change(request, event)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Saved: the metagame pages show it now."))
        return redirect(reverse("metagame:archetypes", args=[event.pk]))
    settings = services.settings_of(event)
    overrides = settings.overrides
    field = read_event(event, {"move": overrides.get("move", {})})
    counts: dict[str, int] = {}
    for key in field.players.values():
        if key:
            counts[key] = counts.get(key, 0) + 1
    names = overrides.get("names", {})
    merge = overrides.get("merge", {})
    archetypes = [
        {
            "key": key,
            "computed": field.names.get(key, key),
            "name": names.get(key, ""),
            "players": counts[key],
            "merged_into": merge.get(key, ""),
        }
        for key in sorted(counts, key=lambda k: (-counts[k], k))
    ]
    moved = _moved(event, overrides.get("move", {}))
    return render(
        request,
        "metagame_site/archetypes.html",
        {
            "event": event,
            "archetypes": archetypes,
            "keys": [a["key"] for a in archetypes],
            "moved": moved,
            "players": _players(event, field),
            "settings": settings,
            "has_archetypes": event.game in ARCHETYPE_GAMES,
        },
    )


def _change(request: HttpRequest, event: Event) -> None:
    action = request.POST.get("action", "")
    user = request.user
    if action == "name":
        services.name_archetype(
            event, user, key=request.POST.get("key", ""), name=request.POST.get("name", "")
        )
    elif action == "merge":
        services.merge_archetypes(
            event, user, key=request.POST.get("key", ""), into=request.POST.get("into", "")
        )
    elif action == "unmerge":
        services.unmerge_archetype(event, user, key=request.POST.get("key", ""))
    elif action == "move":
        services.move_deck(
            event,
            user,
            registration=request.POST.get("registration", ""),
            key=request.POST.get("archetype", ""),
        )
    elif action == "sharing":
        services.set_sharing(event, user, allowed=request.POST.get("allowed", "") == "on")
    else:
        raise ServiceError(_("Choose what to change."), "action")


def _moved(event: Event, move: dict[str, str]) -> list[dict[str, Any]]:
    if not move:
        return []
    entries = Registration.objects.filter(pk__in=[int(pk) for pk in move]).select_related("user")
    return [{"registration": e, "key": move[str(e.pk)]} for e in entries]


def _players(event: Event, field) -> list[dict[str, Any]]:
    """Every player with a list, for choosing whose deck to move."""
    ids = [pk for pk, key in field.players.items() if key]
    entries = Registration.objects.filter(pk__in=ids).select_related("user")
    return sorted(
        ({"registration": e, "key": field.players[e.pk]} for e in entries),
        key=lambda row: row["registration"].display_name.casefold(),
    )


@require_safe
def series_page(request: HttpRequest, series_id: int) -> HttpResponse:
    """The metagame of a series: its finished events whose decklists are published."""
    series = get_object_or_404(Series, pk=series_id)
    events = services.series_events(series)
    context: dict[str, Any] = {"series": series, "events": events, "level": services.FULL}
    if events.counted:
        data, key = services.series_report_and_key(series)
        context.update(_shown(data, key))
    return render(request, "metagame_site/series.html", context)
