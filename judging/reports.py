"""Penalty reports: an event's penalties as a spreadsheet, and one player's history.

The CSV is what organisers send on to the sanctioning body, so every penalty is in it,
voided ones too (with when and why). A player's history crosses events because a judge
deciding on a penalty needs to know what the player was penalised for before: so it is
for the player, site staff and the judges of a published event the player is in now,
and every look by someone else is kept (``HistoryLook``).
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _

from judging.models import HistoryLook, Penalty
from judging.models import infraction_label as _infraction_label
from judging.penalties import consequence_words
from tournaments.event.local_time import wall_clock
from tournaments.event.roles import JUDGE, ORGANISER, event_role_required
from tournaments.models import Event, EventRole, Registration
from web.spreadsheet import attachment, csv_download, spreadsheet_cell

CSV_COLUMNS = [
    "issued_at",
    "round",
    "table",
    "game",
    "player",
    "infraction",
    "rule",
    "consequences",
    "judge",
    "notes",
    "voided_at",
    "void_reason",
    "time_zone",  # the zone issued_at and voided_at are written in: the venue's
]


def consequence_text(consequence: dict[str, Any]) -> str:
    """One consequence for people: "Game Loss in game 2 (905.1)", "Match Loss (905.2)"."""
    return consequence_words(consequence)


def infraction_label(infraction: str) -> str:
    """The infraction's name for people, in their language ("Slow Play Warning")."""
    return _infraction_label(infraction)


def penalty_url(penalty: Penalty, staff_events: set[int]) -> str:
    """Its line on the event's penalties page for the event's staff; else the event page."""
    if penalty.event_id in staff_events:
        return reverse("judging:penalties", args=[penalty.event_id]) + f"#penalty-{penalty.pk}"
    return penalty.event.get_absolute_url()


def _when(moment, event: Event) -> str:
    """The venue's local time, in the one format Excel reads as a date without asking."""
    return wall_clock(moment, event, "%Y-%m-%d %H:%M:%S")


def _report_rows(event: Event) -> list[list[str]]:
    penalties = event.penalties.select_related("round", "match", "player__user", "judge")
    return [
        [
            _when(p.issued_at, event),
            spreadsheet_cell(p.round.number if p.round_id else ""),
            spreadsheet_cell(p.match.table if p.match_id else ""),
            spreadsheet_cell(p.game),
            spreadsheet_cell(p.player.display_name),
            spreadsheet_cell(infraction_label(p.infraction)),
            spreadsheet_cell(p.rule),
            spreadsheet_cell("; ".join(consequence_text(c) for c in p.consequences)),
            spreadsheet_cell(p.judge.get_username() if p.judge_id else ""),
            spreadsheet_cell(p.notes),
            _when(p.voided_at, event),
            spreadsheet_cell(p.void_reason),
            event.time_zone,
        ]
        for p in penalties.order_by("issued_at", "pk")
    ]


def _attachment(event: Event) -> str:
    """An ASCII file name for old clients and the event's own name (any script) for the rest."""
    return attachment(event.name, f"event-{event.pk}", "-penalties.csv")


@event_role_required(ORGANISER, JUDGE)
def penalty_report_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's penalties as CSV, UTF-8 with a BOM so Excel keeps names in any script."""
    response = csv_download(_attachment(event))
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_report_rows(event))
    return response


@dataclass(frozen=True)
class HistoryAccess:
    """Why a viewer may read a player's history: their own, site staff, or judging
    ``event``, an event the player is in now."""

    own: bool = False
    staff: bool = False
    event: Event | None = None


def events_judged_for(viewer, player) -> QuerySet[Event]:
    """The published, unfinished events ``viewer`` judges that ``player`` is seated in now
    (registered, not dropped or waiting). Every account entry is the holder's own doing:
    they registered, accepted an offer, or site staff linked it (tournaments.event.entry_offers);
    an organiser cannot put an account into an event."""
    return (
        Event.objects.filter(
            status__in=[Event.Status.REGISTRATION, Event.Status.RUNNING],
            roles__user=viewer,
            roles__role=JUDGE,
            registrations__user=player,
            registrations__status=Registration.Status.REGISTERED,
        )
        .distinct()
        .order_by("date", "pk")
    )


def history_access(viewer, player) -> HistoryAccess | None:
    """The player, site staff, and the judges of an event the player is in now, only
    while it is published; nobody else, and no other role (issue 28). An organiser's
    or judge's role in one event never opens the player's records from others."""
    if not viewer.is_authenticated:
        return None
    if viewer.pk == player.pk:
        return HistoryAccess(own=True)
    if viewer.is_staff or viewer.is_superuser:
        return HistoryAccess(staff=True)
    event = events_judged_for(viewer, player).first()
    return HistoryAccess(event=event) if event is not None else None


def may_see_history(viewer, player) -> bool:
    return history_access(viewer, player) is not None


def log_look(viewer, player, access: HistoryAccess) -> None:
    """Every look by someone other than the player is kept: who, whose, through which event."""
    if not access.own:
        HistoryLook.objects.create(
            viewer=viewer, player=player, event=access.event, as_site_staff=access.staff
        )


@login_required
def player_history(request: HttpRequest, user_id: int) -> HttpResponse:
    """Every penalty a player received, across events, with counts by infraction."""
    player = get_object_or_404(get_user_model(), pk=user_id)
    access = history_access(request.user, player)
    if access is None:
        raise PermissionDenied(
            _(
                "Only the player, site staff and the judges of a published event the "
                "player is in now may see this history."
            )
        )
    log_look(request.user, player, access)
    penalties = list(
        Penalty.objects.filter(player__user=player)
        .select_related("event", "round", "match", "player", "judge")
        .order_by("-issued_at", "-pk")
    )
    live = Counter(p.infraction for p in penalties if not p.is_void)
    staff_events = (
        {p.event_id for p in penalties}
        if request.user.is_superuser
        else set(
            EventRole.objects.filter(user=request.user, role__in=[ORGANISER, JUDGE]).values_list(
                "event_id", flat=True
            )
        )
    )
    counts = [{"infraction": infraction_label(key), "count": n} for key, n in live.most_common()]
    rows = [
        {
            "penalty": p,
            "url": penalty_url(p, staff_events),
            "infraction": infraction_label(p.infraction),
            "consequences": [consequence_text(c) for c in p.consequences],
        }
        for p in penalties
    ]
    return render(
        request,
        "judging/player_history.html",
        {
            "player": player,
            "name": player.get_full_name() or player.get_username(),
            "counts": counts,
            "rows": rows,
            "voided": sum(p.is_void for p in penalties),
        },
    )
