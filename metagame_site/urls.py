"""The metagame's URLs (``metagame:<name>``): the event page for anyone who may see the
event (``services.access`` decides how much), the organiser's archetypes page."""

from django.urls import path

from metagame_site import views

page_urlpatterns = [
    path("events/<int:event_id>/metagame/", views.event_page, name="event"),
    path("events/<int:event_id>/metagame/archetypes/", views.archetypes_page, name="archetypes"),
    path("series/<int:series_id>/metagame/", views.series_page, name="series"),
]

app_name = "metagame"
urlpatterns = [*page_urlpatterns]
