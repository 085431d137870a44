"""The organiser's print page: ask for a document, watch it render, download it."""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from printing import documents, jobs
from printing.models import PrintJob
from tournaments.event.roles import JUDGE, ORGANISER, event_role_required
from tournaments.models import Event
from tournaments.record.rounds import latest_round
from web.errors import ServiceError
from web.inputs import whole_number

STAFF = (ORGANISER, JUDGE)


@event_role_required(*STAFF)
def print_page(request: HttpRequest, event: Event) -> HttpResponse:
    current = latest_round(event)
    recent = list(event.print_jobs.select_related("requested_by")[:15])
    jobs.resend_jobs(recent)  # reloading the page after a Redis outage sends waiting jobs
    if jobs.requeue_jobs(recent):  # ...and sends again those whose work was lost
        recent = list(event.print_jobs.select_related("requested_by")[:15])
    context = {
        "event": event,
        "kinds": documents.all_kinds(),
        # Each kind with its title as the button's sentence says it ("Print match slips";
        # German nouns keep their capital: "Ergebniszettel drucken").
        "options": [(kind, in_sentence(str(kind.title))) for kind in documents.all_kinds()],
        "rounds": list(event.rounds.values_list("number", flat=True)),
        "current": current.number if current else None,
        "jobs": recent,
    }
    return render(request, "printing/print_page.html", context)


@require_POST
@event_role_required(*STAFF)
def request_print(request: HttpRequest, event: Event) -> HttpResponse:
    kind = request.POST.get("kind", "")
    round_number = whole_number(request.POST.get("round"))
    try:
        job, reused = jobs.request_print(event, kind, round_number, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("printing:page", event.pk)
    if jobs.is_waiting(job):
        messages.warning(request, _(jobs.WAITING_NOTE))
    elif reused:
        messages.info(request, _("Nothing changed since the last print: the same file is reused."))
    else:
        title = in_sentence(str(documents.get(kind).title))
        messages.success(request, _("Printing %(document)s…") % {"document": title})
    return redirect(reverse("printing:page", args=[event.pk]) + f"#job-{job.pk}")


def in_sentence(title: str) -> str:
    """A document's title inside a sentence: lower case in English ("Printing match
    slips…"); German nouns keep their capital, and Japanese has no case."""
    return title.lower() if (translation.get_language() or "en").startswith("en") else title


@event_role_required(*STAFF)
def job_row(request: HttpRequest, event: Event, job_id: int) -> HttpResponse:
    """One job's status, polled by the page until it is done (htmx).

    A job kept while the broker was down is sent from here once the broker is back, and
    a stalled one (its work lost) is sent again, so the page that shows a job is enough
    to get it going.
    """
    job = get_object_or_404(PrintJob, pk=job_id, event=event)
    jobs.resend_if_waiting(job)
    jobs.requeue_if_stalled(job)
    return render(
        request,
        "printing/_job_row.html",
        {"event": event, "job": job, "kinds": documents.all_kinds()},
    )


@event_role_required(*STAFF)
def download(request: HttpRequest, event: Event, job_id: int) -> FileResponse:
    job = get_object_or_404(PrintJob, pk=job_id, event=event)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404(_("This print is not ready."))
    try:
        handle = job.file.open("rb")
    except FileNotFoundError:
        raise Http404(_("The file is gone: print it again.")) from None
    return FileResponse(
        handle,
        as_attachment=True,
        filename=job.file.name.rsplit("/", 1)[-1],
        content_type="application/pdf",
    )
