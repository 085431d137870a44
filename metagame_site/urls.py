"""The metagame's URLs (``metagame:<name>``): who reads how much is ``services.access``,
asked by every view (public once the decklists are, else the event's staff)."""

from django.urls import path

from metagame_site import api, downloads

app_name = "metagame"

# An event's metagame as CSV, a page URL beside the event's other downloads.
csv_urlpatterns = [
    path("events/<int:event_id>/metagame.csv", downloads.event_csv, name="event_csv"),
]

# API clients, anyone (as much as services.access lets them read).
api_urlpatterns = [
    path("api/v1/events/<int:event_id>/metagame/", api.EventMetagame.as_view(), name="api_event"),
]

urlpatterns = [*csv_urlpatterns, *api_urlpatterns]
