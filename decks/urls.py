from django.urls import path

from decks import api, card_views, views

app_name = "decks"

urlpatterns = [
    path("cards/", card_views.card_list, name="cards"),
    path("cards/upload/", card_views.card_upload, name="card_upload"),
    path("cards/<int:card_id>/", card_views.card_detail, name="card"),
    path("cards/search/", views.card_search, name="card_search"),
    path("events/<int:event_id>/deck/", views.my_deck, name="my_deck"),
    path("events/<int:event_id>/deck/check/", views.check, name="check"),
    path("events/<int:event_id>/decklists/", views.decklist_index, name="index"),
    path(
        "events/<int:event_id>/decklists/<int:registration_id>/",
        views.decklist_detail,
        name="detail",
    ),
    path(
        "events/<int:event_id>/decklists/<int:registration_id>/unlock/",
        views.unlock,
        name="unlock",
    ),
    path(
        "events/<int:event_id>/decklists/<int:registration_id>/sideboard/",
        views.sideboard_check,
        name="sideboard_check",
    ),
    path("events/<int:event_id>/deck-checks/", views.deck_checks, name="deck_checks"),
    path(
        "events/<int:event_id>/deck-checks/players/<int:registration_id>/",
        views.deck_check_player,
        name="deck_check_player",
    ),
    path(
        "events/<int:event_id>/deck-checks/<int:check_id>/",
        views.deck_check_result,
        name="deck_check_result",
    ),
    path("api/v1/cards/", api.CardSearch.as_view(), name="api_cards"),
    path("api/v1/decklists/legality/", api.Legality.as_view(), name="api_legality"),
    path(
        "api/v1/events/<int:event_id>/decklists/<str:who>/",
        api.DecklistView.as_view(),
        name="api_decklist",
    ),
]
