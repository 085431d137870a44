"""Organisers of the event: event_role_required(ORGANISER) on every view."""

from django.urls import path

from decks import views

urlpatterns = [
    path(
        "events/<int:event_id>/decklists/<int:registration_id>/unlock/",
        views.unlock,
        name="unlock",
    ),
]
