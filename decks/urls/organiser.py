"""Organisers: event_role_required(ORGANISER); card uploads, can_upload_cards (any event's)."""

from django.urls import path

from decks import card_views, views

urlpatterns = [
    # Site staff and anyone organising an event: a pool serves every event of its game.
    path("cards/upload/", card_views.card_upload, name="card_upload"),
    path(
        "events/<int:event_id>/decklists/<int:registration_id>/unlock/",
        views.unlock,
        name="unlock",
    ),
]
