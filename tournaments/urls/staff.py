"""Organisers and judges: event_role_required(ORGANISER, JUDGE); judge/ is login_required."""

from django.urls import path

from tournaments.pages import judge_console, staff_results

urlpatterns = [
    path(
        "events/<int:event_id>/matches/<int:match_id>/result/",
        staff_results.enter_result,
        name="enter_result",
    ),
    # Only a login: the judges' home lists just the events the user judges.
    path("judge/", judge_console.judge_console, name="judge_console"),
]
