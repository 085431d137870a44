"""The event's organisers: event_role_required(ORGANISER); events/new/ is login_required."""

from django.urls import path

from tournaments.pages import organiser_avoid, organiser_events, organiser_rounds, phases

urlpatterns = [
    # Only a login: whoever creates an event is its first organiser.
    path("events/new/", organiser_events.event_create, name="create"),
    path("events/<int:event_id>/edit/", organiser_events.event_edit, name="edit"),
    path("events/<int:event_id>/plan/", organiser_events.event_plan, name="plan"),
    path("events/<int:event_id>/manage/", organiser_rounds.dashboard, name="manage"),
    path("events/<int:event_id>/phases/", phases.manage_phases, name="phases"),
    path("events/<int:event_id>/next/", organiser_rounds.next_step, name="next_step"),
    path(
        "events/<int:event_id>/rounds/<int:number>/repair/", organiser_rounds.repair, name="repair"
    ),
    path("events/<int:event_id>/rounds/<int:number>/swap/", organiser_rounds.swap, name="swap"),
    path("events/<int:event_id>/check-in/", organiser_rounds.check_in, name="check_in"),
    path(
        "events/<int:event_id>/players/<int:registration_id>/drop/",
        organiser_rounds.drop,
        name="drop",
    ),
    path(
        "events/<int:event_id>/players/<int:registration_id>/pin/",
        organiser_rounds.pin_table,
        name="pin_table",
    ),
    path(
        "events/<int:event_id>/players/<int:registration_id>/byes/",
        organiser_rounds.award_byes,
        name="award_byes",
    ),
    path(
        "events/<int:event_id>/decklist-reminders/",
        organiser_rounds.remind_decklists,
        name="remind_decklists",
    ),
    path("events/<int:event_id>/late-entry/", organiser_rounds.late_entry, name="late_entry"),
    path(
        "events/<int:event_id>/offers/<int:offer_id>/withdraw/",
        organiser_events.withdraw_offer,
        name="withdraw_offer",
    ),
    path("events/<int:event_id>/avoid/", organiser_avoid.avoid_page, name="avoid_pairs"),
    path(
        "events/<int:event_id>/avoid/<int:pair_id>/remove/",
        organiser_avoid.remove_avoid_pair,
        name="remove_avoid_pair",
    ),
    path("events/<int:event_id>/staff/", organiser_events.grant_role, name="grant_role"),
    path(
        "events/<int:event_id>/staff/<int:grant_id>/remove/",
        organiser_events.revoke_role,
        name="revoke_role",
    ),
]
