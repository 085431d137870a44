"""Anyone, signed in or not: no decorator; drafts are hidden by ``Event.objects.visible_to``."""

from django.urls import path

from tournaments import hall_views, round_views, standings_views, views

urlpatterns = [
    path("events/", views.event_list, name="events"),
    path("events/<int:event_id>/", views.event_detail, name="event"),
    path("events/<int:event_id>/pairings/", round_views.pairings, name="pairings"),
    path("events/<int:event_id>/standings/", standings_views.standings, name="standings"),
    path("events/<int:event_id>/summary/", standings_views.summary, name="summary"),
    path("events/<int:event_id>/placings.csv", standings_views.placings_csv, name="placings_csv"),
    path("events/<int:event_id>/bracket/", round_views.bracket_page, name="bracket"),
    path("events/<int:event_id>/projector/", round_views.projector, name="projector"),
    path("events/<int:event_id>/hall/", hall_views.hall_page, name="hall"),
    path("events/<int:event_id>/hall/fragment/", hall_views.hall_fragment, name="hall_fragment"),
]
