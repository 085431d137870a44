"""A player's record: login_required; reports.history_access (them, site staff, current judges)."""

from django.urls import path

from judging import reports

urlpatterns = [
    path("players/<int:user_id>/penalties/", reports.player_history, name="player_history"),
]
