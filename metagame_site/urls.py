"""The metagame's URLs (``metagame:<name>``): who reads how much is ``services.access``,
asked by every view (public once the decklists are, else the event's staff); the
archetypes page is the event's organisers'."""

from django.urls import path

from metagame_site import api, downloads, views

app_name = "metagame"

# Pages: an event's and a series' metagame (anyone who may see them), the organiser's
# archetypes page (event_role_required(ORGANISER)).
page_urlpatterns = [
    path("events/<int:event_id>/metagame/", views.event_page, name="event"),
    path("events/<int:event_id>/metagame/archetypes/", views.archetypes_page, name="archetypes"),
    path("series/<int:series_id>/metagame/", views.series_page, name="series"),
]

# An event's metagame as CSV, a page URL beside the event's other downloads.
csv_urlpatterns = [
    path("events/<int:event_id>/metagame.csv", downloads.event_csv, name="event_csv"),
    path("series/<int:series_id>/metagame.csv", downloads.series_csv, name="series_csv"),
]

# API clients, anyone (as much as services.access lets them read).
api_urlpatterns = [
    path("api/v1/events/<int:event_id>/metagame/", api.EventMetagame.as_view(), name="api_event"),
    path(
        "api/v1/series/<int:series_id>/metagame/", api.SeriesMetagame.as_view(), name="api_series"
    ),
]

urlpatterns = [*page_urlpatterns, *csv_urlpatterns, *api_urlpatterns]
