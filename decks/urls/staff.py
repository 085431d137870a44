"""Organisers and judges: event_role_required(ORGANISER, JUDGE) on every view."""

from django.urls import path

from decks import views

urlpatterns = [
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
]
