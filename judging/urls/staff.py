"""Organisers and judges: event_role_required(ORGANISER, JUDGE) on every view."""

from django.urls import path

from judging import extension_views, reports, roster_views, settle_views, views

urlpatterns = [
    path("events/<int:event_id>/judge/", views.console, name="console"),
    path("events/<int:event_id>/judge/queue/", views.console_queue, name="console_queue"),
    path("events/<int:event_id>/penalties/", views.penalty_list, name="penalties"),
    path("events/<int:event_id>/penalties/new/", views.new_penalty, name="new_penalty"),
    path("events/<int:event_id>/penalties/preview/", views.preview, name="preview"),
    path("events/<int:event_id>/penalties/<int:penalty_id>/void/", views.void, name="void"),
    path("events/<int:event_id>/judge/tables/<int:match_id>/", views.match_page, name="match"),
    path(
        "events/<int:event_id>/judge/extensions/",
        extension_views.grant_extension,
        name="grant_extension",
    ),
    path(
        "events/<int:event_id>/judge/extensions/<int:extension_id>/remove/",
        extension_views.remove_extension,
        name="remove_extension",
    ),
    path(
        "events/<int:event_id>/judge/tables/<int:match_id>/result/",
        settle_views.table_result,
        name="table_result",
    ),
    path("events/<int:event_id>/calls/new/", views.new_call, name="new_call"),
    path("events/<int:event_id>/calls/<int:call_id>/", views.call_page, name="call"),
    path(
        "events/<int:event_id>/calls/<int:call_id>/ruling/",
        views.attach_ruling,
        name="attach_ruling",
    ),
    path("events/<int:event_id>/judge/roster/", roster_views.roster_page, name="roster"),
    path(
        "events/<int:event_id>/judge/end-of-round/",
        roster_views.end_of_round,
        name="end_of_round",
    ),
    path(
        "events/<int:event_id>/judge/deck-check-tables/",
        roster_views.deck_check_tables,
        name="deck_check_tables",
    ),
    path("events/<int:event_id>/search-timer/", views.search_timer, name="search_timer"),
    path("events/<int:event_id>/penalties.csv", reports.penalty_report_csv, name="penalty_report"),
]
