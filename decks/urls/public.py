"""Anyone: no decorator; a decklist shows only as services.may_view_decklist allows."""

from django.urls import path

from decks import card_views, views

urlpatterns = [
    path("cards/", card_views.card_list, name="cards"),
    path("cards/<int:card_id>/", card_views.card_detail, name="card"),
    path("cards/search/", views.card_search, name="card_search"),
    # Staff see every list; the rest see published lists (private until the organiser says).
    path("events/<int:event_id>/decklists/", views.decklist_index, name="index"),
    path(
        "events/<int:event_id>/decklists/<int:registration_id>/",
        views.decklist_detail,
        name="detail",
    ),
]
