from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("events/", views.event_list, name="events"),
    path("events/new/", views.event_create, name="create"),
    path("events/<int:event_id>/", views.event_detail, name="event"),
    path("events/<int:event_id>/edit/", views.event_edit, name="edit"),
    path("events/<int:event_id>/manage/", views.event_manage, name="manage"),
    path("events/<int:event_id>/staff/", views.grant_role, name="grant_role"),
    path(
        "events/<int:event_id>/staff/<int:grant_id>/remove/",
        views.revoke_role,
        name="revoke_role",
    ),
    path("events/<int:event_id>/register/", views.register, name="register"),
    path("events/<int:event_id>/withdraw/", views.withdraw, name="withdraw"),
    path("me/events/", views.my_events, name="my_events"),
    path("judge/", views.judge_console, name="judge_console"),
]
