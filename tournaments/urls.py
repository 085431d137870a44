from django.urls import path

from tournaments import api, interchange_api, round_views, views

app_name = "tournaments"

urlpatterns = [
    path("events/", views.event_list, name="events"),
    path("events/new/", views.event_create, name="create"),
    path("events/<int:event_id>/", views.event_detail, name="event"),
    path("events/<int:event_id>/edit/", views.event_edit, name="edit"),
    path("events/<int:event_id>/manage/", round_views.dashboard, name="manage"),
    path("events/<int:event_id>/next/", round_views.next_step, name="next_step"),
    path("events/<int:event_id>/rounds/<int:number>/repair/", round_views.repair, name="repair"),
    path("events/<int:event_id>/rounds/<int:number>/swap/", round_views.swap, name="swap"),
    path(
        "events/<int:event_id>/matches/<int:match_id>/result/",
        round_views.enter_result,
        name="enter_result",
    ),
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
    path("events/<int:event_id>/late-entry/", round_views.late_entry, name="late_entry"),
    path("events/<int:event_id>/my-match/", round_views.my_match, name="my_match"),
    path("events/<int:event_id>/matches/<int:match_id>/", round_views.match_page, name="match"),
    path("events/<int:event_id>/drop/", round_views.drop_self, name="drop_self"),
    path("events/<int:event_id>/pairings/", round_views.pairings, name="pairings"),
    path("events/<int:event_id>/standings/", round_views.standings, name="standings"),
    path("events/<int:event_id>/bracket/", round_views.bracket_page, name="bracket"),
    path("events/<int:event_id>/projector/", round_views.projector, name="projector"),
    path("events/<int:event_id>/staff/", views.grant_role, name="grant_role"),
    path(
        "events/<int:event_id>/staff/<int:grant_id>/remove/",
        views.revoke_role,
        name="revoke_role",
    ),
    path("events/<int:event_id>/register/", views.register, name="register"),
    path("events/<int:event_id>/withdraw/", views.withdraw, name="withdraw"),
    path("me/events/", views.my_events, name="my_events"),
    # API
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
    path(
        "api/v1/matches/<int:match_id>/<str:action>/",
        api.MatchAction.as_view(),
        name="api_match_action",
    ),
    path("judge/", views.judge_console, name="judge_console"),
]
