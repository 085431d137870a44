"""Series pages: public standings, a player's history, CSV and print; the organiser's
form, events and walk-in offers. Each view reads or calls ``series.services``."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.db.models import Count, Q
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pairing.series import METHODS, TIEBREAKERS, table_text
from series import printing as series_printing
from series import services
from series.forms import MergeForm, SeriesForm, organised_events
from series.models import Series
from series.standings import SeriesTable, series_table
from tournaments.event import entry_offers
from tournaments.event.roles import ORGANISER, has_role
from tournaments.models import EntryOffer, Event, Registration
from web.errors import ServiceError
from web.local_time import shown_zone_caption
from web.spreadsheet import attachment, csv_download, spreadsheet_cell

CSV_COLUMNS = ["rank", "player", "name", "total", "events_played", "best_finish", "match_wins"]


def _series_or_404(series_id: int) -> Series:
    return get_object_or_404(Series.objects.select_related("organiser"), pk=series_id)


def _managed_or_403(request: HttpRequest, series_id: int) -> Series:
    series = _series_or_404(series_id)
    if not services.may_manage(request.user, series):
        raise PermissionDenied(_("Only the series' organiser may change it."))
    return series


def rule_words(series: Series) -> str:
    """How the series counts, in one sentence for its page and its print."""
    rule = series.rule
    how = (
        _("points per place (%(table)s)") % {"table": table_text(rule.placing_points)}
        if rule.method == "placings"
        else _(METHODS["match_points"])
    )
    parts = [_("Points: %(how)s") % {"how": how}]
    if rule.participation:
        parts.append(_("+%(points)s for each event played") % {"points": rule.participation})
    if rule.best_of:
        parts.append(_("best %(count)s events count") % {"count": rule.best_of})
    else:
        parts.append(_("every event counts"))
    breakers = [_(TIEBREAKERS[t]) for t in rule.tiebreakers]
    parts.append(_("ties broken by %(tiebreakers)s") % {"tiebreakers": _(", then ").join(breakers)})
    return _("%(rule)s.") % {"rule": _("; ").join(parts)}


def series_list(request: HttpRequest) -> HttpResponse:
    listed = Series.objects.annotate(
        shown=Count("events", filter=~Q(events__status=Event.Status.DRAFT))
    ).order_by("-created_at")
    return render(request, "series/list.html", {"series_list": listed})


def _context(request: HttpRequest, table: SeriesTable) -> dict:
    """The page's context: the print's (one table for both) and who may manage it."""
    return {
        **series_printing.print_context(table),
        "may_manage": services.may_manage(request.user, table.series),
    }


def series_detail(request: HttpRequest, series_id: int) -> HttpResponse:
    table = series_table(_series_or_404(series_id))
    return render(request, "series/detail.html", _context(request, table))


def series_player(request: HttpRequest, series_id: int, player: str) -> HttpResponse:
    table = series_table(_series_or_404(series_id))
    row = table.row_of(player)
    if row is None:
        raise Http404(_("This player has no result in the series."))
    events = {event.pk: event for event in table.counted}
    history = [{"event": events[score.event], "score": score} for score in row.scores]
    return render(
        request,
        "series/player.html",
        {"series": table.series, "row": row, "history": history, "table": table},
    )


def series_csv(request: HttpRequest, series_id: int) -> HttpResponse:
    """One row a player: rank, total and each counted event's points (bracketed when
    not among the best N)."""
    table = series_table(_series_or_404(series_id))
    response = csv_download(
        attachment(table.series.name, f"series-{table.series.pk}", "-standings.csv")
    )
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS + [event.name for event in table.counted])
    for row in table.rows:
        cells = [row.score_in(event.pk) for event in table.counted]
        writer.writerow(
            [
                spreadsheet_cell(v)
                for v in (
                    row.rank,
                    row.player,
                    row.name,
                    row.total,
                    row.events_played,
                    row.best_finish or "",
                    row.match_wins,
                    *(_cell_text(cell) for cell in cells),
                )
            ]
        )
    return response


def _cell_text(cell) -> str:
    if cell is None:
        return ""
    return str(cell.points) if cell.counted else f"({cell.points})"


def series_pdf(request: HttpRequest, series_id: int) -> HttpResponse:
    """The standings on paper, rendered by a worker (``series.printing``): the file when it
    is ready, else a page saying it is being prepared (202), or that it failed (503)."""
    series = _series_or_404(series_id)
    printed = series_printing.request_pdf(series)
    if printed.state == "ready":
        response = FileResponse(default_storage.open(printed.path), content_type="application/pdf")
        response["Content-Disposition"] = attachment(
            series.name, f"series-{series.pk}", "-standings.pdf", disposition="inline"
        )
        return response
    failed = printed.state == series_printing.FAILED
    return render(
        request,
        "series/print_waiting.html",
        {"series": series, "failed": failed},
        status=503 if failed else 202,
    )


@login_required
def series_create(request: HttpRequest) -> HttpResponse:
    events = organised_events(request.user)
    form = SeriesForm(request.POST or None, events=events, initial={"method": "placings"})
    if request.method == "POST" and form.is_valid():
        try:
            series = services.create_series(
                request.user, form.chosen_events(), **form.service_fields()
            )
        except ServiceError as exc:
            form.show(exc)
        else:
            messages.success(request, _("%(series)s created.") % {"series": series.name})
            return redirect(series)
    return render(request, "series/form.html", {"form": form, "creating": True})


@login_required
def series_edit(request: HttpRequest, series_id: int) -> HttpResponse:
    series = _managed_or_403(request, series_id)
    form = SeriesForm(request.POST or None, initial=SeriesForm.initial_of(series))
    if request.method == "POST" and form.is_valid():
        try:
            services.update_series(series, request.user, **form.service_fields())
        except ServiceError as exc:
            form.show(exc)
        else:
            messages.success(request, _("Series saved: the standings follow the new rule."))
            return redirect(series)
    return render(request, "series/form.html", {"form": form, "series": series})


@login_required
def series_manage(request: HttpRequest, series_id: int) -> HttpResponse:
    series = _managed_or_403(request, series_id)
    events = list(series.events.order_by("date", "pk"))
    addable = organised_events(request.user).exclude(pk__in=[e.pk for e in events])
    walk_ins = list(
        Registration.objects.filter(event__in=events, user__isnull=True)
        .select_related("event")
        .order_by("name", "event__date")
    )
    offers = entry_offers.offers_of(walk_ins)
    for entry in walk_ins:
        entry.open_offer = offers.get(entry.pk)
    context = {
        "series": series,
        "events": events,
        "addable": addable,
        "walk_ins": walk_ins,
        "log": series.log.select_related("actor")[:50],
        "log_zone": shown_zone_caption(),  # a series has no one venue: the site's zone
        "merge_form": MergeForm(),
        "links_directly": entry_offers.is_site_staff(request.user),
    }
    return render(request, "series/manage.html", context)


def _event_from(request: HttpRequest) -> Event:
    try:
        event_id = int(request.POST.get("event", ""))
    except ValueError:
        raise ServiceError(_("Choose an event."), field="event") from None
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise ServiceError(_("There is no such event."), field="event")
    return event


@require_POST
@login_required
def series_event(request: HttpRequest, series_id: int, action: str) -> HttpResponse:
    """Add an event to the series, or take one out."""
    series = _managed_or_403(request, series_id)
    try:
        event = _event_from(request)
        if action == "add":
            services.add_event(series, event, request.user)
            messages.success(
                request,
                _("%(event)s now counts in %(series)s.")
                % {"event": event.name, "series": series.name},
            )
        elif action == "remove":
            services.remove_event(series, event, request.user)
            messages.success(
                request,
                _("%(event)s no longer counts in %(series)s.")
                % {"event": event.name, "series": series.name},
            )
        else:
            raise Http404(_("No such action."))
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("series:manage", series.pk)


@require_POST
@login_required
def series_merge(request: HttpRequest, series_id: int) -> HttpResponse:
    """Offer a walk-in entry of one of the series' events to a player's account: it
    becomes theirs only when they accept (site staff link it at once, logged). The answer
    reads the same whatever the username names (issue 28)."""
    series = _managed_or_403(request, series_id)
    form = MergeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the walk-in entry and type the account's username."))
        return redirect("series:manage", series.pk)
    entry = Registration.objects.filter(
        pk=form.cleaned_data["registration"], event__in=series.events.all()
    ).first()
    if entry is None:
        messages.error(request, _("That entry is not in this series' events."))
    elif not has_role(request.user, entry.event, ORGANISER):
        messages.error(
            request,
            _("Only the organisers of %(event)s can offer its entries.")
            % {"event": entry.event.name},
        )
    else:
        try:
            said = _offer_or_link(request, series, entry, form.cleaned_data["username"])
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, said)
    return redirect("series:manage", series.pk)


def _offer_or_link(request: HttpRequest, series: Series, entry: Registration, username: str) -> str:
    if entry_offers.is_site_staff(request.user):
        merged = entry_offers.link_walk_in(entry, username, request.user)
        services.log_merge(series, merged, request.user)
        return _("%(player)s's results now count for %(username)s (linked by site staff).") % {
            "player": merged.display_name,
            "username": merged.user.username,
        }
    offer = entry_offers.offer_entry(entry, username, request.user)
    services.log_offer(series, offer, request.user)
    return _(
        "%(player)s's entry is offered to the account %(username)s: its results count "
        "for that account only if they accept it."
    ) % {"player": entry.display_name, "username": offer.username}


@require_POST
@login_required
def series_withdraw_offer(request: HttpRequest, series_id: int, offer_id: int) -> HttpResponse:
    """Take back an offer of one of the series' walk-ins that nobody answered yet."""
    series = _managed_or_403(request, series_id)
    offer = get_object_or_404(EntryOffer, pk=offer_id, registration__event__in=series.events.all())
    try:
        entry_offers.withdraw_offer(offer, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("The offer of %(player)s's entry is withdrawn.")
            % {"player": offer.registration.display_name},
        )
    return redirect("series:manage", series.pk)
