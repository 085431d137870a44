"""The metagame's CSV download of an event: public once the decklists are (the privacy
rule is ``services.access``, as for the page and the API), so no log-in is asked for."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from metagame_site import services
from metagame_site.export import report_csv
from metagame_site.reading import NOT_PUBLISHED, checked_phase
from series.models import Series
from tournaments.event.roles import visible_event_or_404
from web.errors import ServiceError
from web.spreadsheet import attachment, csv_download


def event_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's metagame (a flight's: its main event's) for ``?phase=`` as CSV."""
    event = visible_event_or_404(request.user, event_id)
    if event.parent_id:
        event = visible_event_or_404(request.user, event.parent_id)
    level = services.access(request.user, event)
    if level == services.NOTHING:
        raise PermissionDenied(str(NOT_PUBLISHED))
    try:
        phase = checked_phase(request.GET.get("phase"))
        data = services.report(services.Asked(event, phase, level))
    except ServiceError as exc:
        return render(request, "400.html", {"reason": exc.message}, status=400)
    suffix = "-metagame.csv" if phase == services.ALL else f"-metagame-{phase}.csv"
    response = csv_download(attachment(event.name, f"event-{event.pk}", suffix))
    response.write(report_csv(data))
    return response


def series_csv(request: HttpRequest, series_id: int) -> HttpResponse:
    """The series' metagame as CSV (public: it counts only published decklists)."""
    series = get_object_or_404(Series, pk=series_id)
    response = csv_download(attachment(series.name, f"series-{series.pk}", "-metagame.csv"))
    response.write(report_csv(services.series_report(series)))
    return response
