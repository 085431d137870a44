"""A player's own record: login_required; reports.may_see_history admits them and their staff."""

from django.urls import path

from judging import reports

urlpatterns = [
    path("players/<int:user_id>/penalties/", reports.player_history, name="player_history"),
]
