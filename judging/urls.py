from django.urls import path

from judging import api, reports, views

app_name = "judging"

urlpatterns = [
    path("events/<int:event_id>/judge/", views.console, name="console"),
    path("events/<int:event_id>/penalties/", views.penalty_list, name="penalties"),
    path("events/<int:event_id>/penalties/new/", views.new_penalty, name="new_penalty"),
    path("events/<int:event_id>/penalties/preview/", views.preview, name="preview"),
    path("events/<int:event_id>/penalties/<int:penalty_id>/void/", views.void, name="void"),
    path("events/<int:event_id>/judge/tables/<int:match_id>/", views.match_page, name="match"),
    path("events/<int:event_id>/calls/new/", views.new_call, name="new_call"),
    path("events/<int:event_id>/calls/<int:call_id>/", views.call_page, name="call"),
    path(
        "events/<int:event_id>/calls/<int:call_id>/ruling/",
        views.attach_ruling,
        name="attach_ruling",
    ),
    path("events/<int:event_id>/search-timer/", views.search_timer, name="search_timer"),
    path("events/<int:event_id>/penalties.csv", reports.penalty_report_csv, name="penalty_report"),
    path("players/<int:user_id>/penalties/", reports.player_history, name="player_history"),
    path(
        "api/v1/events/<int:event_id>/penalties/preview/",
        api.PenaltyPreview.as_view(),
        name="api_penalty_preview",
    ),
    path(
        "api/v1/events/<int:event_id>/penalties/", api.PenaltyList.as_view(), name="api_penalties"
    ),
    path(
        "api/v1/penalties/<int:penalty_id>/void/",
        api.PenaltyVoid.as_view(),
        name="api_penalty_void",
    ),
    path("api/v1/events/<int:event_id>/calls/", api.CallList.as_view(), name="api_calls"),
    path("api/v1/calls/<int:call_id>/resolve/", api.CallResolve.as_view(), name="api_call_resolve"),
]
