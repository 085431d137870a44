"""API clients: each view's permission_classes and event_for(request, id, *roles)."""

from django.urls import path

from tournaments.api import avoid_pairs as avoid_api
from tournaments.api import clock as clock_api
from tournaments.api import events as api
from tournaments.api import interchange as interchange_api
from tournaments.api import organiser as organiser_api
from tournaments.api import phases as phases_api
from tournaments.api import round_audit as round_audit_api

urlpatterns = [
    path("api/v1/events/", api.EventList.as_view(), name="api_events"),
    path(
        "api/v1/events/export/",
        interchange_api.EventExportView.as_view(),
        name="api_event_export",
    ),
    path(
        "api/v1/events/import/",
        interchange_api.EventImportView.as_view(),
        name="api_event_import",
    ),
    path(
        "api/v1/schemas/arbiter-event-1.json",
        interchange_api.EventSchemaView.as_view(),
        name="api_event_schema",
    ),
    path("api/v1/events/<int:event_id>/", api.EventDetail.as_view(), name="api_event"),
    path("api/v1/events/<int:event_id>/rounds/", api.RoundList.as_view(), name="api_rounds"),
    path(
        "api/v1/events/<int:event_id>/rounds/<int:number>/",
        api.RoundDetail.as_view(),
        name="api_round",
    ),
    # Before the round actions: "audit" is no action.
    path(
        "api/v1/events/<int:event_id>/rounds/<int:number>/audit/",
        round_audit_api.RoundAuditView.as_view(),
        name="api_round_audit",
    ),
    path(
        "api/v1/events/<int:event_id>/rounds/<int:number>/<str:action>/",
        api.RoundAction.as_view(),
        name="api_round_action",
    ),
    path("api/v1/events/<int:event_id>/top-cut/", api.TopCut.as_view(), name="api_top_cut"),
    path(
        "api/v1/events/<int:event_id>/registrations/",
        api.Registrations.as_view(),
        name="api_registrations",
    ),
    path("api/v1/events/<int:event_id>/drop/", api.Drop.as_view(), name="api_drop"),
    path("api/v1/events/<int:event_id>/players/", api.Players.as_view(), name="api_players"),
    path("api/v1/events/<int:event_id>/standings/", api.Standings.as_view(), name="api_standings"),
    path("api/v1/events/<int:event_id>/phases/", phases_api.Phases.as_view(), name="api_phases"),
    path("api/v1/events/<int:event_id>/plan/", phases_api.Plan.as_view(), name="api_plan"),
    path("api/v1/events/<int:event_id>/finish/", organiser_api.Finish.as_view(), name="api_finish"),
    path("api/v1/events/<int:event_id>/staff/", organiser_api.Staff.as_view(), name="api_staff"),
    path(
        "api/v1/events/<int:event_id>/staff/<int:grant_id>/",
        organiser_api.StaffRevoke.as_view(),
        name="api_staff_grant",
    ),
    path("api/v1/events/<int:event_id>/offers/", organiser_api.Offers.as_view(), name="api_offers"),
    path(
        "api/v1/events/<int:event_id>/offers/<int:offer_id>/withdraw/",
        organiser_api.OfferWithdraw.as_view(),
        name="api_offer_withdraw",
    ),
    path(
        "api/v1/events/<int:event_id>/avoid/",
        avoid_api.AvoidPairs.as_view(),
        name="api_avoid_pairs",
    ),
    path(
        "api/v1/events/<int:event_id>/avoid/<int:pair_id>/",
        avoid_api.AvoidPairRemove.as_view(),
        name="api_avoid_pair",
    ),
    path(
        "api/v1/events/<int:event_id>/decklist-reminders/",
        organiser_api.DecklistReminders.as_view(),
        name="api_decklist_reminders",
    ),
    path(
        "api/v1/events/<int:event_id>/check-in/",
        organiser_api.SelfCheckIn.as_view(),
        name="api_check_in_self",
    ),
    # Before the match actions: "extensions" is no action.
    path(
        "api/v1/matches/<int:match_id>/extensions/",
        clock_api.MatchExtensions.as_view(),
        name="api_match_extensions",
    ),
    path(
        "api/v1/extensions/<int:extension_id>/remove/",
        clock_api.ExtensionRemove.as_view(),
        name="api_extension_remove",
    ),
    path(
        "api/v1/matches/<int:match_id>/<str:action>/",
        api.MatchAction.as_view(),
        name="api_match_action",
    ),
]
