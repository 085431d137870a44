"""Organisers and judges: event_role_required(ORGANISER, JUDGE); prints hold decklists."""

from django.urls import path

from printing import views

urlpatterns = [
    path("events/<int:event_id>/print/", views.print_page, name="page"),
    path("events/<int:event_id>/print/new/", views.request_print, name="request"),
    path("events/<int:event_id>/print/jobs/<int:job_id>/", views.job_row, name="job"),
    path(
        "events/<int:event_id>/print/jobs/<int:job_id>/download/",
        views.download,
        name="download",
    ),
]
