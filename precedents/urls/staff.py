"""Judges and organisers: the search needs a staff role in any event (views._check_judge);
the call panel and marking use event_role_required(ORGANISER, JUDGE), and marking itself
is for the event's organisers and head judge (services.mark)."""

from django.urls import path

from precedents import views

urlpatterns = [
    path("judge/precedents/", views.search_page, name="search"),
    path(
        "events/<int:event_id>/calls/<int:call_id>/precedents/",
        views.call_panel,
        name="for_call",
    ),
    path(
        "events/<int:event_id>/calls/<int:call_id>/precedent/",
        views.mark_call,
        name="mark",
    ),
    path(
        "events/<int:event_id>/calls/<int:call_id>/precedent/appeal/",
        views.record_appeal,
        name="appeal",
    ),
]
