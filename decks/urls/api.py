"""API clients: permission_classes, event_for and services.may_view_decklist in each view."""

from django.urls import path

from decks import api

urlpatterns = [
    path("api/v1/cards/", api.CardSearch.as_view(), name="api_cards"),
    path("api/v1/decklists/legality/", api.Legality.as_view(), name="api_legality"),
    path(
        "api/v1/events/<int:event_id>/decklists/<str:who>/",
        api.DecklistView.as_view(),
        name="api_decklist",
    ),
]
