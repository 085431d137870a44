"""Signed-in players, for their own list: login_required; the view finds their registration."""

from django.urls import path

from decks import views

urlpatterns = [
    path("events/<int:event_id>/deck/", views.my_deck, name="my_deck"),
    path("events/<int:event_id>/deck/check/", views.check, name="check"),
]
