"""The event's organisers: event_role_required(ORGANISER); events/new/ is login_required."""

from django.urls import path

from tournaments import round_views, views

urlpatterns = [
    # Only a login: whoever creates an event is its first organiser.
    path("events/new/", views.event_create, name="create"),
    path("events/<int:event_id>/edit/", views.event_edit, name="edit"),
    path("events/<int:event_id>/manage/", round_views.dashboard, name="manage"),
    path("events/<int:event_id>/next/", round_views.next_step, name="next_step"),
    path("events/<int:event_id>/rounds/<int:number>/repair/", round_views.repair, name="repair"),
    path("events/<int:event_id>/rounds/<int:number>/swap/", round_views.swap, name="swap"),
    path("events/<int:event_id>/check-in/", round_views.check_in, name="check_in"),
    path(
        "events/<int:event_id>/players/<int:registration_id>/drop/",
        round_views.drop,
        name="drop",
    ),
    path(
        "events/<int:event_id>/players/<int:registration_id>/pin/",
        round_views.pin_table,
        name="pin_table",
    ),
    path(
        "events/<int:event_id>/decklist-reminders/",
        round_views.remind_decklists,
        name="remind_decklists",
    ),
    path("events/<int:event_id>/late-entry/", round_views.late_entry, name="late_entry"),
    path(
        "events/<int:event_id>/offers/<int:offer_id>/withdraw/",
        views.withdraw_offer,
        name="withdraw_offer",
    ),
    path("events/<int:event_id>/staff/", views.grant_role, name="grant_role"),
    path(
        "events/<int:event_id>/staff/<int:grant_id>/remove/",
        views.revoke_role,
        name="revoke_role",
    ),
]
