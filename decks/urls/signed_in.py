"""Signed-in holders of a site-wide grant: login_required, then may_edit_card_pool in the view."""

from django.urls import path

from decks import card_views

urlpatterns = [
    # The pool serves every event of its game: decks.edit_card_pool, never an event role.
    path("cards/upload/", card_views.card_upload, name="card_upload"),
]
